"""Each metric query creates the macros it reaches and no other (issue 34: `toolex eval` reads
the summary, which needs 7 of the 10), and a later query on the same connection creates what it
adds; the rows are those of a connection that holds every macro."""

from __future__ import annotations

from metrics.metrics_fixtures import build_random
from toolex.metrics import engine
from toolex.store import Store

MACROS = "SELECT function_name FROM duckdb_functions() WHERE function_type = 'table_macro'"


def _made(store: Store) -> set[str]:
    return {name for (name,) in store.con.execute(MACROS).fetchall() if name.startswith("metric_")}


def test_a_query_creates_the_macros_it_reaches_and_the_rows_are_the_same() -> None:
    lean, full = Store.memory(), Store.memory()
    try:
        for store in (lean, full):
            build_random(store.con, seed=4, n_queries=40, n_runs=2)
        engine.ensure_macros(full)
        runs = ["run0", "run1"]
        summary = engine.summary(lean, runs, ks=(5, 10))
        assert _made(lean) == {
            "metric_queries",
            "metric_combos",
            "metric_ideal",
            "metric_hits",
            "metric_combo_scores",
            "metric_query_scores",
            "metric_summary",
        }
        assert summary == engine.summary(full, runs, ks=(5, 10))
        scores = engine.scores(lean, "ndcg@10", runs, expansion="default")
        assert {"metric_per_query", "metric_new"} <= _made(lean)
        assert "metric_old" not in _made(lean)
        assert scores == engine.scores(full, "ndcg@10", runs, expansion="default")
        assert len(_made(full)) == 10
    finally:
        lean.close()
        full.close()
