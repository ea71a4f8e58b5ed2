"""A consistent copy of a store another process is writing (``toolex tui --snapshot``).

DuckDB lets no other process open a store while one writes, so browsing during a pipeline needs
a copy, taken without the lock. Copying the file and then its write-ahead log separately can
pair a file from before a checkpoint with a log from after it (1 copy in 250 under a busy
writer); :func:`snapshot_copy` detects that and takes the copy again.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

from toolex.errors import StoreError

SNAPSHOT_PREFIX = "toolex-snapshot-"


def snapshot_copy(path: str | Path, into: str | Path | None = None, attempts: int = 6) -> Path:
    """Copy the store at ``path`` (file and write-ahead log) into ``into`` (by default a new
    temporary folder named ``toolex-snapshot-<pid>-*``) and return the copy's path.

    No lock is needed, so this works while a pipeline holds the store; but that writer may
    checkpoint during the copy (write new blocks, then a new header, then empty the log). A copy
    is kept only if the file's headers did not change while the file and the log were copied
    (blocks the old header points to are never overwritten before the new header is written)
    and the log only grew (appends; DuckDB's replay drops a torn tail), and if DuckDB then
    opens the copy, replays the log into it and reads every table. Otherwise it is taken again,
    up to ``attempts`` times, then StoreError."""
    from toolex.store import Store  # here: `toolex tui --help` need not start DuckDB

    src, wal = Path(path), Path(f"{path}.wal")
    if not src.is_file():
        raise StoreError(f"no store at {src}; create one with `toolex load ...` first")
    prefix = f"{SNAPSHOT_PREFIX}{os.getpid()}-"
    folder = Path(into) if into else Path(tempfile.mkdtemp(prefix=prefix))
    dst, dst_wal = folder / src.name, folder / f"{src.name}.wal"
    problem = ""
    for attempt in range(attempts):
        if attempt:
            time.sleep(min(1.0, 0.05 * 2**attempt))
        for stale in (dst, dst_wal):
            stale.unlink(missing_ok=True)
        head0, log0 = _headers(src), _log_stamp(wal)
        try:
            shutil.copyfile(src, dst)
            if log0 is not None:
                shutil.copyfile(wal, dst_wal)
        except FileNotFoundError:  # the log vanished: a checkpoint finished meanwhile
            problem = "the write-ahead log was checkpointed during the copy"
            continue
        log1 = _log_stamp(wal)
        if not head0 or _headers(src) != head0 or _headers(dst) != head0:
            problem = "the store was checkpointed during the copy"
            continue
        if log0 is not None and (log1 is None or log1[0] != log0[0] or log1[1] < log0[1]):
            problem = "the write-ahead log was checkpointed during the copy"
            continue
        try:
            with Store.open(dst) as copy:  # replays the log into the copy and checkpoints it
                bad = copy.unreadable_tables()
        except Exception as exc:  # noqa: BLE001 - any failure to open the copy: take it again
            problem = (str(exc).splitlines() or [type(exc).__name__])[0]
            continue
        if not bad:
            return dst
        problem = f"table {bad[0][0]} of the copy cannot be read ({bad[0][1]})"
    raise StoreError(
        f"could not take a consistent snapshot of {src} in {attempts} attempts ({problem}); "
        "the writer keeps rewriting it: try again, or wait for it to finish"
    )


# DuckDB's file starts with a main header and two database headers of 4 KiB each; a checkpoint
# ends by writing the next database header.
_HEADER_BYTES = 3 * 4096


def _headers(path: Path) -> bytes:
    try:
        with path.open("rb") as fh:
            return fh.read(_HEADER_BYTES)
    except FileNotFoundError:
        return b""


def _log_stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size)
