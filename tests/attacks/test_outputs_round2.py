"""Outputs, round two (issue 37, points 1-3 and 14): `--out` is checked against every name the
store is known by (as typed, resolved through a symbolic link, and the same file under another
name: a hard link), for every command that writes a file or a folder; an output path that is
not a regular file or a new one (a device, a FIFO, a socket, a folder) is refused; `export
toolbench --out` never writes into the `--source` it reads; and a write is done only when it is
flushed, synced and renamed: a full disk at any of those is a non-zero exit with one located
error, never "wrote N rows", and leaves no temporary file."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import socket
import stat
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from attacks.conftest import Ran, digest
from attacks.entry import shell
from attacks.tally import Tally
from attacks.test_outputs import commands


@pytest.fixture
def db(bench_db: str, toolex: Callable[..., Ran]) -> str:
    """The plain benchmark with a BM25 run (every export has something to write), reachable as
    ``s.duckdb``, ``lnk.duckdb`` (a symbolic link) and ``hard.duckdb`` (a hard link)."""
    ran = toolex(
        "retrieve", "--benchmark", "plain", "--retriever", "bm25", "--run", "bm25", "--db", bench_db
    )
    assert ran.code == 0, ran.err
    folder = Path(bench_db).parent
    (folder / "lnk.duckdb").symlink_to(bench_db)
    os.link(bench_db, folder / "hard.duckdb")
    return bench_db


def tree(folder: Path) -> dict[str, str]:
    """Every entry under ``folder``: its kind and, for a file, a hash of its bytes."""
    out = {}
    for path in sorted(folder.rglob("*")):
        mode = path.lstat().st_mode
        if stat.S_ISREG(mode):
            out[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            out[str(path)] = stat.filemode(mode)
    return out


# (--db as given, --out): the log, commit record, vector and spill folders of each name
NAMED_AFTER_THE_STORE = [
    ("lnk.duckdb", "s.duckdb.commits"),
    ("lnk.duckdb", "lnk.duckdb.commits"),
    ("lnk.duckdb", "hard.duckdb.lance/x.parquet"),
    ("hard.duckdb", "s.duckdb.commits"),
    ("hard.duckdb", "hard.duckdb.wal"),
    ("hard.duckdb", "lnk.duckdb.tmp/x.csv"),
    ("s.duckdb", "hard.duckdb.commits"),
    ("s.duckdb", "lnk.duckdb.lance/sub/x.json"),
]


def test_every_name_of_the_store_guards_its_files(
    db: str, toolex: Callable[..., Ran], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = Path(db).parent
    monkeypatch.chdir(folder)
    toolex("info", "--db", "lnk.duckdb")  # the link's own commit record exists too
    tally = Tally("outputs round 2: names of the store")
    # tree() hashes the store, its log and its commit record byte for byte: a store whose
    # bytes are as they were has its rows as they were, without digest()'s 30 table reads
    files = tree(folder)
    for given, out in NAMED_AFTER_THE_STORE:
        for args in [*commands(out), ("report", "--out", out)]:
            ran = toolex(*args, "--db", given)
            case = f"--db {given} {' '.join(args[:2])} --out {out}"
            changed = tree(folder) != files
            tally.record(case, ran.outcome, changed=changed)
            # (click refuses a file as `report --out` before toolex sees it: also one error)
            refused = "named after the store" in ran.err or "is a file" in ran.err
            assert ran.code == 2 and refused and "wrote" not in ran.err, (case, ran.err)
    tally.check()


def test_a_link_given_as_db_through_the_real_entry_point(db: str) -> None:
    """As a shell runs it: `--db` a symbolic link, `--out` the real file's commit record."""
    folder = Path(db).parent
    record = (folder / "s.duckdb.commits").read_bytes()
    ran = shell(
        "sql",
        "SELECT 1",
        "--format",
        "csv",
        "--out",
        "s.duckdb.commits",
        "--db",
        "lnk.duckdb",
        cwd=folder,
    )
    assert ran.code == 2 and ran.one_line_error and "named after the store" in ran.err
    assert (folder / "s.duckdb.commits").read_bytes() == record
    ran = shell("info", "--db", "s.duckdb", cwd=folder)  # the store still opens
    assert ran.code == 0, ran.err


