"""A benchmark's own read-only questions to a store (counts, the rows a figure is computed from),
asked the way `toolex sql` asks them: vetted as a query (toolex.sqlaccess), then run through the
store's one door for SQL that does not ship with toolex (``Store.user_sql``), never on its raw
connection. Writes go through the package that owns the table."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from toolex.sqlaccess.readonly import check_read_only
from toolex.sqlrunner import SqlValue
from toolex.store import Store

Params = Mapping[str, SqlValue] | Sequence[SqlValue] | None


def rows(store: Store, sql: str, params: Params = None) -> list[tuple[Any, ...]]:
    """The result of a read-only ``sql`` as tuples, in its column order."""
    return query(sql)(store, params)


def query(sql: str) -> Callable[[Store, Params], list[tuple[Any, ...]]]:
    """``rows`` with ``sql`` vetted once, now: for a question asked inside a timed reference,
    whose time should be the store's answer, not the check of the statement."""
    check_read_only(sql)

    def run(store: Store, params: Params = None) -> list[tuple[Any, ...]]:
        table = store.user_sql(sql, params)
        return list(zip(*(column.to_pylist() for column in table.columns), strict=True))

    return run


def value(store: Store, sql: str, params: Params = None) -> Any:
    """The first column of the first row of a read-only ``sql``."""
    return rows(store, sql, params)[0][0]
