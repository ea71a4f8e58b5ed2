"""What the packages beside and below the store need of it: a protocol, not ``Store`` itself.

The layers (pyproject.toml) put ``toolex.metrics`` beside ``toolex.store``, so it may not import
``Store``, not even for a type. It runs shipped SQL files on whatever it is handed, and this
protocol says what that is; ``Store`` satisfies it (a test in tests/test_store.py holds it to
that), so a renamed or retyped store method fails the type checker here too.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

if TYPE_CHECKING:  # a caller that reads rows never loads pyarrow
    import pyarrow as pa


# What a shipped or a user's statement binds to ``$name`` / ``?``: DuckDB's scalars, and lists
# and structs of them (a list of row structs is how a report hands DuckDB rows to shape).
SqlValue: TypeAlias = (
    str
    | int
    | float
    | bool
    | None
    | Decimal
    | bytes
    | datetime.date
    | datetime.datetime
    | Sequence["SqlValue"]
    | Mapping[str, "SqlValue"]
)
Params: TypeAlias = Mapping[str, SqlValue]


class SqlRunner(Protocol):
    """Runs one shipped SQL file (named relative to ``sql/``) with ``$name`` values bound."""

    def rows(self, name: str, params: Params | None = None) -> list[dict[str, Any]]: ...

    def arrow(self, name: str, params: Params | None = None) -> pa.Table: ...

    def execute_script(self, name: str) -> None: ...

    def copy_parquet(self, name: str, params: Params | None, path: str | Path) -> None: ...

    def require_runs(self, runs: list[str], benchmark: str | None = None) -> list[str]: ...
