"""`toolex judges eval` for a local model (issue 28.5): a seeded sample (--limit/--seed), a call
budget that exits 3 and is spread over the labels' queries (--max-calls), a table that keeps every
column when piped, progress that keeps coming while calls are slow, and a server moved to another
port that resumes from the ledger. Over the scripted server, on tests/labels/data/small.jsonl
(seven labels of the hand-checked benchmark of tests/pipeline/fixtures.py: five of q1, two
of q2)."""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from pipeline.fixtures import build

from llm.llm_support import ScriptedServer
from llm.scripted_answers import task_text
from toolex.cli import cli
from toolex.cli.progress import LineProgress
from toolex.labels.evaluate import evaluate_verify, sample_labels
from toolex.labels.table import checked_labels
from toolex.llm.calls import Call
from toolex.llm.clients import Reply, Request
from toolex.llm.executor import Executor
from toolex.llm.ledger import Ledger
from toolex.llm.retry import Policy
from toolex.progress import progress, reporting
from toolex.store import Store

SMALL = Path(__file__).resolve().parents[1] / "labels" / "data" / "small.jsonl"
MODEL = "qwen2.5-coder-1.5b-instruct-q4"


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "j.duckdb")
    with Store.open(path) as store:
        build(store)
    return path


def evaluate(db: str, *args: str) -> Result:
    base = ["judges", "eval", "--labels", str(SMALL), "--db", db]
    return CliRunner().invoke(cli, [*base, *args])


def compat(server: ScriptedServer) -> str:
    return f"compat:{server.url}/v1#{MODEL}"


def saved(db: str) -> list[dict[str, Any]]:
    with Store.open(db, read_only=True) as store:
        rows: list[dict[str, Any]] = store.user_sql(
            "SELECT DISTINCT source FROM judge_evaluations"
        ).to_pylist()
        return rows


