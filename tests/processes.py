"""Waiting on a child process with a deadline, and children that take Ctrl-C.

A test that waits on a process (a child or a fork) bounds its own wait (a hang fails the test,
it never stalls the suite), and a test that sends SIGINT starts its child with SIGINT at its
default: a shell's background job (`nohup ... &`, some CI runners) starts with SIGINT ignored,
every child inherits that, and Python then never turns the signal into KeyboardInterrupt
(issue 34)."""

from __future__ import annotations

import os
import queue
import select
import signal
import subprocess
import threading
import time
from typing import IO

import pytest

# A bound on a hang, not a measurement: the slowest of these waits takes seconds.
DEADLINE_S = 300.0


def sigint_default() -> None:
    """``preexec_fn`` of a child that will be sent SIGINT: the signal at its default, so the
    child's Python installs its KeyboardInterrupt handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Lines:
    """The lines a child writes to ``stream``, read by a thread so that each wait has a
    deadline (``select`` on a buffered pipe misses lines already read into the buffer)."""

    def __init__(self, proc: subprocess.Popen[str], stream: IO[str] | None) -> None:
        assert stream is not None
        self.proc, self.lines = proc, queue.Queue[str | None]()
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put(None)  # end of the stream

    def next(self, timeout: float = DEADLINE_S) -> str:
        """The next line ('' at the end of the stream); the child is killed and the test fails
        when none comes within ``timeout``."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.proc.kill()
            self.proc.wait(timeout=DEADLINE_S)
            pytest.fail(f"no line from pid {self.proc.pid} within {timeout:.0f} s")
        return "" if line is None else line

    def rest(self, timeout: float = DEADLINE_S) -> str:
        """Every line still to come, up to the end of the stream."""
        out = []
        while line := self.next(timeout):
            out.append(line)
        return "".join(out)


def wait(proc: subprocess.Popen[str], timeout: float = DEADLINE_S) -> int:
    """The child's exit code; the child is killed and the test fails past ``timeout``."""
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=DEADLINE_S)
        pytest.fail(f"pid {proc.pid} still ran after {timeout:.0f} s")


def wait_pid(pid: int, timeout: float = DEADLINE_S) -> int:
    """The wait status (``os.waitpid``'s) of the forked child ``pid``; the child is killed and
    the test fails when it has not ended within ``timeout``."""
    status = _status_within(pid, timeout)
    if status is not None:
        return status
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)  # SIGKILL cannot be caught: the child is gone
    pytest.fail(f"forked pid {pid} still ran after {timeout:.0f} s")


def _status_within(pid: int, timeout: float) -> int | None:
    """The child's wait status once it ends, None if it still runs after ``timeout``. A pidfd
    answers the moment the child ends (Linux 5.3+); elsewhere the child is polled."""
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            time.sleep(0.02)
        return None
    try:
        ended = select.select([fd], [], [], timeout)[0]
    finally:
        os.close(fd)
    return os.waitpid(pid, 0)[1] if ended else None
