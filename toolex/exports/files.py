"""Where an output may be written, and how: never over the store or a file the command reads,
never over anything but a regular file, and whole or not at all.

Every file toolex writes for a user (`toolex export ...`, `toolex sql --out`, `labels export`,
`review export`, the files of `report --out` and `export toolbench --out`) goes through
:func:`output_file`, and every folder it writes them into through :func:`check_folder`:

- it refuses a path that is the store, or one of the store's own files and folders, all named
  after it (``toolex.duckdb.wal``, ``.commits``, ``.lance/``, ``.tmp/``), or any file the
  command reads. The store is known by *every* name that reaches it: as typed, resolved through
  symbolic links, and any other name in a folder that is the same file (a hard link): `--db
  link.duckdb` keeps its log and commit record at ``link.duckdb.*``, the real file's name has
  its own, and a write to either destroys what the store guards (a replaced ``.commits``
  makes the store refuse itself as having lost commits);
- it refuses a path that exists and is not a regular file (a device such as /dev/full, a FIFO,
  a socket, a folder): replacing one with a regular file is never what was asked, and writing
  into one succeeds without storing anything;
- it writes to a temporary file beside the target, flushes and syncs it to the disk, renames it
  into place and syncs the folder: only then is the output done. A failure anywhere (a full
  disk at a write, at the flush or at the sync) is :class:`OutputFailed`, the old file stays as
  it was (or none), with no temporary file and no folder made for it left behind.
"""

from __future__ import annotations

import contextlib
import errno
import fnmatch
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from toolex.errors import ToolexError


class OutputRefused(ToolexError):
    """An output path that would overwrite the store, an input of the command, or something
    that is not a regular file."""


class OutputFailed(ToolexError):
    """An output that could not be written whole (a full disk, a failed sync): nothing was
    written."""


# Errors of writing, whichever call raised them: pyarrow and DuckDB say no file name.
_WRITE_ERRNOS = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO, errno.EROFS}


