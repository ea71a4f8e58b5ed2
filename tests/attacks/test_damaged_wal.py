"""Damaged write-ahead logs (issue 27, point 7): a writer killed before its checkpoint leaves ten
committed loads in the log; the log is then cut at eleven points or has one byte flipped at
eleven. DuckDB replays what comes before the damage and drops the rest without a word (10 of 22
such damages lost committed transactions, and toolex printed numbers that lacked them). Every
command now either sees every committed load or ends in one clear line that says writes were
lost (or that the store is damaged); none prints a number from a store missing commits, and a
writer never adds to one."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from processes import DEADLINE_S

from attacks.conftest import PLAIN, run_forked
from attacks.tally import Tally
from toolex.store import Store
from toolex.store.commits import read_record, record_path

LOADS = 10  # committed by the killed writer, each its own transaction


@pytest.fixture(scope="module")
def crashed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding one benchmark, then ten more loaded by a writer killed before it
    checkpointed: the ten live only in the log (and in the commit record beside the store)."""
    path = tmp_path_factory.mktemp("crashed") / "w.duckdb"
    from toolex.loaders import load_plain

    with Store.open(path) as store:
        load_plain(store, *(PLAIN / f"{n}.jsonl" for n in ("items", "queries", "qrels")),
                   name="base")  # fmt: skip
    code = (
        "import os\n"
        "from pathlib import Path\n"
        "from toolex.loaders import load_plain\n"
        "from toolex.store import Store\n"
        f"plain = Path({str(PLAIN)!r})\n"
        f"store = Store.open({str(path)!r})\n"
        "store.con.execute(\"SET checkpoint_threshold = '1TB'\")\n"
        f"for i in range({LOADS}):\n"
        "    load_plain(store, plain / 'items.jsonl', plain / 'queries.jsonl',\n"
        "               plain / 'qrels.jsonl', name=f'late{i}')\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=DEADLINE_S)
    assert Path(f"{path}.wal").stat().st_size > 0
    return path


def _cut(fraction: float) -> Callable[[Path], None]:
    def damage(wal: Path) -> None:
        with wal.open("r+b") as fh:
            fh.truncate(int(wal.stat().st_size * fraction))

    return damage


def _flip(seed: int) -> Callable[[Path], None]:
    def damage(wal: Path) -> None:
        at = random.Random(seed).randrange(wal.stat().st_size)
        with wal.open("r+b") as fh:
            fh.seek(at)
            byte = fh.read(1)[0]
            fh.seek(at)
            fh.write(bytes([byte ^ 0xFF]))

    return damage


DAMAGE = {f"log cut at {f:.0%}": _cut(f) for f in (0.0, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.7,
                                                    0.8, 0.9, 0.99)}  # fmt: skip
DAMAGE |= {f"log byte flipped (seed {n})": _flip(n) for n in range(11)}


def _copy(crashed: Path, to: Path) -> Path:
    db = to / crashed.name
    for suffix in ("", ".wal", ".commits"):
        if Path(f"{crashed}{suffix}").exists():
            shutil.copyfile(f"{crashed}{suffix}", f"{db}{suffix}")
    return db


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_no_command_prints_a_number_from_a_store_that_lost_commits(
    crashed: Path, tmp_path: Path, kind: str
) -> None:
    tally = Tally("damaged write-ahead logs")
    db = _copy(crashed, tmp_path)
    DAMAGE[kind](Path(f"{db}.wal"))
    count = ["sql", "SELECT count(*) AS n FROM benchmarks", "--format", "csv", "--db", str(db)]
    for name, args in {
        "sql (read-only)": count,
        "check": ["check", "--db", str(db)],
        "info": ["info", "--db", str(db)],
        "load (a writer)": [
            "load", "plain", "--items", str(PLAIN / "items.jsonl"), "--queries",
            str(PLAIN / "queries.jsonl"), "--qrels", str(PLAIN / "qrels.jsonl"), "--name", "new",
            "--db", str(db),
        ],
        "sql again": count,
    }.items():  # fmt: skip
        ran = run_forked(*args)
        tally.record(f"{kind} / {name}", ran.outcome)
        if ran.outcome == "clean error":
            said = ran.err.strip().splitlines()[-1]
            assert said.startswith("error: the store"), (kind, name, ran.err)
            assert "lost" in said or "damaged" in said, (kind, name, said)
        elif name.startswith("sql"):
            shown = int(ran.out.split()[-1])
            if shown != 1 + LOADS + (name == "sql again"):
                tally.failures.append(f"{kind} / {name}: printed {shown} benchmarks")
    tally.check()


def test_the_lost_writes_are_named_and_deleting_the_record_accepts_the_store(
    crashed: Path, tmp_path: Path
) -> None:
    db = _copy(crashed, tmp_path)
    _cut(0.5)(Path(f"{db}.wal"))
    ran = run_forked("sql", "SELECT count(*) FROM benchmarks", "--db", str(db))
    assert ran.code == 2 and ran.out == ""
    said = ran.err.strip()
    assert said.startswith(f"error: the store {db} lost ") and "committed write(s)" in said
    assert f"delete {record_path(str(db))}" in said and len(said.splitlines()) == 1
    record_path(str(db)).unlink()  # the user accepts the store as it now is
    ran = run_forked("sql", "SELECT count(*) AS n FROM benchmarks", "--db", str(db))
    assert ran.code == 0 and 1 <= int(ran.out.split()[-1]) < 1 + LOADS


def test_an_undamaged_log_replays_every_commit_and_passes(crashed: Path, tmp_path: Path) -> None:
    db = _copy(crashed, tmp_path)
    with Store.open(db) as store:  # replays the log, then checkpoints it on close
        assert store.scalar("store/51_commit_count.sql") is not None
        assert len(store.rows("store/10_benchmarks.sql")) == 1 + LOADS
    ran = run_forked("check", "--db", str(db))
    assert ran.code == 0, ran.err


def test_a_new_store_at_the_same_path_is_not_taken_for_the_old_one(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    with Store.open(db) as store:
        for _ in range(3):
            with store.transaction():
                store.execute("store/50_count_commit.sql")  # any write
        old = store.commit_count()
    assert read_record(str(db)) == (old.store_id, old.commits) and old.commits > 0
    db.unlink()
    with Store.open(db) as store:  # a fresh store: its id differs from the record's
        new = store.commit_count()
    assert new.store_id != old.store_id and read_record(str(db)) == (new.store_id, 0)
    with Store.open(db, read_only=True):
        pass
