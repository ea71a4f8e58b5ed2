"""`tui --snapshot` under a running writer: every copy is consistent (a table pair written in
one transaction always agrees, every table reads), taken while the writer holds the lock and
checkpoints; and the copy is removed however the TUI ends: return, exception, SIGTERM, SIGINT,
SIGHUP, and (swept at the next start) SIGKILL. TOOLEX_SNAPSHOTS sets how many copies are taken
under the writer: 25 by default keeps CI in its time budget; a release takes 250."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from attacks.tally import Tally
from toolex.cli.tui import sweep_stale_snapshots
from toolex.snapshot import SNAPSHOT_PREFIX, snapshot_copy
from toolex.store import Store

WRITER = """
import sys
from toolex.store import Store
store = Store.open(sys.argv[1])
store.con.execute("CREATE TABLE IF NOT EXISTS pair_a (i INTEGER, pad VARCHAR)")
store.con.execute("CREATE TABLE IF NOT EXISTS pair_b (i INTEGER, pad VARCHAR)")
store.con.execute("CHECKPOINT")
print("ready", flush=True)
i = 0
while True:  # until the test kills it
    i += 1
    with store.transaction():  # the two tables change together, or not at all
        for t in ("pair_a", "pair_b"):
            store.con.execute(
                f"INSERT INTO {t} SELECT ?, repeat('x', 200) FROM range(200)", [i]
            )
    if i % 7 == 0:
        store.con.execute("CHECKPOINT")
    print(i, flush=True)  # committed
"""


@pytest.mark.timeout(300, method="signal")  # its own deadline: it waits on a child
@pytest.mark.slow
def test_snapshots_under_a_checkpointing_writer_are_consistent(
    bench_db: str, tmp_path: Path
) -> None:
    """Each snapshot is taken after the writer reports a commit past what the previous copy
    held (its stdout), so every copy is taken while the writer runs, and each sees more than
    the last: progress observed, not waited for."""
    tally = Tally("snapshots under a running writer")
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, bench_db], stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None  # PIPE
    try:
        assert writer.stdout.readline().strip() == "ready"
        held: list[int] = []  # max(i) of each copy
        for n in range(int(os.environ.get("TOOLEX_SNAPSHOTS", "25"))):
            committed = 0
            while committed <= (held[-1] if held else 0):
                committed = int(writer.stdout.readline())
            folder = tmp_path / f"s{n}"
            folder.mkdir()
            try:
                copy = snapshot_copy(bench_db, folder)
            except Exception as exc:  # noqa: BLE001
                tally.record(f"snapshot {n}: {type(exc).__name__}: {exc}", "traceback")
                continue
            with Store.open(copy, read_only=True) as store:
                a, b = (
                    store.user_sql(
                        f"SELECT count(*) AS n, coalesce(max(i), 0) AS m FROM {t}"
                    ).to_pylist()[0]
                    for t in ("pair_a", "pair_b")
                )
                bad = store.unreadable_tables()
            ok = a == b and not bad and a["m"] >= committed and a["n"] == 200 * a["m"]
            held.append(a["m"])
            tally.record(f"snapshot {n}: {a} vs {b} {bad} after commit {committed}",
                         "correct result" if ok else "traceback")  # fmt: skip
        assert writer.poll() is None, "the writer ended before the snapshots did"
        assert held == sorted(set(held))  # each copy saw the writer's progress since the last
    finally:
        writer.kill()
        writer.wait(timeout=60)
    tally.check()


APP = """
import signal, sys
import toolex_tui.app as app

db, mode, before = sys.argv[1:4]
# What the signals did before the TUI started, as its terminal gave them: a test run under nohup
# or in the background of a script inherits SIGHUP or SIGINT ignored (issue 25).
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(sig, signal.SIG_IGN if before == "ignored" else signal.SIG_DFL)
if before != "ignored":
    signal.signal(signal.SIGINT, signal.default_int_handler)