def _socket(path: Path) -> None:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.close()


def test_an_output_that_is_not_a_regular_file_is_refused(
    db: str, toolex: Callable[..., Ran], tmp_path: Path
) -> None:
    specials = tmp_path / "specials"
    specials.mkdir()
    os.mkfifo(specials / "fifo")
    _socket(specials / "sock")
    (specials / "folder").mkdir()
    (specials / "link-to-fifo").symlink_to(specials / "fifo")
    if os.geteuid() == 0:  # a copy of /dev/full and /dev/null: replacing them must never happen
        os.mknod(specials / "full", 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        os.mknod(specials / "null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    tally = Tally("outputs round 2: not a regular file")
    store, kinds = tree(Path(db).parent), tree(specials)  # the store's bytes (see above)
    for target in sorted(specials.iterdir()):
        for args in commands(str(target)):
            ran = toolex(*args, "--db", db)
            case = f"{' '.join(args[:2])} --out {target.name}"
            tally.record(case, ran.outcome, changed=tree(Path(db).parent) != store)
            assert ran.code == 2 and "--out" in ran.err and "wrote" not in ran.err, case
            said = ("not a regular file", "a folder", "is a directory")
            assert any(s in ran.err for s in said), (case, ran.err)
            assert tree(specials) == kinds, case
    tally.check()


def test_dev_full_is_refused_through_the_real_entry_point(db: str, tmp_path: Path) -> None:
    """`--out /dev/full` said "wrote 1 rows" (as root it replaced the device with a file). As
    root the test makes its own /dev/full (the same device numbers) rather than risk the
    machine's; as another user /dev/full itself cannot be replaced."""
    full = Path("/dev/full")
    if os.geteuid() == 0:
        full = tmp_path / "full"
        os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    ran = shell("sql", "SELECT 1", "--format", "csv", "--out", str(full), "--db", db)
    assert ran.code == 2 and ran.one_line_error and "a device" in ran.err
    assert stat.S_ISCHR(os.stat(full).st_mode)


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 16 KiB tmpfs: a real full disk (root only; skipped where mounting is not allowed)."""
    where = tmp_path / "tiny"
    where.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(where)],
        capture_output=True,
        timeout=60,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], capture_output=True, timeout=60)


BIG = "SELECT i, repeat('x', 100) AS t FROM range(20000) t(i)"


def test_a_full_disk_is_an_error_never_wrote_n_rows(db: str, tiny_disk: Path) -> None:
    old = tiny_disk / "old.csv"
    old.write_text("the previous output\n")
    tally = Tally("outputs round 2: full disk")
    for args in (
        ("sql", BIG, "--format", "csv"),
        ("sql", BIG, "--format", "json"),
        ("sql", BIG, "--format", "parquet"),
    ):
        for out in (old, tiny_disk / "new.out"):
            ran = shell(*args, "--out", str(out), "--db", db)
            case = f"{args[0]} {args[-1]} --out {out.name}"
            tally.record(case, ran.outcome)
            assert ran.code == 2 and ran.one_line_error, (case, ran.err)
            assert "No space left on device" in ran.err and "wrote" not in ran.err, case
            assert sorted(p.name for p in tiny_disk.iterdir()) == ["old.csv"], case
            assert old.read_text() == "the previous output\n"
    tally.check()


@pytest.mark.parametrize("where", ["file", "folder"])
def test_a_failed_sync_is_an_error_and_leaves_no_file(
    db: str, toolex: Callable[..., Ran], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """ENOSPC at the sync (where a delayed write reports a full disk) through the writer's
    seam, toolex.exports.files.sync_file: no "wrote", no output, no temporary file. A failed
    sync of the folder after the rename is an error too (the file may not survive a crash)."""
    from toolex.exports import files

    def full(_path: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files, f"sync_{where}", full)
    out = tmp_path / "o" / "rows.csv"
    out.parent.mkdir()
    for args in commands(str(out))[:8]:
        ran = toolex(*args, "--db", db)
        assert ran.code == 2 and "No space left on device" in ran.err, (args, ran.err)
        assert "wrote" not in ran.err and ran.exception is None
        if where == "file":
            assert list(out.parent.iterdir()) == []
        else:
            assert "could not be synced" in ran.err
            out.unlink()
            assert list(out.parent.iterdir()) == []


TASK = {
    "query_id": 10,
    "query": "x",
    "api_list": [
        {"category_name": "Data", "tool_name": "A", "api_name": "x", "api_description": "x of A"},
        {"category_name": "Data", "tool_name": "B", "api_name": "y", "api_description": "y of B"},
    ],
    "relevant APIs": [["A", "x"]],
}


@pytest.fixture
def stb(tmp_path: Path, toolex: Callable[..., Ran]) -> tuple[str, Path]:
    """A StableToolBench-layout folder and a store that loaded it."""
    root = tmp_path / "stb"
    (root / "test_instruction").mkdir(parents=True)
    (root / "test_instruction" / "G1_instruction.json").write_text(json.dumps([TASK]))
    db = str(tmp_path / "stb.duckdb")
    ran = toolex("load", "stabletoolbench", str(root), "--db", db)
    assert ran.code == 0, ran.err
    return db, root


def test_export_toolbench_never_writes_into_its_source_or_the_store(
    stb: tuple[str, Path], toolex: Callable[..., Ran], tmp_path: Path
) -> None:
    db, root = stb
    (tmp_path / "src-link").symlink_to(root)
    tally = Tally("outputs round 2: export toolbench")
    before, source = digest(db), tree(root)
    outs = {
        "the source": str(root),
        "the source through a link": str(tmp_path / "src-link"),
        "inside the source": str(root / "test_instruction"),
        "the store's vector folder": f"{db}.lance/tasks",
        "the store's spill folder": f"{db}.tmp",
    }
    for what, out in outs.items():
        ran = toolex("export", "toolbench", "--out", out, "--source", str(root), "--db", db)
        changed = digest(db) != before or tree(root) != source
        tally.record(f"export toolbench --out {what}", ran.outcome, changed=changed)
        assert ran.code == 2 and "--out" in ran.err and "name another" in ran.err, (what, ran.err)
        assert not changed, what
    tally.check()
    # a planted link inside the output folder is not followed onto the store
    planted = tmp_path / "tasks"
    (planted / "test_instruction").mkdir(parents=True)
    (planted / "test_instruction" / "G1_instruction.json").symlink_to(db)
    ran = toolex("export", "toolbench", "--out", str(planted), "--db", db)
    assert ran.code == 2 and "is the store" in ran.err and digest(db) == before
    (planted / "test_instruction" / "G1_instruction.json").unlink()
    ran = toolex("export", "toolbench", "--out", str(planted), "--db", db)
    assert ran.code == 0, ran.err
    written = json.loads((planted / "test_instruction" / "G1_instruction.json").read_text())
    assert [t["query_id"] for t in written] == [10] and tree(root) == source


def test_report_files_never_land_on_the_store(
    db: str, toolex: Callable[..., Ran], tmp_path: Path
) -> None:
    """`report --out` writes a folder of files: a planted link in it is refused, not followed,
    and a device or FIFO planted under a report file's name stays as it was."""
    out = tmp_path / "report"
    out.mkdir()
    (out / "report.md").symlink_to(db)
    before = digest(db)
    ran = toolex("report", "--out", str(out), "--db", db)
    assert ran.code == 2 and "is the store" in ran.err and digest(db) == before
    (out / "report.md").unlink()
    os.mkfifo(out / "annotation.csv")
    ran = toolex("report", "--out", str(out), "--db", db)
    assert ran.code == 2 and "named pipe" in ran.err
    assert stat.S_ISFIFO((out / "annotation.csv").lstat().st_mode)
    (out / "annotation.csv").unlink()
    ran = toolex("report", "--out", str(out), "--db", db)
    assert ran.code == 0, ran.err
    assert (out / "report.md").is_file() and not list(out.glob(".*.part"))
