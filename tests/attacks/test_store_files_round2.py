"""A store's side files that are not files (issue 37, point 9): ``<store>.commits`` or
``<store>.wal`` replaced by a FIFO hung every command, readers included (opening a FIFO waits for
a writer). A FIFO, a directory, a device, a link to one or a link to nothing in either place is
now refused at once by every command, readers and writers alike, with one line naming the file
and what it is; the hostile file and the store are left as they were. Each attempt runs in a
forked child with a total deadline (tests/attacks/bounded.py), so a hang is a failure, not a
hung test run."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from attacks.bounded import run_bounded
from attacks.conftest import PLAIN, digest
from attacks.tally import Tally
from toolex.loaders import load_plain
from toolex.store import Store


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _directory(path: Path) -> None:
    path.mkdir()


def _link_to(target: Callable[[Path], None] | str) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        if isinstance(target, str):
            os.symlink(target, path)
            return
        real = path.with_name(path.name + ".target")
        target(real)
        os.symlink(real, path)

    return make


HOSTILE = {
    "a FIFO": (_fifo, "a FIFO (named pipe)"),
    "a directory": (_directory, "a directory"),
    "a link to /dev/zero": (_link_to("/dev/zero"), "a symbolic link to a character device"),
    "a link to a FIFO": (_link_to(_fifo), "a symbolic link to a FIFO (named pipe)"),
    "a link to a directory": (_link_to(_directory), "a symbolic link to a directory"),
    "a link to nothing": (_link_to("/nonexistent/toolex-attack"), "a symbolic link to nothing"),
}


def _commands(db: str) -> dict[str, list[str]]:
    return {
        "info": ["info", "--db", db],
        "sql (read-only)": ["sql", "SELECT count(*) FROM benchmarks", "--db", db],
        "check": ["check", "--db", db],
        "stats": ["stats", "--benchmark", "plain", "--db", db],
        "load (a writer)": [
            "load", "plain", "--items", str(PLAIN / "items.jsonl"), "--queries",
            str(PLAIN / "queries.jsonl"), "--qrels", str(PLAIN / "qrels.jsonl"), "--name", "new",
            "--db", db,
        ],
    }  # fmt: skip


def _remove(path: Path) -> None:
    if path.is_symlink() or not path.is_dir():
        path.unlink()
    else:
        shutil.rmtree(path)


@pytest.mark.parametrize("side", [".commits", ".wal"])
@pytest.mark.parametrize("kind", list(HOSTILE))
def test_a_side_file_that_is_not_a_file_is_refused_not_waited_on(
    bench_db: str, side: str, kind: str
) -> None:
    tally = Tally("store side files that are not files")
    make, named = HOSTILE[kind]
    before = digest(bench_db)
    hostile = Path(bench_db + side)
    if hostile.exists() or hostile.is_symlink():
        _remove(hostile)
    make(hostile)
    was = os.lstat(hostile)
    for name, args in _commands(bench_db).items():
        ran = run_bounded(*args)
        tally.record(f"{side} is {kind} / {name}", ran.outcome)
        assert ran.outcome == "clean error", (kind, name, ran.outcome, ran.err[-600:])
        assert ran.said == (
            f"error: {hostile} is {named}, not a regular file: "
            + ("toolex keeps the count of the store's committed writes" if side == ".commits"
               else "DuckDB keeps the store's write-ahead log")
            + " there, and reading anything else could wait forever. Move it aside or remove "
            f"it (`rm {hostile}`); the store itself is untouched"
        ), ran.err  # fmt: skip
        now = os.lstat(hostile)
        assert (now.st_mode, now.st_ino) == (was.st_mode, was.st_ino)  # not replaced
    _remove(hostile)
    for target in hostile.parent.glob(hostile.name + ".target"):
        _remove(target)
    tally.record(f"{side} is {kind}: every table", "correct result",
                 changed=digest(bench_db) != before)  # fmt: skip
    tally.check()


def test_the_store_itself_as_a_fifo_is_refused(tmp_path: Path) -> None:
    tally = Tally("store side files that are not files")
    db = tmp_path / "pipe.duckdb"
    os.mkfifo(db)
    for name, args in _commands(str(db)).items():
        ran = run_bounded(*args)
        tally.record(f"the store is a FIFO / {name}", ran.outcome)
        assert ran.outcome == "clean error", (name, ran.err[-400:])
        assert ran.said == (
            f"error: the store {db} is a FIFO (named pipe), not a file; name a .duckdb file"
        ), ran.err
    tally.check()


# -- a writer stopped between a commit and its record (issue 37.11) -----------------------------


def _raw_digest(db: Path) -> dict[str, tuple[str, ...]]:
    """Every table's rows, read by DuckDB itself (toolex refuses to open these stores)."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()]
        return {t: tuple(sorted(map(str, con.execute(f'FROM "{t}"').fetchall()))) for t in tables}
    finally:
        con.close()


