"""The one writer: retrieved and imported runs are ranked and fused the same way, fused sub-query
lists keep every item a sub-query found, and a taken run name needs --replace."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from retrieval.conftest import fill

from toolex.errors import InputError
from toolex.retrieval.runs import retrieve_run
from toolex.runs import import_run, write_run
from toolex.runs.write import ranked
from toolex.store import Store


def _rows(store: Store, table: str, run_id: str) -> list[tuple[Any, ...]]:
    cols = "query_id, item_id, score, rank"
    if table == "subquery_results":
        cols = "query_id, slot, item_id, score, rank"
    return store.con.execute(
        f"SELECT {cols} FROM {table} WHERE run_id = ? ORDER BY ALL", [run_id]
    ).fetchall()


@pytest.fixture
def sub_store(store: Store) -> Store:
    fill(store)
    store.con.execute(
        "INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, reference) VALUES "
        "('b', 'default', 'qa', 0, 'weather', 'w1'), ('b', 'default', 'qa', 1, 'send email', 'w2'),"
        "('b', 'default', 'qa', 2, 'stock price forecast', 'w3'),"
        "('b', 'default', 'qb', 0, 'translate text', 'c2'), ('b', 'default', 'qb', 1, 'rain', 'c1')"
    )
    # one sub-query per ground-truth tool, as decomposition writes them: qa's three need labels
    store.con.execute("INSERT INTO qrels VALUES ('b', 'qa', 'w2', 1, 1), ('b', 'qa', 'w3', 1, 2)")
    return store


def test_retrieved_and_imported_subquery_runs_are_stored_alike(
    sub_store: Store, tmp_path: Path
) -> None:
    retrieve_run(sub_store, "b", "bm25", "got", level="subquery", depth=3, scope="benchmark")
    f = tmp_path / "sub.csv"
    sub_store.con.execute(
        f"COPY (SELECT query_id, slot, item_id, score FROM subquery_results "
        f"WHERE run_id = 'got') TO '{f}' (HEADER)"
    )
    import_run(sub_store, f, run="imp", benchmark="b", level="subquery")
    for table in ("subquery_results", "run_results"):
        assert _rows(sub_store, table, "imp") == _rows(sub_store, table, "got"), table


def test_fused_list_keeps_every_item_any_subquery_found(sub_store: Store) -> None:
    retrieve_run(sub_store, "b", "bm25", "sub", level="subquery", depth=3, scope="benchmark")
    found = sub_store.con.execute(
        "SELECT query_id, count(DISTINCT item_id) FROM subquery_results WHERE run_id = 'sub' "
        "GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    fused = sub_store.con.execute(
        "SELECT query_id, count(*) FROM run_results WHERE run_id = 'sub' GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    assert fused == found
    assert max(n for _q, n in fused) > 3  # more than one sub-query's k: nothing was cut


def test_ranks_are_recomputed_with_the_trec_eval_rule(sub_store: Store) -> None:
    results = pa.table(
        {
            "query_id": ["qa", "qa", "qa", "qc"],
            "item_id": ["w1", "w3", "w2", "c3"],
            "score": [0.5, 0.5, 0.9, 1.0],
            "rank": [9, 9, 9, 9],
        }
    )
    counts = write_run(sub_store, "r", benchmark="b", level="query", results=results, params={})
    assert (counts.queries, counts.results) == (2, 4)
    assert [(r[1], r[3]) for r in _rows(sub_store, "run_results", "r") if r[0] == "qa"] == [
        ("w1", 3),
        ("w2", 1),
        ("w3", 2),
    ]


def test_a_taken_name_needs_replace(sub_store: Store) -> None:
    one = pa.table({"query_id": ["qa"], "item_id": ["w1"], "score": [1.0]})
    write_run(sub_store, "r", benchmark="b", level="query", results=one, params={})
    with pytest.raises(InputError, match="already exists"):
        write_run(sub_store, "r", benchmark="b", level="query", results=one, params={})
    two = pa.table({"query_id": ["qb", "qb"], "item_id": ["c1", "c2"], "score": [1.0, 2.0]})
    counts = write_run(
        sub_store, "r", benchmark="b", level="query", results=two, params={}, replace=True
    )
    assert (counts.queries, counts.results) == (1, 2)
    with pytest.raises(InputError, match="unknown level"):
        write_run(sub_store, "x", benchmark="b", level="passage", results=one, params={})


@pytest.mark.parametrize("seed", range(6))
def test_ranked_orders_as_duckdb_orders_the_trec_eval_rule(store: Store, seed: int) -> None:
    """toolex.runs.write.ranked (Arrow's sort) against the rule written as DuckDB's window: the
    same rank for every row, on tie-heavy scores with -0.0 and 0.0, ids that share prefixes,
    differ in case or are not ASCII, and groups of one or two columns."""
    rng = random.Random(seed)
    ids = ["a", "a ", "A", "ab", "b", "\u00e9", "e\u0301", "\u4e2d", "z%20", "Z", "10", "9"]
    scores = [1.0, 0.5, 0.0, -0.0, -0.5, 1e-300, 0.5000000000000001]
    for groups in (("query_id",), ("query_id", "slot")):
        rows = {}  # one row per group and item, as a run holds
        for _ in range(60):
            row = {"query_id": rng.choice(["q1", "q2", "q10", "Q1"]), "slot": rng.randint(0, 2)}
            row |= {"item_id": rng.choice(ids), "score": rng.choice(scores)}
            rows[tuple(row[c] for c in (*groups, "item_id"))] = row
        results = pa.Table.from_pylist(list(rows.values()))
        ours = ranked(results, groups).to_pylist()
        with store.registered("results", results):
            window = store.user_sql(
                f"SELECT *, row_number() OVER (PARTITION BY {', '.join(groups)} "
                "ORDER BY score DESC, item_id DESC) AS rank FROM results"
            ).to_pylist()
        assert len(ours) == len(window) == len(rows) > 20
        got = {tuple(r[c] for c in (*groups, "item_id")): r["rank"] for r in ours}
        assert got == {tuple(r[c] for c in (*groups, "item_id")): r["rank"] for r in window}
