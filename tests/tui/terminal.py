"""`toolex ARGS` as a user runs it: the installed command in a pseudo-terminal of a given size,
keys typed into it, the text it draws read back, and the process ended by a key or a signal.

Nothing here waits a fixed time: each wait reads what the program draws until a condition on
observable state holds (its screen text, its exit, or a caller's check of the store), for a
bounded number of reads; a read returns as soon as the program draws anything, or after
``READ_S`` seconds of silence. The bounds (MAX_READS, MAX_SILENT) turn a hang into a failure;
they are not a pace the program must keep, and a loaded machine only makes the reads fewer.
"""

from __future__ import annotations

import codecs
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
from collections.abc import Callable
from pathlib import Path

TOOLEX = str(Path(sys.executable).with_name("toolex"))  # the installed entry point
READ_S = 1.0
MAX_READS = 5000  # reads that got output
MAX_SILENT = 180  # reads that got none: three minutes without drawing anything is a hang
# the bytes a terminal sends for the keys the tests press
KEYS = {"enter": b"\r", "tab": b"\t", "escape": b"\x1b", "ctrl+q": b"\x11", "ctrl+s": b"\x13"}
# CSI sequences (colours, cursor moves, modes), OSC strings, two-byte escapes
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()=>][0-9A-Za-z]?"
)
_LEAVE_SCREEN = "\x1b[?1049l"  # Textual leaves the alternate screen as it exits


class Terminal:
    """One ``toolex`` process on a pseudo-terminal (its stdin, stdout and stderr)."""

    def __init__(self, *args: str, size: tuple[int, int] = (80, 24)) -> None:
        master, slave = os.openpty()
        cols, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(cols), "LINES": str(rows)}
        self.proc = subprocess.Popen(
            [TOOLEX, *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,  # its own controlling terminal: the pty
            close_fds=True,
        )
        os.close(slave)
        self.fd = master
        self.raw = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.closed = False
        self.silent = 0  # reads that found nothing to read

    @property
    def text(self) -> str:
        """Everything drawn so far without escape sequences."""
        return _ESCAPES.sub("", self.raw)

    @property
    def after_exit(self) -> str:
        """What was printed after the program left the full screen (errors, exit messages)."""
        return _ESCAPES.sub("", self.raw.rpartition(_LEAVE_SCREEN)[2]).replace("\r", "")

    def read(self) -> bool:
        """Read what the program drew, waiting up to READ_S for something; False at its end."""
        if self.closed:
            return False
        ready, _, _ = select.select([self.fd], [], [], READ_S)
        if not ready:
            self.silent += 1
            if self.silent > MAX_SILENT:
                raise AssertionError(f"toolex drew nothing for long:\n{self.text[-2000:]}")
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: every holder of the terminal's other end is gone
            chunk = b""
        if not chunk:
            self.closed = True
            return False
        self.raw += self._decoder.decode(chunk)
        return True

    def wait_for(self, done: Callable[[Terminal], bool], what: str) -> None:
        """Read until ``done(self)`` holds; fail if the program ends or stays silent first."""
        for _ in range(MAX_READS):
            if done(self):
                return
            if not self.read() and not done(self):
                raise AssertionError(f"toolex ended before {what}:\n{self.after_exit[-2000:]}")
        raise AssertionError(f"no {what} after {MAX_READS} reads:\n{self.text[-2000:]}")

    def wait_for_text(self, text: str) -> None:
        self.wait_for(lambda t: text in t.text, repr(text))

    def press(self, *keys: str) -> None:
        for key in keys:
            os.write(self.fd, KEYS.get(key, key.encode()))

    def kill(self, sig: int = signal.SIGKILL) -> None:
        self.proc.send_signal(sig)

    def wait_exit(self) -> int:
        """Read to the end of the output, then the exit code (negative: killed by a signal)."""
        for _ in range(MAX_READS):
            if not self.read():
                break
        else:
            raise AssertionError(f"toolex did not end:\n{self.text[-2000:]}")
        return self.proc.wait(timeout=MAX_READS * READ_S)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=MAX_SILENT * READ_S)  # after SIGKILL: it ends
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
