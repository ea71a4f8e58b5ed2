"""Damaged stores: a truncated, scribbled, zeroed or replaced DuckDB file, a garbage or cut
write-ahead log, a folder in the store's place, and a disk that fills at commit. Every command
ends in a message naming the file, what is damaged and how to recover (or in a correct result
on what is still readable), never a traceback or a crash; a writer never "succeeds" on a
truncated file; `toolex check` names the unreadable tables; a failed commit changes nothing.
`toolex tui` on a damaged store, and damage told from a lock: test_damaged_store_tui.py."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from processes import DEADLINE_S

from attacks.conftest import PLAIN, digest, run_forked
from attacks.tally import Tally
from toolex.store import Store

BLOCK = 262144


@pytest.fixture(scope="module")
def healthy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding the plain benchmark and a ballast table spanning several blocks."""
    path = tmp_path_factory.mktemp("healthy") / "h.duckdb"
    with Store.open(path) as store:
        from toolex.loaders import load_plain

        load_plain(
            store,
            PLAIN / "items.jsonl",
            PLAIN / "queries.jsonl",
            PLAIN / "qrels.jsonl",
            name="plain",
        )
        store.con.execute(
            "CREATE TABLE ballast AS SELECT range AS i, md5(range::VARCHAR) AS s FROM range(300000)"
        )
        store.con.execute("CHECKPOINT")
    return path


def _cut(fraction: float) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        with path.open("r+b") as fh:
            fh.truncate(int(path.stat().st_size * fraction))

    return damage


def _scribble(offset: int | str, size: int = 4096) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        at = (
            offset
            if isinstance(offset, int)
            else {"middle": path.stat().st_size // 2, "last": path.stat().st_size - BLOCK + 100}[
                offset
            ]
        )
        with path.open("r+b") as fh:
            fh.seek(int(at))
            fh.write(random.Random(7).randbytes(size))

    return damage


def _zero_block(path: Path) -> None:
    with path.open("r+b") as fh:
        fh.seek(3 * 4096 + 2 * BLOCK)
        fh.write(bytes(BLOCK))


def _garbage(path: Path) -> None:
    path.write_bytes(random.Random(3).randbytes(path.stat().st_size))


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _folder(path: Path) -> None:
    path.unlink()
    path.mkdir()


def _garbage_wal(path: Path) -> None:
    Path(f"{path}.wal").write_bytes(random.Random(5).randbytes(10000))


