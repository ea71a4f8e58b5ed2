"""Read-only SQL over a store, returning Arrow or pandas: what `toolex sql` runs, with the same
checks (anything but a query is refused, and so is reading files unless allowed)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

    from toolex.sqlrunner import Params, SqlValue
    from toolex.store import Store


def sql(
    db: str | Path | Store,
    statement: str,
    params: Params | Sequence[SqlValue] | None = None,
    *,
    allow_files: bool = False,
    timeout: float | None = None,
) -> pa.Table:
    """Run one read-only statement against a store; its rows as an Arrow table.

    The statement is parsed first: anything but a query (SELECT, WITH, VALUES, DESCRIBE, SHOW,
    SUMMARIZE, EXPLAIN) is refused, and so is a query reading a file unless ``allow_files``.
    Given a path, the store is opened read-only for the statement (other readers may hold it
    too); given an open store (DuckDB lets one process open a file once), the statement runs
    on it.

    Args:
        db: The store's file, or an open store (:func:`toolex.open`).
        statement: The SQL, with ``?`` or ``$name`` placeholders for ``params``.
        params: Values bound to the placeholders (never formatted into the SQL).
        allow_files: Let the query read files and URLs (``read_parquet``, ``glob``).
        timeout: Stop the statement after this many seconds (None: no limit); a store's
            path only.

    Returns:
        pyarrow Table of the rows.

    Raises:
        ToolexError: A statement that is not a query, a file read without ``allow_files``,
            a SQL error (DuckDB's message), or the timeout (``SqlStopped``).

    Example:
        >>> toolex.sql("toolex.duckdb", "SELECT count(*) AS n FROM queries")  # doctest: +SKIP
    """
    import pyarrow as pa

    from toolex.sqlaccess import check_read_only, stream_sql

    if not isinstance(db, str | Path):
        check_read_only(statement, allow_files=allow_files)
        return db.user_sql(statement, params)
    with stream_sql(
        str(db), statement, params=params, allow_files=allow_files, timeout=timeout
    ) as rows:
        return pa.Table.from_batches(list(rows), schema=rows.schema)


def sql_df(
    db: str | Path | Store,
    statement: str,
    params: Params | Sequence[SqlValue] | None = None,
    *,
    allow_files: bool = False,
    timeout: float | None = None,
) -> pd.DataFrame:
    """:func:`sql` as a pandas DataFrame (same arguments, same checks)."""
    from toolex.api.optional import pandas

    pandas()  # a clear error when it is missing, before the statement runs
    table = sql(db, statement, params, allow_files=allow_files, timeout=timeout)
    frame: pd.DataFrame = table.to_pandas()
    return frame
