"""The real entry point for the attack suite: ``toolex`` run as a subprocess with a deadline, so
a hang is a failed test (never a stuck run) and what a shell sees (exit code, stderr, what a
pipe gets) is what is checked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

DEADLINE = 300  # seconds: a bound on a hang on a loaded machine, never a measurement
TOOLEX = [sys.executable, "-c", "from toolex.cli import main; main()"]


@dataclass
class Shell:
    code: int
    out: str
    err: str
    hung: bool = False

    @property
    def outcome(self) -> str:
        if self.hung or "Traceback (most recent call last)" in self.err:
            return "traceback"
        return "correct result" if self.code == 0 else "clean error"

    @property
    def one_line_error(self) -> bool:
        """The error is one line saying ``error: ...`` (progress lines aside)."""
        lines = [line for line in self.err.splitlines() if line.startswith("error:")]
        return len(lines) == 1 and "Traceback" not in self.err


def shell(*args: str, cwd: str | Path | None = None, env: dict[str, str] | None = None) -> Shell:
    """``toolex ARGS...`` in a subprocess (the console script's code), bounded by DEADLINE."""
    full = {**os.environ, "COLUMNS": "80", **(env or {})}
    proc = subprocess.Popen(
        [*TOOLEX, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
        env=full,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=DEADLINE)  # SIGKILL: this ends
        return Shell(-9, out.decode(errors="replace"), err.decode(errors="replace"), hung=True)
    return Shell(proc.returncode, out.decode(errors="replace"), err.decode(errors="replace"))
