"""Committed writes, counted, so that a store which lost some is noticed on open.

DuckDB replays its write-ahead log (``<store>.wal``) when it opens a store that was not closed
cleanly, and stops, without a word, at damage in it: a log cut short (a copy taken mid-write, a
disk that filled) or a scribbled length drops every transaction after the damage, committed or
not (10 of 22 damaged logs in issue 27's attack suite lost committed transactions silently; the
other 12 fail to open, which the store reports as damage). The tables then lack writes that
commands reported done, and every number printed from them is wrong.

So each write transaction toolex commits adds one row to ``store_commits`` inside that same
transaction (lost with it if the log loses it), and once the commit has returned, the count is
recorded beside the store in ``<store>.commits`` (JSON: the store's id and the count). On open,
a store holding fewer commits than were recorded lost committed writes: :func:`check` raises a
StoreError saying how many and what to do, before anything is read from it.

The record may lag the store (a crash between a commit and its record; a record that could not
be written), never lead it: DuckDB has synced a commit to the log before it returns. The record
names the store (``store_identity``, a random id made with it), so a new store made at the same
path starts afresh, and a copy elsewhere has no record (nothing to compare). Writes made outside
toolex (DuckDB's own shell) are not counted; they can only make the store look ahead.
"""

from __future__ import annotations

import json
import os
import re
import threading
from functools import cache
from pathlib import Path
from typing import NamedTuple

from toolex.errors import StoreError
from toolex.resources import sql_text
from toolex.store import side_files
from toolex.store.duck import duckdb