def _writer_killed(path: Path) -> None:
    """A writer killed before its checkpoint: the store plus an unreplayed log."""
    code = (
        "import os, duckdb\n"
        f"c = duckdb.connect({str(path)!r})\n"
        "c.execute(\"SET checkpoint_threshold = '1TB'\")\n"
        "c.execute('CREATE TABLE late AS SELECT range AS i FROM range(50000)')\n"
        "c.execute('DELETE FROM ballast WHERE i < 1000')\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=DEADLINE_S)


def _cut_wal(path: Path) -> None:
    _writer_killed(path)
    wal = Path(f"{path}.wal")
    with wal.open("r+b") as fh:
        fh.truncate(wal.stat().st_size // 2)


DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated to 0 bytes": _cut(0.0),
    "truncated to 1%": _cut(0.01),
    "truncated to 25%": _cut(0.25),
    "truncated to half": _cut(0.5),
    "truncated to 90%": _cut(0.9),
    "scribbled main header": _scribble(0),
    "scribbled database header 1": _scribble(4096),
    "scribbled database header 2": _scribble(8192),
    "scribbled first block": _scribble(3 * 4096 + 16),
    "scribbled middle block": _scribble("middle", 64 * 1024),
    "scribbled last block": _scribble("last", 64 * 1024),
    "a zeroed block": _zero_block,
    "random bytes throughout": _garbage,
    "empty file": _empty,
    "a folder in its place": _folder,
    "garbage write-ahead log": _garbage_wal,
    "a writer killed mid-log": _writer_killed,
    "write-ahead log cut in half": _cut_wal,
}


def commands(db: str, out: Path) -> dict[str, list[str]]:
    return {
        "check": ["check", "--db", db],
        "sql items": ["sql", "FROM items", "--db", db, "--format", "json"],
        "sql ballast": ["sql", "SELECT count(*), sum(i) FROM ballast", "--db", db],
        "load (a writer)": [
            "load", "plain", "--items", str(PLAIN / "items.jsonl"), "--queries",
            str(PLAIN / "queries.jsonl"), "--qrels", str(PLAIN / "qrels.jsonl"), "--name", "p2",
            "--db", db,
        ],
        "expand --dry-run": ["expand", "--benchmark", "plain", "--dry-run", "--db", db],
        "export qrels": ["export", "qrels", "--out", str(out / "q.parquet"), "--db", db],
        "eval": ["eval", "--all-runs", "--db", db],
        "info": ["info", "--db", db],
    }  # fmt: skip


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_every_command_on_a_damaged_store_ends_in_a_message(
    healthy: Path, tmp_path: Path, kind: str
) -> None:
    db = tmp_path / "d.duckdb"
    shutil.copyfile(healthy, db)
    DAMAGE[kind](db)
    tally = Tally("damaged stores")
    for name, args in commands(str(db), tmp_path).items():
        size = db.stat().st_size if db.is_file() else None
        ran = run_forked(*args)
        case = f"{kind} / {name}"
        tally.record(case, ran.outcome)
        if ran.outcome == "traceback":
            tally.failures[-1] += f"\n{ran.err[-1500:]}"
        if ran.outcome == "clean error":
            said = ran.err.startswith("error: ") or "Error:" in ran.err
            assert said or (name == "check" and "FAIL store_readable" in ran.err), (case, ran.err)
            # one line says it (issue 27.9), whatever progress lines came before
            errors = [line for line in ran.err.splitlines() if line.startswith("error: ")]
            assert len(errors) <= 1 and ran.err.endswith(f"{errors[0]}\n" if errors else ""), (
                case,
                ran.err,
            )
        truncated = kind.startswith("truncated") and kind != "truncated to 0 bytes"
        if name == "load (a writer)" and truncated:
            assert ran.outcome == "clean error", (case, ran.err)
            assert "truncated" in ran.err or "damaged" in ran.err, (case, ran.err)
            assert db.stat().st_size == size  # refused before writing anything
    tally.check()


def test_check_names_the_unreadable_tables(healthy: Path, tmp_path: Path) -> None:
    db = tmp_path / "d.duckdb"
    shutil.copyfile(healthy, db)
    _cut(0.9)(db)  # the catalog survives; the ballast's last blocks do not
    ran = run_forked("check", "--db", str(db), "--format", "json")
    assert ran.code == 1 and "store_readable" in ran.out
    with Store.open(db, read_only=True) as store:
        bad = dict(store.unreadable_tables())
    assert bad and all("Could not read" in why for why in bad.values())
    ran = run_forked("check", "--db", str(healthy))
    assert ran.code == 0, ran.err


def test_a_full_disk_at_commit_changes_nothing(healthy: Path, tmp_path: Path) -> None:
    """RLIMIT_FSIZE stands in for a full disk: the commit's writes fail with EFBIG."""
    tally = Tally("full disk at commit")
    db = tmp_path / "f.duckdb"
    shutil.copyfile(healthy, db)
    before = digest(db)
    big = tmp_path / "items.jsonl"
    with big.open("w") as fh:
        for i in range(20000):
            fh.write(f'{{"id": "t{i}", "text": "tool number {i} {"x" * 300}"}}\n')
    queries, qrels = tmp_path / "q.jsonl", tmp_path / "r.jsonl"
    queries.write_text('{"id": "q", "text": "find a tool"}\n')
    qrels.write_text('{"query_id": "q", "item_id": "t1"}\n')
    args = ["load", "plain", "--items", str(big), "--queries", str(queries), "--qrels", str(qrels)]
    ran = run_forked(*args, "--name", "big", "--db", str(db), file_limit=db.stat().st_size + 4096)
    tally.record("load under a full disk", ran.outcome)
    assert ran.outcome == "clean error", ran.err
    assert "could not be written" in ran.err and "rolled back" in ran.err, ran.err
    assert digest(db) == before
    ran = run_forked(*args, "--name", "big", "--db", str(db))  # space again: it loads
    tally.record("the same load with space", ran.outcome)
    assert ran.code == 0, ran.err
    tally.check()


def test_no_damage_goes_unnoticed_by_check(healthy: Path, tmp_path: Path) -> None:
    """Each damage either stops `check` with a message or makes it fail; only damage that
    touches no live block (DuckDB keeps free blocks) may pass."""
    for kind, damage in DAMAGE.items():
        if "log" in kind:
            continue
        db = tmp_path / f"{abs(hash(kind))}.duckdb"
        shutil.copyfile(healthy, db)
        damage(db)
        ran = run_forked("check", "--db", str(db))
        assert ran.outcome != "traceback", (kind, ran.err)
        if ran.code == 0:
            assert kind.startswith("scribbled") or kind == "a zeroed block", (kind, ran.err)
        if db.is_dir():
            shutil.rmtree(db)
        else:
            os.unlink(db)