def run(self):
    print("ready", flush=True)
    if mode == "raise":
        raise RuntimeError("the app failed")
    if mode == "wait":  # echo stdin until the test closes it (or a signal ends it first)
        for line in sys.stdin:
            print(line.strip(), flush=True)

app.ToolexApp.run = run
from toolex.cli import main
sys.argv = ["toolex", "tui", "--snapshot", "--db", db]
main()
"""
HANG_GUARD_S = 600  # only ends a child that failed to end; no assertion depends on it


def _copies(tmp: Path) -> list[Path]:
    return sorted(tmp.glob(f"{SNAPSHOT_PREFIX}*"))


def _tui(bench_db: str, tmp: Path, mode: str, before: str = "default") -> subprocess.Popen[str]:
    """`toolex tui --snapshot` in a child whose app prints "ready" once the copy is taken, then
    returns, raises, or echoes its stdin until it is closed."""
    return subprocess.Popen(
        [sys.executable, "-c", APP, bench_db, mode, before],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp)},
    )


@pytest.mark.timeout(300, method="signal")  # its own deadline: it waits on a child
@pytest.mark.parametrize(
    "how", ["return", "raise", "SIGTERM", "SIGINT", "SIGHUP", "SIGKILL then the next start"]
)
def test_the_snapshot_is_removed_however_the_tui_ends(
    bench_db: str, tmp_path: Path, how: str
) -> None:
    """The child's app waits for the test (its stdin) rather than a while, so the signal always
    lands while the TUI runs; before issue 25 it read its mode from the rewritten sys.argv, so
    it returned at once and the signal raced the normal exit."""
    pytest.importorskip("textual")
    tally = Tally("snapshot clean-up")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    mode = {"return": "return", "raise": "raise"}.get(how, "wait")
    proc = _tui(bench_db, tmp, mode)
    assert proc.stdin and proc.stdout and proc.stderr  # all three piped
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
    if how.startswith("SIG"):
        listed = sorted(p.name for p in tmp.iterdir())
        assert len(_copies(tmp)) == 1, listed  # the copy exists while the TUI runs
        sig = getattr(signal, how.split()[0])
        proc.send_signal(sig)
    _, err = proc.communicate(timeout=HANG_GUARD_S)
    expected = {"return": 0, "raise": 1, "SIGTERM": -15, "SIGINT": 130, "SIGHUP": -1}
    if how in expected:  # how it ended: each way was taken, not a normal exit racing it
        assert proc.returncode == expected[how], err
    if how == "raise":
        assert "the app failed" in err
    left = _copies(tmp)
    if how.startswith("SIGKILL"):
        assert proc.returncode == -9
        assert len(left) == 1  # nothing runs on SIGKILL ...
        assert sweep_stale_snapshots(tmp) == left  # ... the next start sweeps it
        left = _copies(tmp)
    tally.record(how, "correct result" if not left else "traceback")
    tally.check()


@pytest.mark.timeout(300, method="signal")  # its own deadline: it waits on a child
@pytest.mark.parametrize("how", ["SIGINT", "SIGHUP"])
def test_an_ignored_signal_removes_the_copy_and_stays_ignored(
    bench_db: str, tmp_path: Path, how: str
) -> None:
    """Started with the signal ignored (nohup, a script's background job), the TUI removes its
    copy when the signal comes and goes on as the ignored signal asks; it then ends normally."""
    pytest.importorskip("textual")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    proc = _tui(bench_db, tmp, "wait", before="ignored")
    assert proc.stdin and proc.stdout and proc.stderr  # all three piped
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
    assert len(_copies(tmp)) == 1
    proc.send_signal(getattr(signal, how))
    # sent after the signal, so the child handles the signal before it reads this line
    proc.stdin.write("after the signal\n")
    proc.stdin.flush()
    assert proc.stdout.readline().strip() == "after the signal"
    assert proc.poll() is None  # the ignored signal did not end the TUI ...
    assert _copies(tmp) == []  # ... but its copy is already gone
    _, err = proc.communicate(timeout=HANG_GUARD_S)
    assert proc.returncode == 0, err  # then a normal end
