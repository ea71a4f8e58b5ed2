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
def test_a_side_file_that_is_not_a_file_is_refused_not_waited_on(bench_db, side, kind):
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


def test_the_store_itself_as_a_fifo_is_refused(tmp_path):
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
