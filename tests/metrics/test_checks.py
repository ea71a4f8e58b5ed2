"""sql/checks/: zero rows on a healthy store, and each check really catches its violation."""

from __future__ import annotations

from metrics.metrics_fixtures import build_random
from toolex.checks import header, run_checks, score_once, violations
from toolex.metrics import ensure_macros
from toolex.resources import sql_files, sql_text
from toolex.store import Store


def test_every_check_file_documents_its_invariant() -> None:
    files = sql_files("checks")
    assert {"metrics_new_ge_old", "metrics_unit_range", "run_results_rank_order"} <= {
        p.stem for p in files
    }
    for path in files:
        assert header(path.read_text()).startswith(f"{path.stem}:"), path.name


def test_healthy_random_store_has_no_violation(store: Store) -> None:
    build_random(store.con, seed=3, n_queries=120, n_runs=2)
    results = run_checks(store)
    assert results and all(r.ok for r in results), [(r.name, r.rows[:3]) for r in results]
    assert violations(store) == []


def test_rank_order_check_catches_a_rank_that_contradicts_the_scores(store: Store) -> None:
    build_random(store.con, seed=4, n_queries=20, n_runs=1, p_empty=0.0)
    store.con.execute("UPDATE run_results SET rank = rank + 1 WHERE query_id = 'q0'")
    (bad,) = violations(store)
    assert bad.name == "run_results_rank_order"
    assert {row[1] for row in bad.rows} == {"q0"}
    assert "score DESC, then item_id DESC" in bad.invariant


def test_new_ge_old_check_returns_violating_rows(store: Store) -> None:
    build_random(store.con, seed=5, n_queries=10, n_runs=1)
    ensure_macros(store)
    # Simulate a broken engine (new below old) by shadowing the per-query macro.
    store.con.execute(
        "CREATE OR REPLACE TEMP MACRO metric_per_query(p_run_ids, p_ks, p_expansion) AS TABLE "
        "SELECT 'run0' AS run_id, 'q1' AS query_id, 'ndcg' AS metric, 10 AS k, "
        "0.5 AS old, 0.25 AS new"
    )
    score_once(store)
    rows = store.con.execute(sql_text("checks/metrics_new_ge_old.sql")).fetchall()
    assert rows == [("default", "run0", "q1", "ndcg", 10, 0.5, 0.25)]
    rows = store.con.execute(sql_text("checks/metrics_unit_range.sql")).fetchall()
    assert rows == []
