"""Issue 15, `toolex expand` and `toolex stats` as a user meets them: a dry run needs no key and
totals the cost; a finished expansion says so; the summary ends with the outcome; a degenerate
expansion is warned about with its likely cause; failed queries are listed with their reasons."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from pipeline.fixtures import build

from toolex.cli import cli
from toolex.loaders import load_plain
from toolex.store import Store


def run(args: list[str]) -> Result:
    result = CliRunner().invoke(cli, args)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "e.duckdb")
    with Store.open(path) as store:
        build(store)
    return path


def test_dry_run_needs_no_key_and_totals_the_cost(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    res = run(["expand", "--db", db, "--benchmark", "b", "--dry-run", "--format", "json",
               "--judge", "openai:gpt-4o-mini"])  # fmt: skip
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert [r["stage"] for r in rows] == [
        "decompose", "candidates", "verify", "assemble", "audit", "total"
    ]  # fmt: skip
    judged = [r for r in rows if r["stage"] in ("decompose", "verify", "audit")]
    assert {r["judge"] for r in judged} == {"openai:gpt-4o-mini"}  # the full name
    total = rows[-1]
    assert total["calls_now"] == sum(r["calls_now"] for r in rows[:-1]) == 2
    costs = [r["cost_usd_at_most"] for r in rows[:-1]]
    assert total["cost_usd_at_most"] == (None if None in costs else round(sum(costs), 4))
    import os

    assert "OPENAI_API_KEY" not in os.environ  # the placeholder is gone again


def test_expand_ends_with_the_outcome_and_a_dry_run_then_says_it_is_complete(db: str) -> None:
    done = run(["expand", "--db", db, "--benchmark", "b"])
    assert done.exit_code == 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("outcome: ") and "valid combinations" in last
    assert "equivalents per sub-query" in last and "queries with an alternative" in last
    assert "outcome of b / default" in done.stdout and "queries_with_alternative" in done.stdout
    again = run(["expand", "--db", db, "--benchmark", "b"])  # nothing left: same outcome
    assert again.stderr.strip().splitlines()[-1] == last
    dry = run(["expand", "--db", db, "--benchmark", "b", "--dry-run"])
    assert "expansion 'default' of 'b' is complete" in dry.stderr
    assert "decompose by heuristic" in dry.stderr and "audit by heuristic" in dry.stderr


def test_a_degenerate_expansion_is_warned_about_with_its_cause(tmp_path: Path) -> None:
    """Items loaded without a name or a description of their own (the BEIR-packed case before
    it was parsed): every sub-query reads the same, the verifier accepts nothing."""
    items, queries, qrels = (tmp_path / f"{n}.jsonl" for n in ("items", "queries", "qrels"))
    items.write_text(
        "\n".join(json.dumps({"id": f"t{i}", "doc": {"x": "endpoint"}}) for i in range(40))
    )
    queries.write_text(
        "\n".join(json.dumps({"id": f"q{i}", "text": f"please do task {i}"}) for i in range(12))
    )
    qrels.write_text(
        "\n".join(json.dumps({"query_id": f"q{i}", "item_id": f"t{i}"}) for i in range(12))
    )
    db = str(tmp_path / "d.duckdb")
    with Store.open(db) as store:
        load_plain(store, items, queries, qrels, name="d")
    res = run(["expand", "--db", db, "--benchmark", "d"])
    assert res.exit_code == 0
    warnings = [line for line in res.stderr.splitlines() if "degenerate expansion" in line]
    assert any(
        "12 of 12 ground-truth tools have no name of their own" in w
        and "without name, description" in w
        for w in warnings
    )
    assert any("none of" in w and "accepted" in w for w in warnings)
    assert "yes: see the warnings" in res.stdout


def test_stats_and_the_report_list_failed_queries_with_their_reasons(
    db: str, tmp_path: Path
) -> None:
    run(["expand", "--db", db, "--benchmark", "b", "-q"])
    with Store.open(db) as store:
        store.con.execute(
            "INSERT INTO stage_failures (benchmark, expansion, stage, task_key, error) VALUES "
            "('b', 'default', 'decompose', 'q2', 'slot 0 names the tool ''balance'''), "
            "('b', 'default', 'audit', 'q1/3', 'malformed answer')"
        )
    table = run(["stats", "--db", db, "--benchmark", "b"])
    assert "2 queries with a failed task" in table.stdout
    words = table.stdout.split()  # long cells wrap, never shortened
    assert {"q2", "decompose", "names", "'balance'", "q1", "audit", "malformed"} <= set(words)
    listed = run(["stats", "--db", db, "--benchmark", "b", "--failures", "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(listed.stdout)))
    assert [(r["query_id"], r["stage"]) for r in rows] == [("q2", "decompose"), ("q1", "audit")]
    as_json = run(["stats", "--db", db, "--benchmark", "b", "--format", "json"])
    assert "`toolex stats --failures` lists them" in as_json.stderr
    from toolex.reports.failures import failed_queries_table
    from toolex.reports.inputs import ReportContext

    with Store.open(db, read_only=True) as store:
        failed = failed_queries_table(ReportContext.create(store, expansion="default"))
    assert [r["query_id"] for r in failed.rows] == ["q2", "q1"]
    assert failed.note.startswith("2 queries with a failed pipeline task")
