"""What every export needs: which benchmark, and a check that the expansion exists."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pyarrow as pa

from toolex.errors import ToolexError
from toolex.store import Store


def resolve_benchmark(store: Store, benchmark: str | None) -> str:
    """The benchmark to export: the named one, or the store's only one.

    Exports are per benchmark because query ids of two benchmarks may collide in one file."""
    known = [
        r[0] for r in store.con.execute("SELECT benchmark FROM benchmarks ORDER BY 1").fetchall()
    ]
    if benchmark is None:
        if len(known) == 1:
            return known[0]
        if not known:
            raise ToolexError("the store holds no benchmark; load one with `toolex load` first")
        raise ToolexError(
            f"the store holds several benchmarks; name one with --benchmark ({', '.join(known)})"
        )
    if benchmark not in known:
        raise ToolexError(
            f"no benchmark {benchmark!r} in the store (benchmarks: {', '.join(known) or 'none'})"
        )
    return benchmark


def check_expansion(store: Store, benchmark: str, expansion: str) -> bool:
    """Whether ``expansion`` exists for ``benchmark``. A missing one is not an error (the export
    then holds the original annotation only) but the caller should say so."""
    row = store.con.execute(
        "SELECT count(*) FROM combinations WHERE benchmark = ? AND expansion = ?",
        [benchmark, expansion],
    ).fetchone()
    return bool(row and row[0])


def prepare(path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def to_arrow(cur: Any) -> pa.Table:
    """A DuckDB result as an Arrow table. DuckDB warns that a DB-API result copies once more
    than ``con.sql``; the shipped SQL needs bound parameters, so the copy is the price."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return cur.to_arrow_table()
