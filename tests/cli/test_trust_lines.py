"""`toolex eval`, `stats` and `report` say what stands behind new: the trust lines go to stderr,
JSON rows carry them as `trust`, CSV stays one plain table."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from reports.fixtures import build
from reports.trust_fixtures import LLM, fitted, llm_expansion

from toolex.cli import cli
from toolex.judges import operating_points
from toolex.store import Store

# the offline verifier's figures on toolret's libraries, each judged by the cut chosen on the
# other labelled libraries (benchmarks/fit_offline_judge.py)


def _shipped() -> operating_points.HeldOut:
    held = operating_points.held_out("heuristic", "toolret")
    assert held and held.precision_ci and held.recall_ci  # shipped in the wheel
    return held


HELD_OUT = _shipped()
assert HELD_OUT.precision_ci and HELD_OUT.recall_ci
(P_LOW, P_HIGH), (R_LOW, R_HIGH) = HELD_OUT.precision_ci, HELD_OUT.recall_ci
SHIPPED_LINE = (
    f"trust toolret/default verify heuristic: precision {HELD_OUT.precision:.3f} "
    f"[{P_LOW:.2f}, {P_HIGH:.2f}], recall "
    f"{HELD_OUT.recall:.3f} [{R_LOW:.2f}, {R_HIGH:.2f}] on "
    f"toolex-pipeline-v2 labels of toolret, its cut chosen on the other labelled libraries, "
    f"n={HELD_OUT.labels}, {HELD_OUT.accepted_labels} accepted"
)
LLM_LINE = f"trust toolret/llm verify {LLM}: unvalidated: nothing has measured this judge"


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "t.duckdb"
    with Store.open(path) as store:
        llm_expansion(fitted(build(store)))
    return str(path)


def run(args: list[str]) -> Result:
    result = CliRunner().invoke(cli, args)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, result.output
    return result


def test_eval_table_prints_the_trust_lines_on_stderr(db: str) -> None:
    res = run(["eval", "--db", db, "--run", "bm25", "--k", "3"])
    (line,) = [x for x in res.stderr.splitlines() if x.startswith(SHIPPED_LINE)]
    # round 6 checked these rules (fresh_checks.json says which): its figure follows the held-out
    assert line.endswith(
        "on a fresh blind sample of its accepted verdicts (docs/labels/fresh/round6) "
        "precision 0.900 [0.79, 0.96], 50 labelled"
    )
    assert "trust toolret/default combinations: no review yet" in res.stderr
    assert "trust" not in res.stdout and "unvalidated" not in res.stderr


def test_eval_marks_an_unvalidated_expansion(db: str) -> None:
    res = run(["eval", "--db", db, "--run", "bm25", "--k", "3", "--expansion", "llm"])
    lines = res.stderr.splitlines()
    assert LLM_LINE in lines
    assert any(line.startswith("trust toolret/llm: unvalidated — ") for line in lines)


def test_eval_json_rows_carry_the_trust(db: str) -> None:
    res = run(["eval", "--db", db, "--run", "bm25", "--k", "3", "--format", "json"])
    rows = [r for r in json.loads(res.stdout) if r["query"] is None]
    assert rows and all(r["trust"] == rows[0]["trust"] for r in rows)
    trust = rows[0]["trust"]
    assert (trust["benchmark"], trust["expansion"], trust["unvalidated"]) == (
        "toolret",
        "default",
        False,
    )
    verify = next(j for j in trust["judges"] if j["stage"] == "verify")
    assert (verify["judge"], verify["basis"], verify["accepted"]) == (
        "heuristic",
        "held out",
        HELD_OUT.accepted_labels,
    )
    assert verify["precision"] == pytest.approx(HELD_OUT.precision)
    assert trust["review"] is None
    res = run(["eval", "--db", db, "--run", "bm25", "--expansion", "llm", "--format", "json"])
    assert all(r["trust"]["unvalidated"] for r in json.loads(res.stdout) if r["query"] is None)


def test_eval_csv_stays_a_plain_table(db: str) -> None:
    res = run(["eval", "--db", db, "--run", "bm25", "--k", "3", "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    assert rows and "trust" not in rows[0]
    assert all(r["run"] == "bm25" for r in rows)
    assert SHIPPED_LINE in res.stderr


def test_stats_prints_the_trust_lines_and_json_carries_them(db: str) -> None:
    res = run(["stats", "--db", db, "--benchmark", "toolret", "--expansion", "llm"])
    assert LLM_LINE in res.stderr.splitlines()
    res = run(["stats", "--db", db, "--benchmark", "toolret", "--format", "json"])
    rows = json.loads(res.stdout)
    assert rows[0]["trust"]["unvalidated"] is False
    assert SHIPPED_LINE in res.stderr
    res = run(["stats", "--db", db, "--benchmark", "toolret", "--format", "csv"])
    assert "trust" not in next(csv.reader(io.StringIO(res.stdout)))


def test_report_prints_the_trust_lines_and_writes_the_section(db: str, tmp_path: Path) -> None:
    out = tmp_path / "rep"
    args = ["report", "--db", db, "--out", str(out), "--run", "bm25", "--k", "3"]
    res = run([*args, "--permutations", "20", "--bootstrap", "20"])
    assert SHIPPED_LINE in res.stderr
    md = (out / "report.md").read_text()
    assert "## How far to trust this\n" in md
    assert "## How far to trust this: new, thinned to the measured precision" in md
    assert f"| heuristic {HELD_OUT.precision:.3f} |" in md
    res = run([*args, "--expansion", "llm", "--permutations", "20", "--bootstrap", "20"])
    assert LLM_LINE in res.stderr
    rows = json.loads((out / "trust.json").read_text())["rows"]
    verify = next(r for r in rows if r["stage"] == "verify")
    assert (verify["judge"], verify["measured_on"]) == (
        LLM,
        "unvalidated: nothing has measured this judge",
    )