def _stopped_writer(tmp: Path, where: str) -> Path:
    """A store holding benchmark ``base``, then a writer loading ``early`` and ``late`` that
    stops dead at ``where``: ``"after the commit"`` of ``late`` (committed to the log, not
    recorded; ``early`` checkpointed into the file before it) or ``"before the commit"``
    (marked under way, the COMMIT never ran; ``early`` committed before it, in the log)."""
    import subprocess
    import sys

    db = tmp / "w.duckdb"
    with Store.open(db) as store:
        load_plain(store, *(PLAIN / f"{n}.jsonl" for n in ("items", "queries", "qrels")),
                   name="base")  # fmt: skip
    hook = "end" if where == "after the commit" else "begin"
    code = f"""
import os
from pathlib import Path
from toolex.loaders import load_plain
from toolex.store import Store, commits
files = [Path({str(PLAIN)!r}) / f"{{n}}.jsonl" for n in ("items", "queries", "qrels")]
store = Store.open({str(db)!r})
store.con.execute("SET checkpoint_threshold = '1TB'")
load_plain(store, *files, name="early")
if {hook == "end"}:
    store.con.execute("CHECKPOINT")  # the log then holds 'late' alone
real = commits.{hook}
def stop(*args):
    if {hook == "begin"}:
        real(*args)  # marked under way; the COMMIT never runs
    os._exit(0)
commits.{hook} = stop
load_plain(store, *files, name="late")
"""
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300)
    assert Path(f"{db}.wal").stat().st_size > 0
    return db


def _benchmarks(db: Path) -> list[str]:
    ran = run_bounded("sql", "SELECT benchmark FROM benchmarks ORDER BY 1", "--format", "csv",
                      "--db", str(db))  # fmt: skip
    assert ran.outcome == "correct result", ran.err
    return ran.out.split()[1:]


def test_a_commit_never_recorded_whose_log_is_gone_is_refused(tmp_path: Path) -> None:
    tally = Tally("a writer stopped between a commit and its record")
    db = _stopped_writer(tmp_path, "after the commit")
    Path(f"{db}.wal").unlink()  # the log, and with it the commit of 'late', is gone
    record = Path(f"{db}.commits")
    before, kept = _raw_digest(db), record.read_bytes()
    assert b'"writing": 1' in kept
    for name, args in {
        **_commands(str(db)),
        "eval": ["eval", "--run", "any", "--db", str(db)],
    }.items():
        ran = run_bounded(*args)
        tally.record(f"log gone / {name}", ran.outcome)
        assert ran.outcome == "clean error", (name, ran.err[-600:])
        assert ran.said.startswith(
            f"error: the store {db} may lack its last committed write: a writer stopped between "
            f"committing it and recording it ({record} marks a commit under way after the "
        ), ran.said
        assert f"Put {db}.wal back if you have it; else delete {record}" in ran.said
        same = _raw_digest(db) == before and record.read_bytes() == kept
        tally.record(f"log gone / {name}: every table", "correct result", changed=not same)
    record.unlink()  # as the message says: accept the store as it now is
    assert _benchmarks(db) == ["base", "early"]  # 'late' was lost with the log
    tally.check()


def test_with_its_log_a_stopped_writers_store_is_whole_and_the_mark_is_cleared(
    tmp_path: Path,
) -> None:
    tally = Tally("a writer stopped between a commit and its record")
    for where, expected in (
        ("after the commit", ["base", "early", "late"]),  # the log held the commit
        ("before the commit", ["base", "early"]),  # it never ran: nothing was lost
    ):
        folder = tmp_path / where.replace(" ", "-")
        folder.mkdir()
        db = _stopped_writer(folder, where)
        shown = _benchmarks(db)
        tally.record(f"log kept, stopped {where}: sql", "correct result",
                     wrong=shown != expected)  # fmt: skip
        assert shown == expected, (where, shown)
        ran = run_bounded(*_commands(str(db))["load (a writer)"])
        tally.record(f"log kept, stopped {where}: load", ran.outcome)
        assert ran.outcome == "correct result", ran.err[-400:]
        assert b"writing" not in Path(f"{db}.commits").read_bytes()  # repaired by the writer
    tally.check()
