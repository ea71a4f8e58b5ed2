"""run_forked's wait is bounded (tests/processes.py's wait_pid): a forked child that never ends
is killed and fails its test instead of holding the worker until the suite's 30-minute bound."""

from __future__ import annotations

import os
import signal

import pytest
from processes import wait_pid


def _fork(then: str) -> int:
    pid = os.fork()
    if pid == 0:  # the child: never returns
        try:
            if then == "hang":
                while True:
                    signal.pause()  # no signal comes but the parent's SIGKILL
        finally:
            os._exit(3)
    return pid


def test_a_child_that_ends_gives_its_status() -> None:
    status = wait_pid(_fork("exit"), timeout=300)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 3


def test_a_child_that_never_ends_is_killed_and_fails_the_test() -> None:
    pid = _fork("hang")
    with pytest.raises(pytest.fail.Exception, match=f"forked pid {pid} still ran after"):
        wait_pid(pid, timeout=0.2)  # the child pauses forever: no wait is long enough
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # killed and reaped: nothing is left behind
