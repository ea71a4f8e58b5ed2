"""What a store is opened with: its default file, a file store's memory limit, and the lock-down
of a read-only store."""

from __future__ import annotations

import os
import re
from functools import cache

from toolex.errors import InputError

DEFAULT_DB = "toolex.duckdb"
# DuckDB caches every block it reads or writes up to its memory limit, 80% of RAM by default: a
# long write (assembling 10,000 queries of a 50k-tool library) kept 12.4 GB resident though no
# statement needed more than a few hundred MB. A file store's limit is this (DuckDB then evicts
# to the file and spills large operators to <store>.tmp/): that assembly finishes in it at 3.5 GB
# peak RSS, what DuckDB cannot evict (indexes, temporary tables) and Python included.
# TOOLEX_MEMORY_LIMIT overrides it ("8GB", "500MB"); an out-of-memory error names it. An
# in-memory store keeps DuckDB's default: it has no file to evict to.
MEMORY_LIMIT = "2GB"
MEMORY_LIMIT_VAR = "TOOLEX_MEMORY_LIMIT"
_SIZE_RE = re.compile(r"\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)", re.IGNORECASE)

# A read-only store reaches nothing but its own file: no other file is read or written
# (read_text('/etc/passwd'), glob, COPY TO, EXPORT DATABASE, ATTACH), no URL is fetched, no
# extension is installed or loaded, and no SET/RESET/PRAGMA can change a setting back (the
# configuration is locked). DuckDB itself refuses, whatever sqlglot made of the statement
# (toolex.sqlaccess). Given at connect time: once locked, nothing could be set later; the store
# file and its write-ahead log are opened by the connect itself, so they stay readable.
# Nor does a name in a query reach a Python object of the process (DuckDB's Python client
# otherwise reads a DataFrame or Arrow table in the calling frame that a FROM names).
LOCKED_DOWN: dict[str, bool] = {
    "enable_external_access": False,
    "python_enable_replacements": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "lock_configuration": True,
}


# What DuckDB starts with every database: a worker thread per core and, from DuckDB 2.0, a pool
# of eight threads for asynchronous I/O, which serves Parquet and CSV files (its native format
# and read_text read synchronously). A read-only store locked down reads nothing but its own
# file, and an in-memory scratch store reads TREC files with read_text: neither has a use for
# the pool, whose start and join were nine threads per `toolex eval` for nothing. A store file
# this small gets one thread as well: its tables hold a row group or two, so a second worker
# only hands work over (a depth-1,000 BM25 run of the four ToolRet tasks makes a 31 MB store,
# which `toolex eval` scores in less CPU and no more wall time on one thread;
# benchmarks/bench_startup.py measures the whole process). Larger stores keep every core.
SMALL_STORE_BYTES = 32 << 20
NO_ASYNC_IO: dict[str, int] = {"async_threads": 0}


@cache
def _has_async_io() -> bool:
    """Whether this DuckDB has the asynchronous I/O pool (2.0 on), whose setting 1.x refuses."""
    from toolex.store.duck import duckdb

    return int(str(duckdb.__version__).split(".")[0]) >= 2


def scratch_threads() -> dict[str, int]:
    """The threads of an in-memory scratch store (Store.scratch): one worker, no I/O pool."""
    return {"threads": 1, **(NO_ASYNC_IO if _has_async_io() else {})}


def read_only_threads(path: str, locked: bool) -> dict[str, int]:
    """The threads a store file opens with: DuckDB's own unless ``locked`` (read-only and locked
    down), see SMALL_STORE_BYTES."""
    if not locked:
        return {}
    config = dict(NO_ASYNC_IO) if _has_async_io() else {}
    try:
        small = os.stat(path).st_size <= SMALL_STORE_BYTES
    except OSError:  # DuckDB's open then says what is wrong with the file
        small = False
    return config | ({"threads": 1} if small else {})


@cache
def table_functions() -> frozenset[str]:
    """Every table function (and table macro and pragma) this DuckDB knows, by name, read from
    its catalog on a connection of its own (no store is needed to know what DuckDB offers)."""
    from toolex.resources import sql_text
    from toolex.store.duck import duckdb

    with duckdb.connect(config={"enable_external_access": False}) as con:
        rows = con.execute(sql_text("store/43_table_functions.sql")).fetchall()
    return frozenset(name for (name,) in rows)


def memory_limit() -> str:
    """The memory limit a file store opens with: ``TOOLEX_MEMORY_LIMIT`` if set, else
    :data:`MEMORY_LIMIT`; a value DuckDB would refuse is an InputError naming the variable."""
    value = os.environ.get(MEMORY_LIMIT_VAR, "").strip()
    if not value:
        return MEMORY_LIMIT
    if not _SIZE_RE.fullmatch(value):
        raise InputError(
            f"{MEMORY_LIMIT_VAR}={value!r} is not a size: give a number and a unit, "
            "e.g. 4GB, 500MB or 1.5GiB"
        )
    return value
