"""Macro expansion and input slices, checked on DuckDB itself (no Spark): the metric queries with
their macros expanded into views give the macros' rows, and give them again from nothing but the
Parquet slices the Spark engine would send."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
import sqlglot
from sqlglot import exp

from engines import tooleq_input
from toolex.engines.macros import Macro, base_tables, expand, read_macros
from toolex.metrics.engine import FOLDER, ensure_macros
from toolex.resources import sql_files, sql_text
from toolex.sqlrunner import SqlValue
from toolex.store import Store

PARAMS: dict[str, SqlValue] = {
    "run_ids": ["run00", "run01", "run02"],
    "ks": [1, 5, 10],
    "expansion": "default",
    "metrics": ["ndcg", "recall", "comp", "p", "rr", "ap"],
    "by": "category",
}
QUERIES = ("metrics/select/per_query.sql", "metrics/select/summary.sql")


@pytest.fixture(scope="module")
def small_store() -> Iterator[Store]:
    store = Store.memory()
    tooleq_input.build(store, n_queries=300, n_runs=4, depth=30, seed=5)
    ensure_macros(store)
    yield store
    store.close()


def metric_macros() -> dict[str, Macro]:
    return read_macros((f"{FOLDER}/{p.name}", p.read_text()) for p in sql_files(FOLDER))


def as_one_statement(name: str) -> str:
    """The query with its macros expanded, the views written as CTEs (in DuckDB's SQL)."""
    expansion = expand(sqlglot.parse_one(sql_text(name), read="duckdb"), metric_macros())
    statement = expansion.statement
    assert isinstance(statement, exp.Query)  # a SELECT, so its views can be CTEs
    for view, body in expansion.views.items():
        statement = statement.with_(view, as_=body)
    return statement.sql(dialect="duckdb")


def assert_rows_close(got: list[dict[str, Any]], want: list[dict[str, Any]]) -> None:
    """Same rows in the same order; floats to 1e-12, since DuckDB itself sums a DCG or a mean
    in whatever order its threads finish (two runs of one query can differ in the last bit)."""
    assert len(got) == len(want) > 100
    for g, w in zip(got, want, strict=True):
        assert g.keys() == w.keys()
        for key, value in w.items():
            if isinstance(value, float):
                assert abs(g[key] - value) <= 1e-12, (key, g, w)
            else:
                assert g[key] == value, (key, g, w)


def used(sql: str) -> dict[str, SqlValue]:
    names = {
        p.name for p in sqlglot.parse_one(sql, read="duckdb").find_all(sqlglot.exp.Placeholder)
    }
    return {k: v for k, v in PARAMS.items() if k in names}


@pytest.mark.parametrize("name", QUERIES)
def test_expanded_macros_give_the_macros_rows(small_store: Store, name: str) -> None:
    want = small_store.rows(name, used(sql_text(name)))
    sql = as_one_statement(name)
    assert_rows_close(small_store.user_sql(sql, used(sql)).to_pylist(), want)


@pytest.mark.parametrize("name", QUERIES)
def test_the_input_slices_hold_all_the_metric_sql_reads(
    small_store: Store, tmp_path: Path, name: str
) -> None:
    """A bare DuckDB that holds nothing but the slices gives the same rows as the store."""
    expansion = expand(sqlglot.parse_one(sql_text(name), read="duckdb"), metric_macros())
    tables = base_tables(expansion)
    assert tables == {
        "runs",
        "run_results",
        "qrels",
        "queries",
        "combinations",
        "combination_items",
    }
    bare = duckdb.connect()
    for path in sql_files(f"{FOLDER}/inputs"):
        table = path.stem.split("_", 1)[1]
        slice_name = f"{FOLDER}/inputs/{path.name}"
        out = tmp_path / f"{table}.parquet"
        small_store.copy_parquet(slice_name, used(sql_text(slice_name)), out)
        bare.execute(f"CREATE VIEW {table} AS FROM read_parquet('{out}')")  # test's own names
    sql = as_one_statement(name)
    cursor = bare.execute(sql, used(sql))
    columns = [d[0] for d in cursor.description]
    got = [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
    assert_rows_close(got, small_store.rows(name, used(sql_text(name))))
    runs = bare.execute("SELECT count(DISTINCT run_id), max(rank) FROM run_results").fetchall()[0]
    assert runs == (3, 10)  # only the runs asked for, only down to the largest K


def test_a_call_becomes_one_view_per_distinct_arguments() -> None:
    macros = read_macros(
        [
            ("a", "CREATE TEMP MACRO pick(p_x) AS TABLE SELECT * FROM t WHERE x = p_x"),
            (
                "b",
                "CREATE TEMP MACRO both_(p_x, p_y) AS TABLE "
                "SELECT * FROM pick(p_x) UNION ALL SELECT * FROM pick(p_x) "
                "UNION ALL SELECT * FROM pick(p_y)",
            ),
        ]
    )
    query = sqlglot.parse_one("SELECT * FROM both_($x, NULL) AS b", read="duckdb")
    expansion = expand(query, macros)
    assert sorted(v.split("_")[0] for v in expansion.views) == ["both", "pick", "pick"]
    assert base_tables(expansion) == {"t"}
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1), (2), (NULL)) AS v(x)")
    statement = expansion.statement
    assert isinstance(statement, exp.Query)
    for view, body in expansion.views.items():
        statement = statement.with_(view, as_=body)
    assert con.execute(statement.sql(dialect="duckdb"), {"x": 1}).fetchall() == [(1,), (1,)]
