"""Tiny stores whose scores are worked out by hand (formulas in toolex.metrics.registry)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import pytest
from duckdb import DuckDBPyConnection

from metrics.metrics_fixtures import add_benchmark, add_combo, add_query, add_run
from toolex import metrics
from toolex.reports.main_table import main_table_rows
from toolex.store import Store

L3 = math.log2(3)  # discount of rank 2
L4 = 2.0  # discount of rank 3


def scores(
    store: Store, run: str = "r", ks: Sequence[int] = (10,), expansion: str = "default"
) -> dict[tuple[str, str, int], tuple[float, float]]:
    table = metrics.per_query(store, [run], ks, expansion)
    return {(r["query_id"], r["metric"], r["k"]): (r["old"], r["new"]) for r in table.to_pylist()}


@pytest.fixture
def con(store: Store) -> DuckDBPyConnection:
    con: DuckDBPyConnection = store.con
    add_benchmark(con)
    return con


def test_single_relevant_at_rank_2(store: Store, con: DuckDBPyConnection) -> None:
    add_query(con, "q", [("a", 1)])
    add_run(con, "r", {"q": {"x": 0.9, "a": 0.5, "y": 0.1}})
    table = metrics.per_query(store, ["r"], (1, 2))
    assert table.column_names == ["run_id", "query_id", "metric", "k", "old", "new"]
    assert table.num_rows == 2 * 3
    s = scores(store, ks=(1, 2))
    assert s[("q", "ndcg", 2)][0] == pytest.approx(1 / L3, abs=1e-12)  # 0.6309
    assert s[("q", "ndcg", 1)][0] == 0.0
    assert s[("q", "recall", 2)] == (1.0, 1.0)
    assert s[("q", "comp", 1)] == (0.0, 0.0)
    assert s[("q", "comp", 2)] == (1.0, 1.0)


def test_graded_ndcg_and_partial_recall(store: Store, con: DuckDBPyConnection) -> None:
    # labels a:2, b:1, c:3 (c never retrieved); run: b, z, a
    add_query(con, "q", [("a", 2), ("b", 1), ("c", 3)])
    add_run(con, "r", {"q": {"b": 3.0, "z": 2.0, "a": 1.0}})
    s = scores(store, ks=(2, 3))
    dcg3 = 1 / 1 + 2 / L4
    idcg3 = 3 / 1 + 2 / L3 + 1 / L4
    assert s[("q", "ndcg", 3)][0] == pytest.approx(dcg3 / idcg3, abs=1e-12)
    assert s[("q", "ndcg", 2)][0] == pytest.approx(1 / (3 + 2 / L3), abs=1e-12)  # ideal cut at 2
    assert s[("q", "recall", 3)][0] == pytest.approx(2 / 3)
    assert s[("q", "comp", 3)][0] == 0.0


def test_zero_label_counts_in_neither_recall_nor_comp(
    store: Store, con: DuckDBPyConnection
) -> None:
    add_query(con, "q", [("a", 1), ("b", 0)])
    add_run(con, "r", {"q": {"a": 1.0}})
    s = scores(store, ks=(1,))
    assert s[("q", "recall", 1)][0] == 1.0  # 1 relevant of 1 (b has relevance 0)
    assert s[("q", "comp", 1)][0] == 1.0
    assert s[("q", "ndcg", 1)][0] == 1.0


def test_ties_break_by_item_id_descending(store: Store, con: DuckDBPyConnection) -> None:
    # equal scores: "b" ranks above "a" (item_id DESC, as trec_eval), so a is at rank 2
    add_query(con, "q", [("a", 1)])
    add_run(con, "r", {"q": {"a": 0.5, "b": 0.5}})
    assert scores(store, ks=(1, 2))[("q", "ndcg", 1)][0] == 0.0
    assert scores(store, ks=(2,))[("q", "ndcg", 2)][0] == pytest.approx(1 / L3)


def test_query_without_results_scores_zero_and_is_counted(
    store: Store, con: DuckDBPyConnection
) -> None:
    add_query(con, "q1", [("a", 1)], category="code")
    add_query(con, "q2", [("b", 1)], category="code")
    add_run(con, "r", {"q1": {"a": 1.0}})
    s = scores(store)
    assert s[("q2", "ndcg", 10)] == (0.0, 0.0)
    rows = [r for r in metrics.summary(store, ["r"]) if r.metric == "ndcg"]
    assert {r.group for r in rows} == {"code", "all"}
    for row in rows:
        assert (row.old, row.n_queries, row.n_no_results) == (0.5, 2, 1)


def test_run_with_no_results_at_all_scores_every_judged_query(
    store: Store, con: DuckDBPyConnection
) -> None:
    add_query(con, "q1", [("a", 1)])
    add_query(con, "q2", [("b", 1)])
    add_run(con, "r", {})
    (row,) = [r for r in metrics.summary(store, ["r"]) if r.group == "all" and r.metric == "recall"]
    assert (row.old, row.new, row.n_queries, row.n_no_results) == (0.0, 0.0, 2, 2)


def test_new_takes_the_max_per_metric_over_valid_combinations(
    store: Store, con: DuckDBPyConnection
) -> None:
    # GT (a, b). Valid combos: (a2, b) - a2 at rank 1; (a, b3) - both at ranks 3, 4.
    add_query(con, "q", [("a", 1), ("b", 1)])
    add_combo(con, "q", 1, ["a2", "b"])
    add_combo(con, "q", 2, ["a", "b3"])
    add_combo(con, "q", 3, ["x", "y"], status="rejected_audit")  # ranks 1-2: must be ignored
    add_combo(con, "q", 1, ["x", "y"], expansion="other")  # another expansion: ignored
    add_run(con, "r", {"q": {"x": 0.99, "y": 0.98, "a2": 0.9, "z": 0.8, "a": 0.7, "b3": 0.6}})
    # ranks: x1 y2 a2:3 z4 a5 b3:6
    s = scores(store, ks=(3, 6))
    idcg2 = 1 + 1 / L3
    old, new = s[("q", "ndcg", 3)]
    assert old == 0.0 and new == pytest.approx((1 / L4) / idcg2)
    assert s[("q", "recall", 3)] == (0.0, 0.5)
    # at K=6 combo 2 is complete (comp 1, recall 1) while combo 1 still misses b
    assert s[("q", "comp", 6)] == (0.0, 1.0)
    assert s[("q", "recall", 6)] == (0.5, 1.0)
    assert s[("q", "ndcg", 6)][1] == pytest.approx(
        max(1 / L4, 1 / math.log2(6) + 1 / math.log2(7)) / idcg2
    )
    # the other expansion's (x, y) sits at ranks 1-2: it counts only when that expansion is chosen
    assert scores(store, ks=(3,), expansion="other")[("q", "recall", 3)] == (0.0, 1.0)


def test_expanded_item_inherits_the_relevance_of_its_slot(
    store: Store, con: DuckDBPyConnection
) -> None:
    add_query(con, "q", [("a", 3), ("b", 1)])
    add_combo(con, "q", 1, ["a", "b2"])
    add_run(con, "r", {"q": {"b2": 1.0, "a": 0.5}})
    s = scores(store, ks=(2,))
    idcg = 3 + 1 / L3
    assert s[("q", "ndcg", 2)][0] == pytest.approx((3 / L3) / idcg)
    assert s[("q", "ndcg", 2)][1] == pytest.approx((1 + 3 / L3) / idcg)


def test_summary_is_a_macro_average_and_main_table_delta(
    store: Store, con: DuckDBPyConnection
) -> None:
    add_query(con, "q1", [("a", 1)], task="t1", category="code")
    add_query(con, "q2", [("b", 1)], task="t2", category="web")
    add_query(con, "q3", [("c", 1)], task="t2", category="web")
    add_combo(con, "q2", 1, ["b2"])
    add_run(con, "r", {"q1": {"a": 1.0}, "q2": {"b2": 1.0}, "q3": {"x": 1.0}})
    by_task = {(r.group, r.metric): r for r in metrics.summary(store, ["r"], by="task")}
    assert by_task[("t2", "recall")].old == 0.0
    assert by_task[("t2", "recall")].new == 0.5
    assert by_task[("all", "recall")].new == pytest.approx(2 / 3)
    assert by_task[("all", "recall")].gain == pytest.approx(1 / 3)
    table = {r.group: r for r in main_table_rows(store, metrics.summary(store, ["r"]))}
    assert table["web"].recall_new == 0.5
    assert table["web"].delta == pytest.approx(0.5)  # each metric gains 0.5 on web
    assert table["all"].delta == pytest.approx(1 / 3)
    assert table["code"].delta == 0.0


def test_unknown_run_and_bad_arguments_are_clear(store: Store, con: DuckDBPyConnection) -> None:
    from toolex.errors import ToolexError

    add_query(con, "q", [("a", 1)])
    add_run(con, "r", {})
    with pytest.raises(ToolexError, match="no run named 'nope'.*runs: r"):
        metrics.per_query(store, ["nope"])
    with pytest.raises(ToolexError, match="at least 1"):
        metrics.per_query(store, ["r"], ks=(0,))
    with pytest.raises(ToolexError, match="cannot group by"):
        metrics.summary(store, ["r"], by="platform")


def test_read_only_store_computes_metrics(tmp_path: Path) -> None:
    path = tmp_path / "ro.duckdb"
    with Store.open(path) as s:
        add_benchmark(s.con)
        add_query(s.con, "q", [("a", 1)])
        add_run(s.con, "r", {"q": {"z": 1.0, "a": 0.5}})
    with Store.open(path, read_only=True) as ro:
        assert scores(ro, ks=(2,))[("q", "ndcg", 2)][0] == pytest.approx(1 / L3)
    with Store.open(path) as s:  # nothing persistent was written by the read-only session
        n = s.con.execute(
            "SELECT count(*) FROM duckdb_functions() WHERE function_name = 'metric_per_query'"
        ).fetchall()
    assert n == [(0,)]
