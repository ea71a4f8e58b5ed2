"""`toolex demo` end to end on the bundled sample (slow: it embeds ~1,000 tools with WordLlama)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from toolex.cli.demo import compact, demo, run_demo
from toolex.store import Store

pytestmark = pytest.mark.slow

TABLES = (
    "items",
    "queries",
    "qrels",
    "subqueries",
    "candidates",
    "verdicts",
    "combinations",
    "combination_items",
    "runs",
    "run_results",
)


def counts(store):
    return {t: store.con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}


def test_demo_expands_the_sample_and_scores_two_retrievers_idempotently(tmp_path):
    store = Store.open(tmp_path / "demo.duckdb")
    out = run_demo(store)
    first = counts(store)
    ann = {r["category"]: r for r in out["annotation"]}
    assert ann["all"]["queries"] == 300
    assert [ann[g]["queries"] for g in ("G1", "G2", "G3")] == [150, 100, 50]
    assert ann["all"]["valid_combos"] > 300  # the heuristic found alternatives
    assert 0 < ann["all"]["queries_with_alt"] < 1
    runs = {r["run_id"] for r in out["results"]}
    assert runs == {
        "demo-bm25-query",
        "demo-bm25-subquery",
        "demo-wordllama-query",
        "demo-wordllama-subquery",
    }
    for r in out["results"]:
        for m in ("ndcg", "recall", "comp"):
            assert r[f"{m}_new"] >= r[f"{m}_old"] - 1e-12  # max over a superset of combinations
    assert len(compact(out["results"])) == 4

    run_demo(store)  # a rerun reuses everything
    assert counts(store) == first
    store.close()


def test_demo_command_prints_the_tables_and_its_time(tmp_path):
    db = str(tmp_path / "d.duckdb")
    result = CliRunner().invoke(demo, ["--db", db, "--no-subqueries", "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert "category,queries,subqueries,verified" in result.output
    assert "run,nDCG old,nDCG new,R old,R new,Comp old,Comp new" in result.output
    assert "demo finished in" in result.output
