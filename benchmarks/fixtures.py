"""A benchmark's synthetic store: the rows a benchmark plants in a fresh store before it times
something (queries, qrels, combinations, runs of a made-up library).

These rows are invented to a size or shape no loader reads (a 200k-tool library, 7,000 queries
with planted equivalents), so they go in as SQL. They go through the store's one door for SQL
that does not ship with toolex (``Store.user_sql``, what ``toolex sql`` runs), never its raw
DuckDB connection, and only into stores the benchmark itself made; reads go through
``reads.py``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa

    from toolex.sqlrunner import SqlValue
    from toolex.store import Store


def write(
    store: Store, sql: str, params: Mapping[str, SqlValue] | Sequence[SqlValue] | None = None
) -> None:
    """Run one statement of a synthetic store's setup (an INSERT, a temporary table)."""
    store.user_sql(sql, params)


def insert(store: Store, table: str, rows: pa.Table) -> None:
    """Append the Arrow ``rows`` to ``table``, column by column name."""
    cols = ", ".join(rows.column_names)
    with store.registered("_bench_rows", rows):
        write(store, f"INSERT INTO {table} ({cols}) SELECT {cols} FROM _bench_rows")
