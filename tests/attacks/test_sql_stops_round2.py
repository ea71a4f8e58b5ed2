"""`toolex sql --timeout` and Ctrl-C, round two (issue 37, point 6): a time limit that is not one
(inf, 1e308, NaN, negative) is a clear error or a defined meaning, never a traceback; and a
statement DuckDB cannot interrupt (one scalar call over one huge value: RE2's submatch engine
over 60 million characters) is stopped all the same, within a total deadline (the limit, then
2 s of interrupts), with exit 124 for the limit and 130 for Ctrl-C.

No test measures time: the statement cannot end on its own before the test's deadline on any
machine (minutes of RE2's NFA), so only the stop can end it; what is asserted is the exit code
and the message saying DuckDB was left running."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from attacks.conftest import Ran, digest
from attacks.entry import DEADLINE, shell
from attacks.tally import Tally

# RE2 keeps submatches with its NFA here: minutes over 6e7 characters, in 60 MB, and DuckDB
# checks for an interrupt only between chunks, never inside this one value.
UNINTERRUPTIBLE = (
    "SELECT length(regexp_replace(repeat('ab', 30000000), '(((a|b)*)(a|b))+', '\\2\\3', 'g')) AS n"
)


@pytest.mark.parametrize(
    ("value", "meaning"),
    [
        ("inf", "no limit"),
        ("1e308", "refused"),
        ("nan", "refused"),
        ("-1", "refused"),
        ("0", "refused"),
        ("-inf", "refused"),
        ("1e-300", "a limit"),
    ],
)
def test_a_timeout_that_is_not_a_number_of_seconds(
    bench_db: str, toolex: Callable[..., Ran], value: str, meaning: str
) -> None:
    tally = Tally("sql round 2: timeouts")
    ran = toolex("sql", "SELECT 1 AS one", "--timeout", value, "--format", "csv", "--db", bench_db)
    tally.record(f"--timeout {value}", ran.outcome)
    tally.check()
    if meaning == "no limit":
        assert ran.code == 0 and ran.out == "one\n1\n", ran.err
    elif meaning == "refused":
        assert ran.code == 2 and "--timeout" in ran.err and "inf" in ran.err, ran.err
        assert "Traceback" not in ran.err
    else:  # a limit so short it passes at once: stopped, or done first
        assert ran.code in (0, 124) and "Traceback" not in ran.err, ran.err


def test_a_timeout_stops_a_statement_duckdb_cannot_interrupt(bench_db: str, tmp_path: Path) -> None:
    """Through the real entry point: exit 124 with one line saying so, no output file, the
    store unchanged (a --write statement is never committed)."""
    before = digest(bench_db)
    out = tmp_path / "never.csv"
    ran = shell(
        "sql", UNINTERRUPTIBLE, "--timeout", "0.5", "--format", "csv", "--out", str(out),
        "--db", bench_db,
    )  # fmt: skip
    assert not ran.hung and ran.code == 124, ran.err
    assert ran.one_line_error and "time limit of 0.5 s" in ran.err and "left it" in ran.err
    assert not out.exists() and not list(tmp_path.glob(".never.csv*"))
    ran = shell(
        "sql", f"CREATE TABLE t AS {UNINTERRUPTIBLE}", "--write", "--timeout", "0.5",
        "--db", bench_db,
    )  # fmt: skip
    assert not ran.hung and ran.code == 124 and "left it" in ran.err, ran.err
    assert digest(bench_db) == before
    assert shell("info", "--db", bench_db).code == 0  # the store opens as it was


# Ctrl-C, as the terminal sends it: SIGINT to the process, sent by the statement's own thread
# as DuckDB is handed the statement (so it cannot arrive before the statement runs).
CTRL_C = """
import os, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
from toolex.store.connection import Connection
started = Connection.user_reader
def press_ctrl_c(self, *args, **kwargs):
    os.kill(os.getpid(), signal.SIGINT)
    return started(self, *args, **kwargs)
Connection.user_reader = press_ctrl_c
sys.argv = ["toolex", *sys.argv[1:]]
from toolex.cli import main
main()
"""


def test_ctrl_c_stops_a_statement_duckdb_cannot_interrupt(bench_db: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", CTRL_C, "sql", UNINTERRUPTIBLE, "--db", bench_db],
        capture_output=True,
        text=True,
        timeout=DEADLINE,  # a bound on a hang, not a measurement
        env={**os.environ, "COLUMNS": "80"},
    )
    assert proc.returncode == 130, proc.stderr
    assert "interrupted (Ctrl-C)" in proc.stderr and "left it" in proc.stderr
    assert proc.stdout == "" and "Traceback" not in proc.stderr


def test_the_library_refuses_a_timeout_that_is_none(bench_db: str) -> None:
    from toolex.errors import ToolexError
    from toolex.sqlaccess import check_timeout, run_sql

    handler = signal.getsignal(signal.SIGINT)
    assert check_timeout(float("inf")) is None and check_timeout(None) is None
    assert check_timeout(3.0) == 3.0
    for bad in (float("nan"), -1.0, 0.0, 1e308):
        with pytest.raises(ToolexError, match="--timeout"):
            run_sql(bench_db, "SELECT 1", timeout=bad)
    assert json.loads(json.dumps(run_sql(bench_db, "SELECT 1 AS a", timeout=1e9).to_pylist())) == [
        {"a": 1}
    ]
    assert signal.getsignal(signal.SIGINT) is handler  # run_sql leaves Ctrl-C as it found it
