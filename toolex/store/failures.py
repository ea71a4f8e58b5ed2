"""DuckDB's failures as messages a user can act on: a damaged, locked or full store, or one that
ran out of memory, each with what failed, in which file, and how to recover."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from toolex.errors import StoreError
from toolex.store.config import MEMORY_LIMIT_VAR, memory_limit
from toolex.store.duck import duckdb

# DuckDB's words for a file it cannot trust (its exception classes are not enough: a checksum
# failure arrives as the base duckdb.Error, and an IOException may be about a user's own file).
_DAMAGE_WORDS = (
    "corrupt",
    "checksum",
    "not a valid duckdb database",
    "could not read enough bytes",
    "invalidated",
    "failed to load metadata",
)
_DISK_WORDS = ("no space left", "disk full", "file too large", "disk quota")
# DuckDB's own words for a lock held by another process ('Could not set lock on file "F":
# Conflicting lock is held in EXE (PID n)'). Not the bare word "lock": it is inside "block"
# (a checksum failure "in block at location 0") and may be inside a path.
_LOCK_PHRASE = re.compile(r"could not set lock on file|conflicting lock is held", re.IGNORECASE)
RECOVER = (
    "restore a backup copy, or move the file aside and rebuild the store (`toolex load` your "
    "inputs again, then re-import runs and re-run expansions). `toolex check --db {path}` "
    "names the tables that can still be read; copy those out first, e.g. "
    '`toolex sql "FROM llm_calls" --db {path} --format parquet --out calls.parquet`'
)


class LockedError(StoreError):
    """Another process holds the store (:func:`lock_message`); ``holder`` names it."""

    def __init__(self, message: str, holder: str) -> None:
        super().__init__(message)
        self.holder = holder


def store_error(exc: BaseException, path: str | None = None) -> StoreError | None:
    """The one translation of DuckDB's failures into a message a user can act on: what failed,
    in which file, and how to recover. None when ``exc`` is not DuckDB's.

    Every command goes through it: the Store's own methods raise its StoreError for a damaged,
    locked or full store (:meth:`Store._translated`), and the CLI's ``main`` passes anything
    else DuckDB raised through it, so no DuckDB error reaches the user as a traceback."""
    if not isinstance(exc, duckdb.Error):
        return None
    where = f"the store {path}" if path else "the store"
    text = str(exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    if _locked(exc):
        return LockedError(lock_message(path or "", text), lock_holder(text))
    if _disk_full(exc):
        return StoreError(
            f"{where} could not be written ({first}); the command's changes were rolled back, "
            "so the store holds what it held before. Free disk space (DuckDB also needs room "
            "for the write-ahead log beside the file) and run the command again"
        )
    if _damaged(exc, path):
        recover = RECOVER.format(path=path or "PATH")
        return StoreError(f"{where} is damaged or unreadable ({first}). To recover: {recover}")
    if isinstance(exc, duckdb.OutOfMemoryException):
        return StoreError(
            f"DuckDB ran out of memory on {where} ({first}); the command's changes were rolled "
            f"back. Allow it more with {MEMORY_LIMIT_VAR} (now {memory_limit()}), e.g. "
            f"{MEMORY_LIMIT_VAR}=8GB, and run the command again"
        )
    return StoreError(f"DuckDB failed on {where}: {first}")


def _locked(exc: duckdb.Error) -> bool:
    return isinstance(exc, duckdb.IOException) and bool(_LOCK_PHRASE.search(str(exc)))


def _disk_full(exc: duckdb.Error) -> bool:
    return any(w in str(exc).lower() for w in _DISK_WORDS)


def _damaged(exc: duckdb.Error, path: str | None) -> bool:
    fatal = duckdb.InternalException | duckdb.FatalException | duckdb.SerializationException
    if isinstance(exc, fatal) or any(w in str(exc).lower() for w in _DAMAGE_WORDS):
        return True
    # An IOException about the store's own file (not, say, a user's read_csv of a missing one).
    return isinstance(exc, duckdb.IOException) and bool(path) and str(path) in str(exc)


def is_failure_of_the_file(exc: duckdb.Error, path: str) -> bool:
    """Damage, a full disk or a held lock: failures of the store file rather than of a
    statement (a missing table, a bad cast), which callers may expect and handle."""
    return _locked(exc) or _disk_full(exc) or _damaged(exc, path)


def lock_holder(duckdb_error: str) -> str:
    """The process holding a store's lock, as DuckDB's error names it (``... is held in EXE
    (PID n)``), with its command line when the system shows it; else "another process"."""
    match = re.search(r"held in (.+?) \(PID (\d+)\)", duckdb_error)
    if not match:
        return "another process"
    exe, pid = match.groups()
    with contextlib.suppress(OSError):
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        shown = " ".join(a.decode(errors="replace") for a in argv if a)
        if shown:
            return f"PID {pid} ({shown[:160]})"
    return f"PID {pid} ({exe})"


def lock_message(path: str, duckdb_error: str) -> str:
    """Who holds the store and what to do. DuckDB lets one process write a file and no other
    open it meanwhile, even read-only: an open ``toolex tui`` blocks ``load``, ``expand`` and
    ``retrieve`` just as a running pipeline does."""
    return (
        f"the store {path} is locked by {lock_holder(duckdb_error)}: while one process has a "
        "store open for writing no other may open it, and while any process has it open (a "
        "running pipeline, or a `toolex tui` even though it only reads) none may write; wait "
        "for it or close it (`toolex tui --snapshot` browses a copy and holds no lock)"
    )
