"""Outputs never clobber the store (issue 27, point 5): `--out` of `toolex sql`, of every
`toolex export`, and of `labels export` and `review export`, refuses the store, its write-ahead
log, its vector and spill folders (named after it), the same file reached through a link, and
any file the command reads; and an output is written whole or not at all (a temporary file
renamed into place), so a failed export leaves the old file as it was and no half file."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from attacks.conftest import Kept, Ran, digest, run_forked
from attacks.tally import Tally


@pytest.fixture
def db(bench_db: str, toolex: Callable[..., Ran]) -> str:
    """The plain benchmark with a BM25 run, so that every export has something to write."""
    ran = toolex(
        "retrieve", "--benchmark", "plain", "--retriever", "bm25", "--run", "bm25", "--db", bench_db
    )
    assert ran.code == 0, ran.err
    return bench_db


def commands(out: str) -> list[tuple[str, ...]]:
    return [
        ("sql", "SELECT 1 AS one", "--format", "csv", "--out", out),
        ("sql", "FROM items", "--format", "parquet", "--out", out),
        ("export", "qrels", "--out", out),
        ("export", "trec-qrels", "--out", out),
        ("export", "trec-run", "--run", "bm25", "--out", out),
        ("export", "toolret-jsonl", "--out", out),
        ("export", "equivalences", "--out", out),
        ("export", "equivalences", "--by", "platform", "--out", out),
        # the same class outside `export`: every command that writes a file a user names
        ("labels", "export", "--out", out),
        ("review", "export", "s1", "--role", "reviewer1", "--out", out),
    ]


def targets(db: str, tmp: Path) -> dict[str, str]:
    """Paths that are the store or its own files, spelt in several ways."""
    store = Path(db)
    (tmp / "lnk").symlink_to(store)
    os.link(store, tmp / "hard.duckdb")
    Path(f"{db}.lance").mkdir(exist_ok=True)
    return {
        "the store": db,
        "the store, relative": os.path.relpath(db),
        "the store, with ..": str(store.parent / ".." / store.parent.name / store.name),
        "its write-ahead log": f"{db}.wal",
        "a file in its vector folder": f"{db}.lance/x.parquet",
        "a file in its spill folder": f"{db}.tmp/x.csv",
        "a symbolic link to it": str(tmp / "lnk"),
        "a hard link to it": str(tmp / "hard.duckdb"),
    }


def test_no_output_path_reaches_the_store(
    db: str, tmp_path: Path, toolex: Callable[..., Ran]
) -> None:
    tally = Tally("outputs over the store")
    before = Kept(db)
    size = Path(db).stat().st_size
    for what, target in targets(db, tmp_path).items():
        for args in commands(target):
            ran = toolex(*args, "--db", db)
            case = f"{' '.join(args[:2])} --out {what}"
            changed = before.changed() or Path(db).stat().st_size != size
            tally.record(case, ran.outcome, changed=changed)
            assert ran.code == 2 and "--out" in ran.err and "name another file" in ran.err, case
            assert not changed, case
    assert not Path(f"{db}.wal").exists() and not Path(f"{db}.tmp").exists()
    assert not list(Path(f"{db}.lance").iterdir())
    tally.check()


def test_the_graph_file_cannot_be_the_store_or_the_edge_file(
    db: str, tmp_path: Path, toolex: Callable[..., Ran]
) -> None:
    (tmp_path / "lnk.json").symlink_to(Path(db))
    before = digest(db)
    ran = toolex(
        "export",
        "equivalences",
        "--out",
        str(tmp_path / "e.parquet"),
        "--graph",
        str(tmp_path / "lnk.json"),
        "--db",
        db,
    )
    assert ran.code == 2 and "is the store" in ran.err
    assert digest(db) == before and not (tmp_path / "e.parquet").exists()
    same = str(tmp_path / "g.json")
    ran = toolex("export", "equivalences", "--out", same, "--graph", same, "--db", db)
    assert ran.code == 2 and "name two files" in ran.err


def test_sql_never_writes_over_a_file_its_query_reads(
    db: str, tmp_path: Path, toolex: Callable[..., Ran]
) -> None:
    data = tmp_path / "in.csv"
    data.write_text("a,b\n1,2\n")
    for source in (str(data), f"{tmp_path}/*.csv"):
        for out in (str(data), os.path.relpath(data)):
            ran = toolex(
                "sql",
                f"SELECT * FROM read_csv('{source}')",
                "--allow-files",
                "--format",
                "csv",
                "--out",
                out,
                "--db",
                db,
            )
            assert ran.code == 2 and "a file the command reads" in ran.err, (source, out)
            assert data.read_text() == "a,b\n1,2\n"
    other = tmp_path / "out.csv"  # another file: written
    ran = toolex(
        "sql",
        f"SELECT * FROM read_csv('{data}')",
        "--allow-files",
        "--format",
        "csv",
        "--out",
        str(other),
        "--db",
        db,
    )
    assert ran.code == 0 and other.read_text() == "a,b\n1,2\n"


def test_a_statement_failing_mid_stream_leaves_no_half_file(
    db: str, tmp_path: Path, toolex: Callable[..., Ran]
) -> None:
    out = tmp_path / "rows.csv"
    failing = (
        "SELECT CASE WHEN i < 30000 THEN i::VARCHAR ELSE 'x' END::INT AS v FROM range(100000) t(i)"
    )
    ran = toolex("sql", failing, "--format", "csv", "--out", str(out), "--db", db)
    assert ran.code == 2 and "Could not convert" in ran.err
    # the store and its commit record (toolex.store: how many writes it holds) and nothing else
    assert not out.exists()
    assert sorted(os.listdir(tmp_path)) == sorted([Path(db).name, f"{Path(db).name}.commits"])
    out.write_text("old\n")
    ran = toolex("sql", failing, "--format", "json", "--out", str(out), "--db", db)
    assert ran.code == 2 and out.read_text() == "old\n"


@pytest.mark.parametrize(
    "args",
    [
        ("export", "qrels"),
        ("export", "toolret-jsonl"),
        ("sql", "SELECT i, 'row ' || i AS t FROM range(100000) t(i)", "--format", "csv"),
    ],
)
def test_a_full_disk_leaves_the_old_file_as_it_was(
    db: str, tmp_path: Path, args: tuple[str, ...]
) -> None:
    """The disk fills while the output is written (RLIMIT_FSIZE in a forked run): the command
    fails with a message, the file it would have replaced is whole, no temporary file stays."""
    out = tmp_path / "out" / "file.out"
    out.parent.mkdir()
    old = "the previous export, complete\n" * 10  # 300 bytes: under the limit
    out.write_text(old)
    ran = run_forked(*args, "--out", str(out), "--db", db, file_limit=500)  # outputs: 762 B+
    assert ran.code != 0 and ran.exception is None, ran.err
    assert out.read_text() == old
    assert os.listdir(out.parent) == ["file.out"]


def test_an_export_replaces_an_old_file_whole_and_keeps_its_mode(
    db: str, tmp_path: Path, toolex: Callable[..., Ran]
) -> None:
    out = tmp_path / "run.trec"
    out.write_text("stale\n")
    out.chmod(0o640)
    ran = toolex("export", "trec-run", "--run", "bm25", "--out", str(out), "--db", db)
    assert ran.code == 0, ran.err
    assert "stale" not in out.read_text() and out.read_text().count(" Q0 ") > 0
    assert out.stat().st_mode & 0o777 == 0o640
    fresh = tmp_path / "new" / "run.trec"  # a new file: the mode any new file gets
    ran = toolex("export", "trec-run", "--run", "bm25", "--out", str(fresh), "--db", db)
    mask = os.umask(0)
    os.umask(mask)
    assert ran.code == 0 and fresh.stat().st_mode & 0o777 == 0o666 & ~mask


def test_labels_export_writes_whole_and_keeps_the_format_of_the_named_file(
    db: str, tmp_path: Path, toolex: Callable[..., Ran]
) -> None:
    """The labels are written to a temporary file renamed into place: the format is the named
    file's (.csv), and an export with nothing to write leaves the old file as it was."""
    out = tmp_path / "out" / "labels.csv"
    out.parent.mkdir()
    out.write_text("old\n")
    ran = toolex("labels", "export", "--out", str(out), "--db", db)
    assert ran.code != 0 and "no labels to export" in ran.err
    assert out.read_text() == "old\n" and os.listdir(out.parent) == ["labels.csv"]
    fresh = tmp_path / "new" / "deeper" / "labels.csv"  # nor the folders made for it
    ran = toolex("labels", "export", "--out", str(fresh), "--db", db)
    assert ran.code != 0 and not (tmp_path / "new").exists()
    mine = tmp_path / "mine.jsonl"
    mine.write_text(
        '{"benchmark": "plain", "query_id": "s1", "reference": "pdf-merge", '
        '"candidate": "pdf-split", "label": "no"}\n'
    )
    ran = toolex("labels", "import", str(mine), "--db", db)
    assert ran.code == 0, ran.err
    ran = toolex("labels", "export", "--out", str(out), "--db", db)
    assert ran.code == 0, ran.err
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("benchmark,") and "query_id" in lines[0]  # CSV, not JSON Lines
    assert lines[1].startswith("plain,s1,") and len(lines) == 2
    assert os.listdir(out.parent) == ["labels.csv"]
