"""Where an output may be written, and how: never over the store or a file the command reads,
and whole or not at all.

Every file toolex writes for a user (`toolex export ...`, `toolex sql --out`) goes through
:func:`output_file`:

- it refuses a path that is the store, or one of the store's own files and folders, all named
  after it (``toolex.duckdb.wal``, ``toolex.duckdb.lance/``, ``toolex.duckdb.tmp/``), or any file
  the command reads: writing there would destroy what the command is reading (``--out
  toolex.duckdb`` used to replace the open store with the output, every table gone);
- it writes to a temporary file beside the target and renames it into place once complete, so
  a failed or interrupted export leaves the old file as it was (or none), never half a file,
  and no folder it made for the file.
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from toolex.errors import ToolexError


class OutputRefused(ToolexError):
    """An output path that would overwrite the store or an input of the command."""


def _same(a: Path, b: Path) -> bool:
    if a == b:
        return True
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_output(path: str | Path, store: str | Path | None, reads: Iterable[str] = ()) -> Path:
    """``path`` resolved (through symbolic links), or :class:`OutputRefused` when it is the
    store, one of its own files (the store's name and a dot: its WAL, vector and spill folders),
    or a file the command reads (``reads``: paths or glob patterns)."""
    target = Path(path).expanduser().resolve()
    if target.is_dir():
        raise OutputRefused(f"--out {path}: a folder; name a file to write")
    if store is not None and str(store) != ":memory:":
        db = Path(store).expanduser().resolve()
        if _same(target, db):
            raise OutputRefused(
                f"--out {path} is the store ({db}); writing there would destroy it: name "
                "another file"
            )
        if any(p.parent == db.parent and p.name.startswith(f"{db.name}.") for p in _up(target)):
            raise OutputRefused(
                f"--out {path} is named after the store ({db.name}.*, where its write-ahead "
                "log, vector index and spill folder live); writing there could destroy them: "
                "name another file"
            )
    for read in reads:
        source = Path(read).expanduser()
        pattern = str(source if source.is_absolute() else Path.cwd() / source)
        if _same(target, source.resolve()) or fnmatch.fnmatchcase(str(target), pattern):
            raise OutputRefused(
                f"--out {path} is a file the command reads ({read}); writing there would "
                "destroy its input: name another file"
            )
    return target


def _up(path: Path) -> list[Path]:
    return [path, *path.parents]


@contextlib.contextmanager
def output_file(
    path: str | Path, store: str | Path | None = None, reads: Iterable[str] = ()
) -> Iterator[Path]:
    """A temporary path to write ``path``'s content to; renamed to ``path`` when the block
    ends without an error, removed when it fails (the old file, if any, stays as it was).
    ``path`` is checked first (:func:`check_output`)."""
    target = check_output(path, store, reads)
    made = [p for p in reversed(target.parents) if not p.exists()]  # outermost first
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    os.close(fd)
    temp = Path(name)
    done = False
    try:
        yield temp
        # mkstemp makes the file private (0600); the output gets the mode a new file would
        # (or keeps the one the file it replaces had).
        os.chmod(temp, target.stat().st_mode & 0o7777 if target.exists() else _new_file_mode())
        os.replace(temp, target)
        done = True
    finally:
        temp.unlink(missing_ok=True)
        if not done:
            # A failed output leaves nothing behind, not even the folders made for it.
            for folder in reversed(made):
                with contextlib.suppress(OSError):
                    folder.rmdir()


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask
