"""The files a store keeps beside itself (``<store>.wal``, DuckDB's write-ahead log, and
``<store>.commits``, toolex's count of committed writes), refused when they are not regular files.

Opening a FIFO for reading waits for a writer that never comes, and reading a character device
never ends: a ``.commits`` or ``.wal`` replaced by one hung every command, readers included
(issue 37.9). So each side file is looked at before anything opens it (``os.stat``: a symbolic
link is judged by what it points to), and opened, when it is, without blocking
(``O_NONBLOCK``), then checked again on the open descriptor in case it was swapped in between.
Anything but a regular file (or a link to one) is a StoreError that names the file, what it is
and what to do.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from toolex.errors import StoreError

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def not_regular(path: str | Path) -> str | None:
    """What ``path`` is when it exists and is not a regular file nor a link to one ("a FIFO
    (named pipe)", "a symbolic link to a directory", "a symbolic link to nothing"); None when
    it is absent or a regular file."""
    try:
        link = stat.S_ISLNK(os.lstat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        return f"unreadable ({exc.strerror})"
    try:
        kind = _kind(os.stat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return "a symbolic link to nothing" if link else None
    except OSError as exc:  # a loop of links, a permission denied on the way
        return f"unreadable ({exc.strerror})"
    return f"a symbolic link to {kind}" if link and kind else kind


def refusal(path: str | Path, role: str, kind: str) -> StoreError:
    """The one wording for a side file that is not a regular file; ``role`` says who keeps
    what there ("toolex keeps the count of the store's committed writes")."""
    return StoreError(
        f"{path} is {kind}, not a regular file: {role} there, and reading anything else could "
        f"wait forever. Move it aside or remove it (`rm {path}`); the store itself is untouched"
    )


def check(path: str | Path, role: str) -> None:
    """StoreError when ``path`` exists and is not a regular file (or a link to one)."""
    kind = not_regular(path)
    if kind is not None:
        raise refusal(path, role, kind)


def open_regular(path: str | Path, flags: int, role: str, mode: int = 0o644) -> int:
    """``os.open(path, flags)`` that never blocks on a FIFO or device and gives a descriptor
    of a regular file only (StoreError otherwise; OSError as os.open raises it)."""
    check(path, role)
    fd = os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    try:
        kind = _kind(os.fstat(fd).st_mode)
        if kind is not None:  # swapped in between the look and the open
            raise refusal(path, role, kind)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd
