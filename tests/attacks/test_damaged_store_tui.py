"""`toolex tui` on a damaged store (issue 27.9): one flipped byte in a table a page reads, in a
header, or anywhere; on a terminal the TUI ends in one line and a non-zero exit, whichever page
meets the damage. Damage is never called a lock, and a held lock is one, naming its holder."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from attacks.conftest import run_forked
from attacks.tally import Tally
from toolex.errors import StoreError
from toolex.resources import data_path
from toolex.store import LockedError, Store

BLOCK = 262144  # DuckDB's block size
HEADER = 3 * 4096  # DuckDB's main header and two database headers precede block 0
# the tables the TUI reads on the list, a query page and a tool page
TUI_TABLES = (
    "queries", "qrels", "items", "subqueries", "candidates", "verdicts", "combinations",
    "combination_items", "runs", "run_results", "expansions",
)  # fmt: skip


@pytest.fixture(scope="module")
def browsable(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled StableToolBench sample, expanded by the offline judge, with a BM25 run:
    every page of the TUI has rows to read."""
    path = tmp_path_factory.mktemp("browsable") / "b.duckdb"
    db = ["--db", str(path), "-q"]
    for args in (
        ["load", "stabletoolbench", str(data_path("sample")), "--name", "sample"],
        ["expand", "--benchmark", "sample", "--judge", "heuristic"],
        ["retrieve", "--benchmark", "sample", "--retriever", "bm25", "--run", "bm25"],
    ):
        ran = run_forked(*args, *db)
        assert ran.code == 0, (args, ran.err)
    with Store.open(path) as store:
        store.con.execute("CHECKPOINT")
    return path


def _flip(path: Path, offset: int) -> None:
    with path.open("r+b") as fh:
        fh.seek(offset)
        byte = fh.read(1)[0]
        fh.seek(offset)
        fh.write(bytes([byte ^ 0x01]))


def _first_block(path: Path, table: str) -> int:
    """The file offset of a byte inside the first block holding ``table``'s data."""
    with Store.open(path, read_only=True) as store:
        [(block,)] = store.con.execute(
            "SELECT min(block_id) FROM pragma_storage_info(?) WHERE block_id >= 0", [table]
        ).fetchall()
    return HEADER + int(block) * BLOCK + 64


def one_flipped_byte(healthy: Path) -> dict[str, int]:
    """Generated damages, one flipped byte each: in the first block of each table the TUI
    reads, in a database header, and at 6 seeded offsets anywhere in the file."""
    cases = {f"a byte of {t}": _first_block(healthy, t) for t in TUI_TABLES}
    cases |= {"a byte of the main header": 0, "a byte of database header 1": 4096 + 16}
    rng = random.Random(27)
    cases |= {f"byte {at}": at for at in sorted(rng.sample(range(healthy.stat().st_size), 6))}
    return cases


def _browse(db: Path) -> tuple[int, str, str]:
    """`toolex tui --db DB` on a terminal, as a user browses: the list, the first query's page,
    its first ground-truth tool's page, then ctrl+q; (exit code, what it printed after leaving
    the screen, everything it drew). It may end before any step: that is what is checked."""
    from tui.terminal import Terminal

    with Terminal("tui", "--db", str(db), size=(100, 30)) as term:
        # each mark is drawn only once the step's reads are done
        for mark, key in ((" of ", "enter"), ("· category ", "enter"), ("· kind ", "ctrl+q")):

            def shown(t: Terminal, m: str = mark) -> bool:
                return t.closed or m in t.text

            term.wait_for(shown, repr(mark))
            if term.closed:
                break
            term.press(key)
        code = term.wait_exit()
        return code, term.after_exit, term.text


@pytest.mark.slow
def test_the_tui_on_a_damaged_store_says_one_line_and_exits_non_zero(
    browsable: Path, tmp_path: Path
) -> None:
    tally = Tally("damaged stores: tui")
    ended = 0
    for case, offset in one_flipped_byte(browsable).items():
        db = tmp_path / "t.duckdb"
        shutil.copyfile(browsable, db)
        _flip(db, offset)
        code, after, drawn = _browse(db)
        printed = [line for line in after.splitlines() if line.strip()]
        if "Traceback" in drawn or code not in (0, 2):
            tally.record(case, "traceback")
            tally.failures[-1] += f" (exit {code})\n{after[-1500:]}"
            continue
        if code == 0:  # the damage was in nothing these pages read
            assert printed == [], (case, printed)
            tally.record(case, "correct result")
            continue
        ended += 1
        tally.record(case, "clean error")
        assert len(printed) == 1 and printed[0].startswith("error: the store "), (case, after)
        assert "is damaged or unreadable" in printed[0] and "locked" not in printed[0], case
    tally.check()
    # the flips in the tables' own blocks are met by these pages: the test saw real failures
    assert ended >= len(TUI_TABLES) // 2, tally.counts


def test_a_damaged_store_is_never_called_locked(browsable: Path, tmp_path: Path) -> None:
    """DuckDB's checksum error says "... in block at location 0": a message holding "lock"
    that is no lock (issue 27.9: 5 of 39 damaged files were called locked). The path may hold
    the word too."""
    folder = tmp_path / "locks-and-blocks"
    folder.mkdir()
    db = folder / "lock.duckdb"
    shutil.copyfile(browsable, db)
    _flip(db, 0)
    for read_only in (True, False):
        with pytest.raises(StoreError) as info:
            Store.open(db, read_only=read_only)
        assert not isinstance(info.value, LockedError)
        assert "block at location 0" in str(info.value) and "is damaged" in str(info.value)
    from toolex_tui.data import StoreLockedError, open_browse_store

    for writable in (False, True):
        with pytest.raises(StoreError) as info:
            open_browse_store(db, writable=writable)
        assert not isinstance(info.value, StoreLockedError), str(info.value)


_HOLD = (
    "import duckdb, sys; con = duckdb.connect(sys.argv[1]); print('open', flush=True); "
    "sys.stdin.read()"
)


@pytest.mark.timeout(300, method="signal")  # its own deadline: it waits on a child
def test_a_held_lock_is_a_lock_and_names_its_holder(browsable: Path, tmp_path: Path) -> None:
    db = tmp_path / "held.duckdb"
    shutil.copyfile(browsable, db)
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        for read_only in (True, False):
            with pytest.raises(LockedError) as info:
                Store.open(db, read_only=read_only)
            assert info.value.holder.startswith(f"PID {holder.pid} ")
            assert "is locked by" in str(info.value) and "damaged" not in str(info.value)
        ran = run_forked("tui", "--db", str(db))  # no terminal needed: it ends before drawing
        assert ran.outcome == "clean error" and ran.code == 2, ran.err
        assert ran.err.count("\n") == 1 and f"locked by PID {holder.pid}" in ran.err
    finally:
        holder.kill()
        holder.wait(timeout=300)  # after SIGKILL: it ends
