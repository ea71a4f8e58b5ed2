"""``toolex ARGS...`` through main() in a forked child with a total deadline: an attempt that
hangs (a FIFO read, a server that never finishes) is killed at the deadline and counts as a
hang, never as a test that waits forever. Deadlines here are generous for a loaded machine; the
product's own deadlines, which the attacks check, are set small by each test.

``Ran.outcome`` is ``"hang"`` for a killed child, else as in attacks.conftest."""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

# The attempt's deadline: far past any honest answer on a loaded machine (set lower to see a
# regression's hangs sooner: TOOLEX_ATTACK_HANG_S=10).
HANG_S = float(os.environ.get("TOOLEX_ATTACK_HANG_S") or 120.0)


@dataclass
class Bounded:
    code: int
    out: str
    err: str
    hung: bool = False
    crashed: bool = False  # a traceback, an uncaught exception or a fatal signal

    @property
    def outcome(self) -> str:
        if self.hung:
            return "hang"
        if self.crashed or "Traceback (most recent call last)" in self.err:
            return "traceback"
        return "correct result" if self.code == 0 else "clean error"

    @property
    def said(self) -> str:
        """The last line on stderr (a one-line error is that line)."""
        lines = self.err.strip().splitlines()
        return lines[-1] if lines else ""


def run_bounded(
    *args: str, deadline_s: float = HANG_S, env: Mapping[str, str | None] | None = None
) -> Bounded:
    from attacks.conftest import preload_llm

    preload_llm()  # the child inherits the CLI's and the SDKs' modules (see there)
    with tempfile.TemporaryDirectory(prefix="toolex-bounded-") as tmp:
        out_path, err_path = Path(tmp, "out"), Path(tmp, "err")
        pid = os.fork()
        if pid == 0:  # the child: never returns
            code = 70
            try:
                with open(out_path, "w") as out, open(err_path, "w") as err:
                    os.dup2(out.fileno(), 1)
                    os.dup2(err.fileno(), 2)
                    sys.stdout, sys.stderr = out, err
                    sys.argv = ["toolex", *args]
                    for name, value in (env or {}).items():  # None: not set at all
                        if value is None:
                            os.environ.pop(name, None)
                        else:
                            os.environ[name] = value
                    try:
                        from toolex.cli import main

                        main()
                        code = 0
                    except SystemExit as exc:
                        code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
                    except BaseException:  # noqa: BLE001
                        traceback.print_exc()
                        code = 70
                    out.flush()
                    err.flush()
            finally:
                os._exit(code)
        end = time.monotonic() + deadline_s
        status, hung = None, False
        while status is None:
            done, st = os.waitpid(pid, os.WNOHANG)
            if done:
                status = st
            elif time.monotonic() > end:
                os.kill(pid, signal.SIGKILL)
                _, status = os.waitpid(pid, 0)
                hung = True
            else:
                time.sleep(0.05)
        printed = out_path.read_text(errors="replace"), err_path.read_text(errors="replace")
    if hung:
        return Bounded(-9, *printed, hung=True)
    if os.WIFSIGNALED(status):
        return Bounded(-os.WTERMSIG(status), *printed, crashed=True)
    code = os.WEXITSTATUS(status)
    return Bounded(code, *printed, crashed=code == 70)