def test_a_seeded_sample_is_the_same_for_the_same_seed_and_saved_apart(db: str) -> None:
    with Store.open(db, read_only=True) as store:
        labels, _ = checked_labels(store, SMALL)
    one, name, notes = sample_labels(labels, "small.jsonl", 4, seed=1)
    again, _, _ = sample_labels(labels, "small.jsonl", 4, seed=1)
    other, _, _ = sample_labels(labels, "small.jsonl", 4, seed=3)
    assert one == again and one != other and len(one) == 4
    assert [labels.index(x) for x in one] == sorted(labels.index(x) for x in one)  # in order
    assert name == "small.jsonl (sample of 4, seed 1)"
    assert notes == [
        "a seeded sample: 4 of 7 labels, spread over benchmarks and parts (b 2, b/units 1, "
        "b/weather 1; seed 1: the same labels again)"
    ]
    assert sample_labels(labels, "small.jsonl", 99, seed=1) == (labels, "small.jsonl", [])

    res = evaluate(db, "--judge", "heuristic", "--limit", "4", "--seed", "1", "--format", "json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["labels"] == 4
    assert "note: a seeded sample: 4 of 7 labels, spread over benchmarks and parts" in res.stderr
    assert saved(db) == [{"source": "small.jsonl (sample of 4, seed 1)"}]
    alone = evaluate(db, "--judge", "heuristic", "--seed", "3")
    assert alone.exit_code == 2 and "--seed draws the --limit sample and orders a" in alone.output


def test_a_call_budget_exits_3_spreads_over_the_queries_and_resumes(
    llm_env: dict[str, str], db: str
) -> None:
    with ScriptedServer() as server:
        capped = evaluate(db, "--judge", compat(server), "--max-calls", "2")
        assert capped.exit_code == 3, capped.output
        asked = [task_text(r["body"]) for r in server.requests]
        assert len(asked) == 2
        # one call for each query's first label, not two for q1 (labels are sorted by key)
        assert sum("stock" in t.lower() for t in asked) == 1
        assert "stopped: the call budget (2 calls) was spent" in capped.stderr
        assert "saved to judge_evaluations" not in capped.stderr and saved(db) == []

        done = evaluate(db, "--judge", compat(server), "--format", "json")
        assert done.exit_code == 0, done.output
        assert server.count("chat") == 7  # the two answers of the capped run were served
    [report] = json.loads(done.stdout)["judges"]
    assert report["overall"]["n"] == 7 and report["calls"]["cached"] == 2


def test_a_server_on_another_port_is_the_same_judge(llm_env: dict[str, str], db: str) -> None:
    """The model is the judge, not the URL: a server restarted on another port resumes."""
    with ScriptedServer() as first:
        ran = evaluate(db, "--judge", compat(first), "--format", "json")
        assert ran.exit_code == 0 and first.count("chat") == 7
    with ScriptedServer() as moved:
        again = evaluate(db, "--judge", compat(moved), "--format", "json")
        assert again.exit_code == 0, again.output
        assert moved.count("chat") == 0
    assert json.loads(again.stdout)["judges"][0]["calls"]["cached"] == 7
    with ScriptedServer() as renamed:  # another model name is another judge
        evaluate(db, "--judge", f"compat:{renamed.url}/v1#another-model")
        assert renamed.count("chat") == 7


def test_a_piped_table_keeps_every_column(llm_env: dict[str, str], db: str) -> None:
    """Issue 28.5: piped, the figures table of a long compat spec and a second judge was cut
    at 80 columns ("tn 25" printed as "2")."""
    with ScriptedServer() as server:
        judges = ["--judge", compat(server), "--judge", "heuristic"]
        as_json = json.loads(evaluate(db, *judges, "--format", "json").stdout)
        table = evaluate(db, *judges)
    assert table.exit_code == 0, table.output
    [row] = [line for line in table.stdout.splitlines() if line.strip().startswith("tp / fp")]
    for report in as_json["judges"]:
        o = report["overall"]
        assert f"{o['tp']} / {o['fp']} / {o['fn']} / {o['tn']}" in row
    # the spec heads its column folded over lines (80 columns: issue 35.18)
    assert "heuristic" in table.stdout and "compat:http://" in table.stdout


class Recorder:
    """A progress reporter that keeps what it was told."""

    def __init__(self) -> None:
        self.started: list[tuple[str, int]] = []
        self.pulses = 0
        self.pulsed = threading.Event()

    def start(self, label: str, total: int, *, unit: str = "items") -> None:
        self.started.append((label, total))

    def advance(self, n: int = 1, **fields: object) -> None:
        if n == 0:
            self.pulses += 1
            self.pulsed.set()

    def finish(self) -> None:
        pass


class WaitsForAPulse:
    """A client whose answer comes only once the executor has reported progress while waiting
    (deterministic: no sleep decides the outcome)."""

    provider, model, max_tokens = "compat", "fake", 100

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder

    def complete(self, request: Request) -> Reply:
        self.recorder.pulsed.wait(60)
        return Reply('{"verdict": "no", "reason": "r"}', 10, 5)

    def mode_for(self, request: Request) -> str:
        return "none"

    def fallback(self, mode: str) -> None:
        return None

    def adopt(self, mode: str) -> None:
        pass

    def start_at(self, structured: str) -> None:
        pass


def test_progress_is_reported_while_a_call_is_slow(store: Store) -> None:
    """Plain progress lines come from reports; the executor reports while it waits (and the
    first Ctrl-C, which stops work at the next report, lands there too)."""
    recorder = Recorder()
    executor = Executor(
        WaitsForAPulse(recorder),
        Ledger(store),
        stage="verify",
        judge="compat:fake",
        prompt_version="v",
        policy=Policy(max_in_flight=1),
    )
    executor.flush_s = 0.05
    with reporting(recorder):
        [result] = list(executor.run([Call("a", "h-a", "s", "a", json.loads)]))
    assert result.ok and recorder.pulses >= 1


def test_a_decomposition_in_memory_is_a_progress_task(db: str) -> None:
    recorder = Recorder()
    with Store.open(db) as store, reporting(recorder):
        labels, _ = checked_labels(store, SMALL)
        evaluate_verify(store, ["heuristic"], labels, "small.jsonl", save=False)
    # every labelled query is decomposed, as an expansion would ask the verifier (q1 and q2)
    assert ("decompose b (in memory)", 2) in recorder.started
    assert ("judges eval heuristic", 7) in recorder.started


class SignalledStream(io.StringIO):
    """stderr for plain progress lines; says when the first line was written."""

    def __init__(self) -> None:
        super().__init__()
        self.written = threading.Event()

    def write(self, s: str) -> int:
        n = super().write(s)
        self.written.set()
        return n


class WaitsForALine(WaitsForAPulse):
    """A client that answers only once a plain progress line has been printed."""

    def __init__(self, stream: SignalledStream) -> None:
        self.stream = stream

    def complete(self, request: Request) -> Reply:
        self.stream.written.wait(60)
        return Reply('{"verdict": "no", "reason": "r"}', 10, 5)


def test_a_plain_progress_line_is_printed_before_the_slow_call_ends(store: Store) -> None:
    """Issue 28.5 (22 minutes without a line): on a pipe, the line comes while the only call of
    the task is still waiting, not when it ends."""
    out = SignalledStream()
    executor = Executor(
        WaitsForALine(out),
        Ledger(store),
        stage="verify",
        judge="compat:fake",
        prompt_version="v",
        policy=Policy(max_in_flight=1),
    )
    executor.flush_s = 0.05
    with (
        reporting(LineProgress(stream=out, every_s=0)),
        progress("judges eval compat:fake", 1, unit="verdicts") as advance,
    ):
        [result] = list(executor.run([Call("a", "h-a", "s", "a", json.loads)]))
        before = out.getvalue()
        advance(1)
    assert result.ok
    assert before.startswith("judges eval compat:fake: 0/1 verdicts")
