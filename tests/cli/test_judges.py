"""`toolex judges eval` and `toolex labels`: the heuristic judge on a committed label file with
figures computed by hand, an LLM judge over real HTTP (scripted server: dry-run cost line, a
second run served by the ledger), and the shipped set on the shared data (slow)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from llm.scripted_server import ScriptedServer
from pipeline.fixtures import build

from toolex.cli import cli
from toolex.errors import ToolexError
from toolex.store import Store

SMALL = Path(__file__).resolve().parents[1] / "labels" / "data" / "small.jsonl"
# Under `heuristic`, small.jsonl's seven labels give (hand-checked, one by one):
#   yes/yes wx_b::forecast, cv2::c2f (tp 2); yes/no wx_c::forecast (fp 1);
#   no/yes st::quote for c2f (fn 1, a deliberately wrong label); no/no the other three (tn 3).
HAND = {"n": 7, "tp": 2, "fp": 1, "fn": 1, "tn": 3}


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "j.duckdb")
    with Store.open(path) as store:
        build(store)
    return path


def run(args: list[str]) -> Result:
    return CliRunner().invoke(cli, args)


def evaluations(db: str) -> list[dict[str, Any]]:
    with Store.open(db, read_only=True) as store:
        rows: list[dict[str, Any]] = store.user_sql(
            "SELECT judge, stage, source, benchmark, n, tp, fp, fn, tn, precision, recall, kappa "
            "FROM judge_evaluations ORDER BY ALL"
        ).to_pylist()
    return rows


def test_heuristic_on_the_small_label_file(db: str) -> None:
    res = run(
        ["judges", "eval", "--judge", "heuristic", "--labels", str(SMALL), "--db", db]
        + ["--format", "json"]
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert (out["source"], out["labels"]) == ("small.jsonl", 7)
    [judge] = out["judges"]
    overall = judge["overall"]
    assert {k: overall[k] for k in HAND} == HAND
    assert overall["precision"] == pytest.approx(2 / 3)
    assert overall["recall"] == pytest.approx(2 / 3)
    assert overall["f1"] == pytest.approx(2 / 3)
    assert overall["accuracy"] == pytest.approx(5 / 7)
    assert overall["baseline"] == pytest.approx(4 / 7)
    assert overall["kappa"] == pytest.approx(5 / 12)  # (5/7 - 25/49) / (1 - 25/49)
    assert overall["precision_lo"] == pytest.approx(0.20766, abs=1e-5)  # Wilson 2/3
    [fa] = judge["false_accepts"]
    assert (fa["candidate"], fa["note"]) == (
        "wx_c::forecast",
        "forecast by day, not the city's forecast now",
    )
    assert fa["reason"].startswith("yes: all six points hold; score")
    [fr] = judge["false_rejects"]
    assert (fr["reference"], fr["candidate"]) == ("cv::c2f", "st::quote")
    assert "deliberately wrong" in fr["note"] and fr["reason"].startswith("no:")
    strata = {(s["dimension"], s["stratum"]): s for s in judge["strata"]}
    assert strata[("part", "weather")]["fp"] == 1 and strata[("part", "weather")]["tp"] == 1
    assert strata[("rank band", "unranked")]["n"] == 2  # q2: no stratum, no expansion
    assert "sub-queries: 7 decomposed by heuristic" in res.stderr  # as an expansion would
    # one row for all ('*') and one per benchmark, replaced by a re-run
    rows = evaluations(db)
    assert [(r["benchmark"], r["n"], r["tp"], r["fp"], r["fn"], r["tn"]) for r in rows] == [
        ("*", 7, 2, 1, 1, 3),
        ("b", 7, 2, 1, 1, 3),
    ]
    assert rows[0]["kappa"] == pytest.approx(5 / 12)
    assert (
        run(
            ["judges", "eval", "--judge", "heuristic", "--labels", str(SMALL), "--db", db]
        ).exit_code
        == 0
    )
    assert len(evaluations(db)) == 2
    # nothing of the pipeline was written
    with Store.open(db, read_only=True) as store:
        assert store.scalar("store/11_expansions.sql", {"benchmark": None}) is None


def test_table_and_csv_show_the_same_figures(db: str) -> None:
    res = run(
        ["judges", "eval", "--judge", "heuristic", "--judge", "heuristic:prescreen"]
        + ["--labels", str(SMALL), "--db", db, "--errors", "1"]
    )
    assert res.exit_code == 0, res.output
    text = res.stdout
    assert re.search(r"precision\s+0\.667 \[0\.21, 0\.94\]", text)
    assert re.search(r"kappa\s+0\.417 \[", text)
    assert re.search(r'accuracy of always "no"\s+0\.571', text)
    assert re.search(r"tp / fp / fn / tn\s+2 / 1 / 1 / 3", text)
    assert "pre-screens" in text and "equivalents kept (recall)" in text
    assert "heuristic: false accepts, 1 of 1" in text and "wx_c::forecast" in text
    assert "label no: forecast by day" in text
    assert "percentile bootstrap" in res.stderr and "saved to judge_evaluations" in res.stderr
    csv = run(
        ["judges", "eval", "--judge", "heuristic", "--labels", str(SMALL), "--db", db]
        + ["--format", "csv"]
    )
    lines = csv.stdout.splitlines()
    assert lines[0].startswith("judge,stage,source,dimension,stratum,n,tp,fp,fn,tn,precision,")
    assert lines[1].startswith("heuristic,verify,small.jsonl,all,all,7,2,1,1,3,0.666")


def test_stored_labels_and_sources(db: str, tmp_path: Path) -> None:
    imp = run(["labels", "import", str(SMALL), "--source", "set1", "--db", db])
    assert imp.exit_code == 0, imp.output
    assert "imported 7 labels (3 yes, 4 no) of source set1" in imp.stderr
    listed = run(["labels", "list", "--db", db, "--format", "json"])
    assert [(r["source"], r["labels"], r["yes"], r["no"]) for r in json.loads(listed.stdout)] == [
        ("set1", 7, 3, 4)
    ]
    res = run(["judges", "eval", "--judge", "heuristic", "--db", db, "--format", "json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["source"] == "set1"
    run(["labels", "import", str(SMALL), "--source", "set2", "--db", db])
    several = run(["judges", "eval", "--judge", "heuristic", "--db", db])
    assert isinstance(several.exception, ToolexError)
    assert "name one with --source" in str(several.exception)
    out = tmp_path / "set2.csv"
    exp = run(["labels", "export", "--out", str(out), "--source", "set2", "--db", db])
    assert exp.exit_code == 0 and "wrote 7 labels" in exp.stderr
    assert out.read_text().startswith("benchmark,query_id,slot,subquery,reference,candidate,label")
    again = run(["labels", "import", str(out), "--db", db])
    assert "replaced 7 earlier labels of set2" in again.stderr


def test_without_labels_the_shipped_set_needs_both_benchmarks(db: str) -> None:
    res = run(["judges", "eval", "--judge", "heuristic", "--db", db])
    assert isinstance(res.exception, ToolexError)
    msg = str(res.exception)
    assert "toolex load toolret ../shared/data/toolret" in msg
    assert "toolex load stabletoolbench ../shared/data/stabletoolbench" in msg
    shipped = run(["labels", "import", "--shipped", "--db", db])
    assert isinstance(shipped.exception, ToolexError)


def test_misspelled_names_are_refused(db: str) -> None:
    for args in (
        ["judges", "eval", "--judge", "heuristic", "--benchmark", "bb"],
        ["judges", "eval", "--judge", "heuristic", "--expansion", "defualt"],
        ["labels", "export", "--out", "x.jsonl", "--benchmark", "bb"],
        ["labels", "import", "--shipped", "--benchmark", "bb"],
    ):
        res = run([*args, "--db", db])
        assert "did you mean" in str(res.exception), args


def test_heuristic_dry_run_costs_nothing(db: str) -> None:
    res = run(
        ["judges", "eval", "--judge", "heuristic", "--labels", str(SMALL), "--db", db]
        + ["--dry-run", "--format", "json"]
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == [
        {
            "judge": "heuristic",
            "stage": "verify",
            "tasks": 7,
            "calls": 0,
            "cached": 0,
            "cost_usd": 0.0,
        }
    ]
    assert (
        "dry run: 0 calls to make, 0 answered by the ledger, estimated cost $0.0000" in res.stderr
    )
    assert evaluations(db) == []


# -- an LLM judge over real HTTP ---------------------------------------------------------------


def topic(user: str, block: str) -> str | None:
    """What one documentation block of a verify prompt is about (None: neither topic)."""
    found = re.search(rf"BEGIN {block}[^>]*>>\n(.*?)\n<<", user, re.S)
    assert found, f"not a verify prompt: no {block} block"
    text = found.group(1)
    return "forecast" if "forecast" in text else "c2f" if "fahrenheit" in text else None


def responder(provider: str, body: dict[str, Any]) -> str:
    """Verify prompts: yes iff candidate and reference are both about the forecast or both
    about celsius to fahrenheit: on small.jsonl, the heuristic's decisions (HAND)."""
    user = next(m["content"] for m in body["messages"] if m["role"] == "user")
    ref, cand = topic(user, "REFERENCE"), topic(user, "CANDIDATE")
    yes = ref is not None and ref == cand
    return json.dumps({"verdict": "yes" if yes else "no", "reason": "scripted verify answer"})


