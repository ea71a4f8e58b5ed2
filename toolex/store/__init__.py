"""The DuckDB store: one file per workspace, schema-versioned, with bound-parameter SQL files.

The only way into DuckDB (STYLE 13): code asks :class:`Store` for rows, Arrow tables, registered
inputs and transactions, never for its connection. By concept:

- :mod:`~toolex.store.store`: ``Store`` itself: opening a file (or ``:memory:``), its checks
  that the file is whole, a second cursor, the tables a damaged file can still serve;
- :mod:`~toolex.store.connection`: how SQL runs on it (shipped files, Arrow, registered
  inputs, transactions, a user's own statement);
- :mod:`~toolex.store.migrations`: ``sql/schema/NNN_name.sql`` applied in order on open;
- :mod:`~toolex.store.existence`: ``require_benchmark/expansion/runs``, one "did you mean"
  error;
- :mod:`~toolex.store.failures`: DuckDB's failures (damage, lock, full disk, memory) worded
  for a user;
- :mod:`~toolex.store.info`: what it holds at a glance (tables, benchmarks, expansions);
- :mod:`~toolex.store.config`: what a store opens with (default file, memory limit, the
  read-only lock-down).

Every name is importable from ``toolex.store`` itself.

The names load on first use (PEP 562): ``from toolex.store import DEFAULT_DB`` (a command's
options, its `--help`, shell completion) does not start DuckDB.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolex.store.config import (
        DEFAULT_DB,
        LOCKED_DOWN,
        MEMORY_LIMIT,
        MEMORY_LIMIT_VAR,
        memory_limit,
        table_functions,
    )
    from toolex.store.existence import DEFAULT_EXPANSION
    from toolex.store.failures import LockedError, lock_holder, lock_message, store_error
    from toolex.store.info import (
        BenchmarkInfo,
        ExpansionInfo,
        TableCount,
        benchmark_info,
        expansion_info,
        table_counts,
    )
    from toolex.store.migrations import schema_migrations
    from toolex.store.store import Store, UnreadableTable

__all__ = [
    "BenchmarkInfo",
    "DEFAULT_DB",
    "DEFAULT_EXPANSION",
    "ExpansionInfo",
    "LOCKED_DOWN",
    "LockedError",
    "MEMORY_LIMIT",
    "MEMORY_LIMIT_VAR",
    "Store",
    "TableCount",
    "UnreadableTable",
    "benchmark_info",
    "expansion_info",
    "lock_holder",
    "lock_message",
    "memory_limit",
    "schema_migrations",
    "store_error",
    "table_counts",
    "table_functions",
]

_HOME = {
    **dict.fromkeys(
        (
            "DEFAULT_DB",
            "LOCKED_DOWN",
            "MEMORY_LIMIT",
            "MEMORY_LIMIT_VAR",
            "memory_limit",
            "table_functions",
        ),
        "config",
    ),
    "DEFAULT_EXPANSION": "existence",
    **dict.fromkeys(("LockedError", "lock_holder", "lock_message", "store_error"), "failures"),
    "schema_migrations": "migrations",
    **dict.fromkeys(
        (
            "BenchmarkInfo",
            "ExpansionInfo",
            "TableCount",
            "benchmark_info",
            "expansion_info",
            "table_counts",
        ),
        "info",
    ),
    **dict.fromkeys(("Store", "UnreadableTable"), "store"),
}


def __getattr__(name: str) -> object:
    if name in _HOME:
        return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
