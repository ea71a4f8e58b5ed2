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
import time
from pathlib import Path

import pytest

from attacks.tally import Tally
from toolex.cli.tui import sweep_stale_snapshots
from toolex.snapshot import SNAPSHOT_PREFIX, snapshot_copy
from toolex.store import Store

WRITER = """
import sys, time
from toolex.store import Store
store = Store.open(sys.argv[1])
store.con.execute("CREATE TABLE IF NOT EXISTS pair_a (i INTEGER, pad VARCHAR)")
store.con.execute("CREATE TABLE IF NOT EXISTS pair_b (i INTEGER, pad VARCHAR)")
store.con.execute("CHECKPOINT")
print("ready", flush=True)
i, stop = 0, time.monotonic() + float(sys.argv[2])
while time.monotonic() < stop:
    i += 1
    with store.transaction():  # the two tables change together, or not at all
        for t in ("pair_a", "pair_b"):
            store.con.execute(
                f"INSERT INTO {t} SELECT ?, repeat('x', 200) FROM range(200)", [i]
            )
    if i % 7 == 0:
        store.con.execute("CHECKPOINT")
print(i, flush=True)
"""


@pytest.mark.slow
def test_snapshots_under_a_checkpointing_writer_are_consistent(bench_db, tmp_path):
    tally = Tally("snapshots under a running writer")
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, bench_db, "600"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert writer.stdout.readline().strip() == "ready"
        seen = set()
        for n in range(int(os.environ.get("TOOLEX_SNAPSHOTS", "25"))):
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
            seen.add(a["n"])
            ok = a == b and not bad
            tally.record(f"snapshot {n}: {a} vs {b} {bad}", "correct result" if ok else "traceback")
            time.sleep(0.05)
        assert writer.poll() is None, "the writer ended before the snapshots did"
        assert len(seen) > 5  # the copies saw the writer's progress
    finally:
        writer.kill()
        writer.wait()
    tally.check()


APP = """
import sys, time
import toolex_tui.app as app

def run(self):
    mode = sys.argv[2]
    print("ready", flush=True)
    if mode == "raise":
        raise RuntimeError("the app failed")
    if mode == "wait":
        time.sleep(60)

app.ToolexApp.run = run
from toolex.cli import main
sys.argv = ["toolex", "tui", "--snapshot", "--db", sys.argv[1]]
main()
"""


def _copies(tmp: Path) -> list[Path]:
    return sorted(tmp.glob(f"{SNAPSHOT_PREFIX}*"))


@pytest.mark.parametrize(
    "how", ["return", "raise", "SIGTERM", "SIGINT", "SIGHUP", "SIGKILL then the next start"]
)
def test_the_snapshot_is_removed_however_the_tui_ends(bench_db, tmp_path, how):
    pytest.importorskip("textual")
    tally = Tally("snapshot clean-up")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    mode = {"return": "return", "raise": "raise"}.get(how, "wait")
    proc = subprocess.Popen(
        [sys.executable, "-c", APP, bench_db, mode],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp)},
    )
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
    if how.startswith("SIG"):
        listed = sorted(p.name for p in tmp.iterdir())
        assert len(_copies(tmp)) == 1, listed  # the copy exists while the TUI runs
        sig = getattr(signal, how.split()[0])
        proc.send_signal(sig)
    proc.wait(timeout=30)
    left = _copies(tmp)
    if how.startswith("SIGKILL"):
        assert len(left) == 1  # nothing runs on SIGKILL ...
        assert sweep_stale_snapshots(tmp) == left  # ... the next start sweeps it
        left = _copies(tmp)
    tally.record(how, "correct result" if not left else "traceback")
    tally.check()