SUFFIX = ".commits"
_WIDTH = 128  # bytes of a record: a store id (36) and a count fit with room to spare
_READ_AT_MOST = 4096  # bytes read of a record: more is not a record toolex wrote
ROLE = "toolex keeps the count of the store's committed writes"  # for its errors
COMPACT_ROWS = 10_000  # store_commits rows that are folded into one when a store opens
# Statement types that change the database: a shipped file of one of them, run outside a
# transaction, is followed by a commit of its own to count.
_WRITES = {"INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "COPY", "MERGE_INTO"}
# A statement that creates a TEMP object, after any comments (a DROP is counted whatever it
# drops: the parser does not say which catalog the name is in)
_CREATE_TEMP = re.compile(
    r"(?:\s|--[^\n]*(?:\n|$)|/\*.*?\*/)*CREATE\s+(?:OR\s+REPLACE\s+)?TEMP(?:ORARY)?\s",
    re.IGNORECASE | re.DOTALL,
)

_recorded: dict[tuple[str, str], int] = {}  # (path, store id) -> count recorded by this process
_last: dict[str, tuple[str, int]] = {}  # path -> (store id, count) last recorded by this process
_writing: dict[str, int] = {}  # path -> commits under way in this process (begin without end)
_lock = threading.Lock()


class Count(NamedTuple):
    """What store/51_commit_count.sql reads: the store's id, its commits, in how many rows."""

    store_id: str
    commits: int
    n_rows: int


def record_path(path: str) -> Path:
    return Path(f"{path}{SUFFIX}")


@cache
def writes(name: str) -> bool:
    """Whether the shipped SQL file ``name`` changes the database (DuckDB's own parser). A TEMP
    object's creation is not a change: it lives in the connection's temporary catalog, never in
    the store's file, so counting it committed nothing but the count itself (a write and fsync
    of the count's own: the metric engine's seven macros cost a demo fourteen)."""
    return any(
        s.type.name in _WRITES and not _CREATE_TEMP.match(s.query)
        for s in duckdb.extract_statements(sql_text(name))
    )


class Record(NamedTuple):
    """What ``<store>.commits`` holds: the store's id, the commits recorded, and how many
    commits were under way when it was written (a writer that stopped between committing and
    recording leaves that above 0)."""

    store_id: str
    commits: int
    writing: int = 0


def read_record(path: str) -> tuple[str, int] | None:
    """(store id, commits) recorded beside the store, or None when there is no readable one;
    StoreError when the record is not a regular file (a FIFO would never answer the read)."""
    state = read_state(path)
    return None if state is None else (state.store_id, state.commits)


def read_state(path: str) -> Record | None:
    """The whole record beside the store (:class:`Record`), or None as for :func:`read_record`."""
    try:
        fd = side_files.open_regular(record_path(path), os.O_RDONLY, ROLE)
    except OSError:
        return None
    try:
        value = json.loads(os.read(fd, _READ_AT_MOST).decode("utf-8"))
        return Record(str(value["store_id"]), int(value["commits"]), int(value.get("writing", 0)))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    finally:
        os.close(fd)


def record(path: str, count: Count, *, opening: bool = False) -> None:
    """Record ``count`` beside the store unless this process recorded as many already (two
    connections of one process commit in any order), or whatever it holds when ``opening``.

    Overwritten in place at a fixed width (JSON padded with spaces), not truncated, renamed or
    synced: on ext4 each of those flushes the file, 4-5 ms a commit here, where one small
    write at offset 0 takes microseconds. None can raise a false alarm: a lost or skipped
    record lags, a record that does not parse counts as none, and no other process reads it
    meanwhile (DuckDB's lock keeps them off the store)."""
    with _lock:
        _take(path, count, opening)


def begin(path: str) -> None:
    """A commit is about to be made on ``path``: say so in the record first. A writer killed
    between that commit and its record (:func:`end`) leaves the mark, and a store whose log
    is then gone is refused as possibly short of that commit (:func:`check`) rather than read
    as if nothing were missing (issue 37.11)."""
    with _lock:
        _writing[path] = _writing.get(path, 0) + 1
        _write(path)


def end(path: str, count: Count | None) -> None:
    """The commit :func:`begin` announced is done (``count``: the store's count after it) or
    failed (None): record the count, and take the mark away once no commit is under way."""
    with _lock:
        _writing[path] = max(0, _writing.get(path, 0) - 1)
        if count is None or not _take(path, count, False):
            _write(path)


def _take(path: str, count: Count, opening: bool) -> bool:
    """Record ``count`` (see :func:`record`); whether it was written. Under ``_lock``."""
    key = (path, count.store_id)
    if not opening and _recorded.get(key, -1) >= count.commits:
        return False
    _last[path] = (count.store_id, count.commits)
    if _write(path):
        _recorded[key] = count.commits
    return True


def _write(path: str) -> bool:
    """Write the record of ``path`` as this process knows it; whether it was. Under ``_lock``."""
    if path not in _last:
        return False
    store_id, commits = _last[path]
    value: dict[str, object] = {"store_id": store_id, "commits": commits}
    if _writing.get(path):
        value["writing"] = _writing[path]
    data = json.dumps(value).ljust(_WIDTH - 1).encode("utf-8") + b"\n"
    try:
        fd = side_files.open_regular(record_path(path), os.O_WRONLY | os.O_CREAT, ROLE)
        try:
            os.pwrite(fd, data, 0)
        finally:
            os.close(fd)
    except (OSError, StoreError):  # a guard of the store, not part of it: skipped, never
        return False  # fatal (a record that is not a file is refused when the store next opens)
    return True


def check(path: str, count: Count, log: bool = True) -> None:
    """StoreError when the store holds fewer commits than were recorded for it, or when a
    writer stopped between a commit and its record and the write-ahead log that held that
    commit is gone (``log``: the store had one when it was opened).

    With the log there, a store that holds no more than the record after a stopped commit
    lost nothing: DuckDB replays every commit that reached the log, so the one under way had
    not when the writer stopped, and no command reported it done (the next writer to open
    the store records its count afresh)."""
    recorded = read_state(path)
    if recorded is None or recorded.store_id != count.store_id:
        return
    if recorded.writing and not log and count.commits == recorded.commits:
        raise StoreError(
            f"the store {path} may lack its last committed write: a writer stopped between "
            f"committing it and recording it ({record_path(path)} marks a commit under way "
            f"after the {recorded.commits} recorded, and the store holds {count.commits}), and "
            f"the write-ahead log that would hold it ({path}.wal) is gone. Put {path}.wal back "
            f"if you have it; else delete {record_path(path)} (toolex then counts from what the "
            "store holds) and re-run the command that was writing when it stopped"
        )
    if recorded.commits <= count.commits:
        return
    lost = recorded.commits - count.commits
    raise StoreError(
        f"the store {path} lost {lost} committed write(s): it holds {count.commits} of the "
        f"{recorded.commits} toolex committed to it (counted in {record_path(path)}). DuckDB drops "
        f"what follows damage in the write-ahead log ({path}.wal) when it replays it, without "
        "an error, so the tables lack writes that commands reported done and any number read "
        "from them would be wrong. Re-run the commands that wrote last (those before a crash "
        "or a full disk), or put a backup copy in the store's place; either way first delete "
        f"{record_path(path)}, which tells toolex to count from what the store holds now"
    )