def test_an_llm_judge_through_the_ledger(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with ScriptedServer(responder) as server:
        config = tmp_path / "toolex.toml"
        config.write_text(f'[llm]\nopenai_base_url = "{server.url}/v1"\nmax_in_flight = 4\n')
        args = ["judges", "eval", "--judge", "openai:gpt-4o-mini", "--labels", str(SMALL)]
        args += ["--config", str(config), "--db", db]

        dry = run([*args, "--dry-run"])  # no key needed, nothing called
        assert dry.exit_code == 0, dry.output
        line = re.search(
            r"dry run: (\d+) calls to make, (\d+) answered by the ledger, "
            r"estimated cost \$(\d+\.\d{4}); nothing was called",
            dry.stderr,
        )
        assert line, dry.stderr
        assert (line.group(1), line.group(2)) == ("7", "0") and float(line.group(3)) > 0
        assert server.count("chat") == 0

        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai-5f3a9c")
        first = run([*args, "--format", "json"])
        assert first.exit_code == 0, first.output
        assert server.count("chat") == 7
        overall = json.loads(first.stdout)["judges"][0]["overall"]
        assert {k: overall[k] for k in HAND} == HAND
        assert re.search(
            r"openai:gpt-4o-mini: 7 calls made, 0 answers from the ledger, \$0\.\d{4}", first.stderr
        )

        second = run([*args, "--format", "json"])
        assert second.exit_code == 0, second.output
        assert server.count("chat") == 7  # the second run made no HTTP call
        assert json.loads(second.stdout)["judges"][0]["overall"] == overall
        assert "0 calls made, 7 answers from the ledger, $0.0000" in second.stderr

        monkeypatch.delenv("OPENAI_API_KEY")
        cached = run([*args, "--dry-run"])
        assert (
            "dry run: 0 calls to make, 7 answered by the ledger, estimated cost $0.0000"
            in cached.stderr
        )
        assert server.count("chat") == 7


# -- the shipped set on the shared data -----------------------------------------------------------


@pytest.mark.shared_data
@pytest.mark.slow
def test_heuristic_on_the_shipped_set(shared_data: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "shipped.duckdb")
    for fmt in ("toolret", "stabletoolbench"):
        res = run(["load", fmt, str(shared_data / fmt), "--db", db])
        assert res.exit_code == 0, res.output
    res = run(
        ["judges", "eval", "--judge", "heuristic", "--judge", "heuristic:prescreen"] + ["--db", db]
    )
    assert res.exit_code == 0, res.output
    assert "using the shipped set pipeline-v2.jsonl" in res.stderr
    assert "in sample: the offline judge's cut was chosen on" in res.stderr
    assert "the figures describe the labelled sample, not the candidate population" in res.stderr
    text = res.stdout
    assert "verify verdicts vs 1380 labels of" in text and "toolex-pipeline-v2" in text
    precision = re.search(r"precision\s+(\d\.\d{3}) \[(\d\.\d\d), (\d\.\d\d)\]", text)
    assert precision and float(precision.group(1)) >= 0.85 and float(precision.group(2)) >= 0.7
    for figure in ("recall", "F1", "accuracy", 'accuracy of always "no"', "kappa"):
        assert re.search(rf"{re.escape(figure)}\s+\d\.\d{{3}} \[\d\.\d\d, \d\.\d\d\]", text), figure
    kept = re.search(r"equivalents kept \(recall\)\s+(\d\.\d{3})", text)
    assert kept and float(kept.group(1)) >= 0.97
    for stratum in ("stabletoolbench", "toolret", "accepted", "unjudged", "rank 1-3", "rank 21+"):
        assert stratum in text
    rows = {r["judge"]: r for r in evaluations(db) if r["benchmark"] == "*"}
    assert rows["heuristic"]["n"] == 1380 and rows["heuristic"]["precision"] >= 0.85
    assert rows["heuristic:prescreen"]["recall"] >= 0.97
