"""A pipeline process killed with SIGKILL mid-verify, then re-run: the same tables as an
uninterrupted run (finished, flushed outcomes are kept; the rest are redone)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pipeline.fixtures import build
from pipeline.test_runner import expand, snapshot
from toolex.store import Store

TESTS = Path(__file__).resolve().parents[1]

CHILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, {tests!r})
    import toolex.pipeline.stage as context
    context.FLUSH_ROWS = 1  # write every outcome at once, so some are stored before the kill
    from pipeline.helpers import overlap_search
    from toolex.judges.heuristic import HeuristicJudge
    from toolex.pipeline.runner import run_expansion
    from toolex.store import Store

    class Slow(HeuristicJudge):
        def verify(self, tasks):
            for outcome in super().verify(tasks):
                yield outcome
                print("verdict", flush=True)
                sys.stdin.read()  # the parent kills us here (it never writes)

    store = Store.open({db!r})
    run_expansion(store, "b", Slow(store), search=overlap_search)
""")


@pytest.mark.timeout(300, method="signal")  # its own deadline: it waits on a child
def test_sigkill_mid_verify_then_rerun(tmp_path: Path) -> None:
    ref = Store.open(tmp_path / "ref.duckdb")
    build(ref)
    expand(ref)
    expected = snapshot(ref)

    db = tmp_path / "killed.duckdb"
    with Store.open(db) as store:
        build(store)
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(tests=str(TESTS), db=str(db))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    assert child.stdout is not None  # stdout=PIPE
    assert child.stdout.readline().strip() == "verdict"
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=60)
    assert child.returncode == -signal.SIGKILL

    with Store.open(db) as store:
        # the child printed after its first verdict was handed over, stored and committed
        assert store.con.execute(
            "SELECT count(*) FROM verdicts WHERE judge = 'heuristic'"
        ).fetchall()[0] == (1,)
        assert store.con.execute("SELECT count(*) FROM subqueries").fetchall()[0] == (3,)
        assert store.con.execute("SELECT count(*) FROM combinations").fetchall()[0] == (0,)
        expand(store)
        assert snapshot(store) == expected
