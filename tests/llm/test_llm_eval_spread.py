"""Issue 35.15: `judges eval` stopped early (--max-calls, --limit) covered only the first
benchmark's labels, for it worked through them in stored order. Both are spread over the labels'
benchmarks and parts, in the seed's order. Two copies of the hand-checked benchmark of
tests/pipeline/fixtures.py, ``b`` and ``c`` (c's requests name Lyon and MSFT where b's name Paris
and AAPL, so that a request to the scripted server says whose label it judges), each with the
seven labels of tests/labels/data/small.jsonl."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from pipeline.fixtures import build

from llm.llm_support import ScriptedServer
from llm.scripted_answers import task_text
from toolex.cli import cli
from toolex.labels.evaluate import sample_labels
from toolex.labels.table import checked_labels
from toolex.store import Store

SMALL = Path(__file__).resolve().parents[1] / "labels" / "data" / "small.jsonl"
MODEL = "qwen2.5-coder-1.5b-instruct-q4"


@pytest.fixture
def two(tmp_path: Path) -> tuple[str, Path]:
    db = str(tmp_path / "two.duckdb")
    with Store.open(db) as store:
        build(store)
        con = store.con
        con.execute("INSERT INTO benchmarks (benchmark, format, source) VALUES ('c', 'test', 'x')")
        con.execute("INSERT INTO items SELECT * REPLACE ('c' AS benchmark) FROM items")
        con.execute(
            "INSERT INTO queries SELECT * REPLACE ('c' AS benchmark, replace(replace(text, "
            "'Paris', 'Lyon'), 'AAPL', 'MSFT') AS text) FROM queries"
        )
        con.execute("INSERT INTO qrels SELECT * REPLACE ('c' AS benchmark) FROM qrels")
    labels = tmp_path / "two.jsonl"
    lines = SMALL.read_text().splitlines()
    labels.write_text("\n".join([*lines, *(json.dumps(json.loads(line) | {"benchmark": "c"})
                                           for line in lines)]) + "\n")  # fmt: skip
    return db, labels


def test_a_limited_sample_takes_each_benchmark_and_part_in_turn(two: tuple[str, Path]) -> None:
    db, path = two
    with Store.open(db, read_only=True) as store:
        labels, _ = checked_labels(store, path)
    for seed in range(10):
        sample, _, _ = sample_labels(labels, "two", 6, seed)
        assert Counter(label.benchmark for label in sample) == {"b": 3, "c": 3}, seed
        parts = Counter((label.stratum or {}).get("part") for label in sample)
        assert parts == {"weather": 2, "units": 2, None: 2}, seed  # one per stratum, per bench


def test_a_call_budget_judges_labels_of_every_benchmark(
    llm_env: dict[str, str], two: tuple[str, Path]
) -> None:
    db, labels = two
    with ScriptedServer() as server:
        capped = CliRunner().invoke(cli, [
            "judges", "eval", "--labels", str(labels), "--db", db, "--format", "json",
            "--judge", f"compat:{server.url}/v1#{MODEL}", "--max-calls", "2", "--seed", "1",
        ])  # fmt: skip
        assert capped.exit_code == 3, capped.output
        asked = [task_text(r["body"]) for r in server.requests]
    assert len(asked) == 2
    assert sorted("Lyon" in t or "MSFT" in t for t in asked) == [False, True], asked
    [report] = json.loads(capped.stdout)["judges"]
    judged = {s["stratum"]: s["n"] for s in report["strata"] if s["dimension"] == "benchmark"}
    assert judged == {"b": 1, "c": 1}