def _kind(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _same(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` are one file (same device and inode: a hard or symbolic link)."""
    if a == b:
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # either is missing
        return False


def _store_names(store: str | Path) -> list[Path]:
    """The store's path as typed (its folder resolved, its own name kept: DuckDB names the log
    after it, toolex the commit record and folders) and resolved through links."""
    typed = Path(os.path.abspath(Path(store).expanduser()))
    return list(dict.fromkeys([typed.parent.resolve() / typed.name, typed.resolve()]))


def _store_part(target: Path, store: str | Path) -> str | None:
    """Why ``target`` (resolved) is the store or lies among its own files, or None.

    For ``target`` and each folder above it: the store itself (any name of it: the same file);
    a name ``<store name>.<anything>`` beside any name of the store (its log, commit record,
    vector and spill folders, and what is inside them)."""
    names = _store_names(store)
    db = names[-1]
    for part in [target, *target.parents]:
        if any(part == n for n in names) or _same(part, db):
            return f"is the store ({db}); writing there would destroy it"
        if part.name.startswith(".") or "." not in part.name:
            continue
        # <name>.<suffix...>: is some prefix of it a name of the store in that folder?
        pieces = part.name.split(".")
        for i in range(1, len(pieces)):
            stem = part.parent / ".".join(pieces[:i])
            if any(stem == n for n in names) or (stem.exists() and _same(stem, db)):
                return (
                    f"is named after the store ({stem.name}.*, where its write-ahead log, commit "
                    "record, vector index and spill folder live); writing there could destroy "
                    "them"
                )
    return None


def _reads_part(target: Path, reads: Iterable[str]) -> str | None:
    """How ``target`` (resolved) would overwrite what the command reads (``reads``: paths,
    glob patterns or folders), or None."""
    for read in reads:
        source = Path(read).expanduser()
        resolved = source.resolve()
        pattern = str(source if source.is_absolute() else Path.cwd() / source)
        if resolved.is_dir() and (target == resolved or resolved in target.parents):
            return f"is (or is inside) a folder the command reads ({read})"
        if _same(target, resolved) or fnmatch.fnmatchcase(str(target), pattern):
            return f"is a file the command reads ({read})"
    return None


def check_output(path: str | Path, store: str | Path | None, reads: Iterable[str] = ()) -> Path:
    """``path`` resolved (through symbolic links), or :class:`OutputRefused` when it is not a
    regular file nor a new one, is the store or one of its own files (by any name of the
    store), or a file the command reads (``reads``: paths, glob patterns or folders)."""
    target = Path(path).expanduser().resolve()
    try:
        kind = _kind(os.stat(target).st_mode)
    except OSError:
        kind = None  # a new file
    if kind == "a folder":
        raise OutputRefused(f"--out {path}: a folder; name a file to write")
    if kind is not None:
        raise OutputRefused(
            f"--out {path} is {kind}, not a regular file: toolex writes a file whole and "
            "renames it into place, which would replace it; name a regular file"
        )
    _refuse_store_and_reads(path, target, store, reads)
    return target


def check_folder(path: str | Path, store: str | Path | None, reads: Iterable[str] = ()) -> Path:
    """``path`` resolved, as a folder to write files into (`report --out`, `export toolbench
    --out`), or :class:`OutputRefused` when it exists and is not a folder, is among the
    store's own files, or is (or lies inside) a folder the command reads. Each file written
    into it still goes through :func:`output_file`."""
    target = Path(path).expanduser().resolve()
    if target.exists() and not target.is_dir():
        raise OutputRefused(f"--out {path} is not a folder; name a folder to write")
    _refuse_store_and_reads(path, target, store, reads)
    return target


def _refuse_store_and_reads(
    path: str | Path, target: Path, store: str | Path | None, reads: Iterable[str]
) -> None:
    if store is not None and str(store) != ":memory:":
        why = _store_part(target, store)
        if why is not None:
            raise OutputRefused(f"--out {path} {why}: name another file")
    why = _reads_part(target, reads)
    if why is not None:
        raise OutputRefused(
            f"--out {path} {why}; writing there would destroy its input: name another file"
        )


@contextlib.contextmanager
def output_file(
    path: str | Path, store: str | Path | None = None, reads: Iterable[str] = ()
) -> Iterator[Path]:
    """A temporary path to write ``path``'s content to; synced and renamed to ``path`` when
    the block ends without an error, removed when it fails (the old file, if any, stays as it
    was). ``path`` is checked first (:func:`check_output`). A write, flush or sync that fails
    (a full disk) raises :class:`OutputFailed`."""
    target = check_output(path, store, reads)
    made = [p for p in reversed(target.parents) if not p.exists()]  # outermost first
    done = False
    temp: Path | None = None
    try:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(
                dir=target.parent, prefix=f".{target.name}.", suffix=".part"
            )
            os.close(fd)
        except OSError as exc:
            raise _failed(path, exc, target) from exc
        temp = Path(name)
        try:
            yield temp
        except OSError as exc:
            if exc.errno in _WRITE_ERRNOS or exc.filename in (str(temp), temp):
                raise _failed(path, exc, target) from exc
            raise
        try:
            # mkstemp makes the file private (0600); the output gets the mode a new file would
            # (or keeps the one the file it replaces had).
            os.chmod(temp, target.stat().st_mode & 0o7777 if target.exists() else _new_file_mode())
            sync_file(temp)
            os.replace(temp, target)
            done = True
            sync_folder(target.parent)
        except OSError as exc:
            raise _failed(path, exc, target, renamed=done) from exc
    finally:
        if temp is not None and not done:
            temp.unlink(missing_ok=True)
        if not done:
            # A failed output leaves nothing behind, not even the folders made for it.
            for folder in reversed(made):
                with contextlib.suppress(OSError):
                    folder.rmdir()


def _failed(path: str | Path, exc: OSError, target: Path, *, renamed: bool = False) -> OutputFailed:
    reason = exc.strerror or str(exc) or type(exc).__name__
    if renamed:  # the file is in place; its folder entry may not survive a crash
        return OutputFailed(f"--out {path}: written, but its folder could not be synced: {reason}")
    kept = "the old file is as it was" if target.exists() else "no file was made"
    return OutputFailed(f"could not write --out {path}: {reason} (nothing written; {kept})")


def sync_file(path: Path) -> None:
    """Flush ``path``'s data to the disk (the writers closed it; the kernel may still hold it,
    and a full disk or a failing device is reported here, not at ``close``)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable. Some file systems cannot sync a folder (EINVAL):
    there the rename is as durable as they make it."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP):
            raise
    finally:
        os.close(fd)


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask
