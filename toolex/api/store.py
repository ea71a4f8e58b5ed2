"""Opening a store: the one DuckDB file that holds benchmarks, runs and expansions."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolex.store import Store

# The store `toolex` uses when no --db is given (toolex.store.config.DEFAULT_DB).
DEFAULT_DB = "toolex.duckdb"


def open_store(
    path: str | Path = DEFAULT_DB, *, read_only: bool = False, allow_files: bool = False
) -> Store:
    """Open the store at ``path``, creating it (and its schema) when it does not exist.

    The store is a context manager: ``with toolex.open("toolex.duckdb") as store: ...`` closes
    it (and releases DuckDB's lock) at the end of the block. ``":memory:"`` opens a store that
    lives as long as the handle.

    Args:
        path: The store's file (``toolex.duckdb`` by default, as the CLI's ``--db``).
        read_only: Open without the write lock; a missing store is then an error. Several
            processes may read one store at once.
        allow_files: With ``read_only``: let queries read files beside the store (off: DuckDB
            reaches nothing but the store).

    Returns:
        The open :class:`toolex.Store`.

    Raises:
        StoreError: The store is locked by another process, damaged, of an unknown schema
            version, or (``read_only``) missing.
    """
    from toolex.store import Store

    return Store.open(path, read_only=read_only, allow_files=allow_files)
