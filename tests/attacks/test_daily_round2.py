"""Daily use from a shell (issue 35, point 20): `--db` in a folder that does not exist says so
(not "damaged, recover from a backup"); a failed first command leaves no store behind (read
commands create none); and a reader that closes the pipe early (`toolex info | head -3`) ends
the command quietly with exit 0, so `set -o pipefail` scripts keep working.

Exit 0 rather than 141: the reader chose to stop, nothing failed, and 141 (a death by SIGPIPE,
what `yes | head` reports) fails a pipefail script just as the old exit 1 did. The pipe tests
close the reading end before toolex starts, so every write meets a closed pipe: no timing."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from attacks.conftest import Ran
from attacks.entry import DEADLINE, TOOLEX, shell
from attacks.tally import Tally

PLAIN = Path(__file__).resolve().parents[1] / "data" / "plain"
LOAD = ["--items", str(PLAIN / "items.jsonl"), "--queries", str(PLAIN / "queries.jsonl")]


@pytest.mark.parametrize(
    "args",
    [
        ("info",),
        ("stats", "--benchmark", "x"),
        ("sql", "SELECT 1"),
        ("eval", "--run", "r"),
        ("load", "plain", "--name", "x", *LOAD, "--qrels", str(PLAIN / "qrels.jsonl")),
        ("expand", "--benchmark", "x"),
    ],
)
def test_a_store_in_a_missing_folder_is_named_as_such(
    tmp_path: Path, toolex: Callable[..., Ran], args: tuple[str, ...]
) -> None:
    db = tmp_path / "nowhere" / "dir" / "x.duckdb"
    ran = toolex(*args, "--db", str(db))
    assert ran.code == 2 and ran.err.count("\n") == 1, ran.err
    assert f"the folder {db.parent} does not exist" in ran.err, ran.err
    assert "damaged" not in ran.err and "recover" not in ran.err.lower()
    assert not (tmp_path / "nowhere").exists()


def test_a_failed_first_command_leaves_no_store(tmp_path: Path, toolex: Callable[..., Ran]) -> None:
    tally = Tally("daily round 2: no store left behind")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "text": 5}\n')
    db = tmp_path / "new.duckdb"
    for args in (
        ("expand", "--benchmark", "nope"),
        ("retrieve", "--benchmark", "nope", "--retriever", "bm25", "--run", "r"),
        ("load", "plain", "--name", "x", "--items", str(bad), "--queries", str(bad)),
        ("load", "plain", "--name", "x", *LOAD),  # no labels
        ("runs", "import", str(bad), "--benchmark", "nope", "--run", "r"),
        ("labels", "import", str(bad)),
        ("info",),
        ("sql", "SELECT 1"),
    ):
        ran = toolex(*args, "--db", str(db))
        left = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("new.duckdb"))
        tally.record(" ".join(args[:2]), ran.outcome, changed=bool(left))
        assert ran.code != 0 and not left, (args, ran.err, left)
    tally.check()
    # a command that succeeds keeps its store; a later failure keeps it too
    ran = toolex("load", "plain", "--name", "x", *LOAD, "--qrels", str(PLAIN / "qrels.jsonl"),
                 "--db", str(db))  # fmt: skip
    assert ran.code == 0, ran.err
    ran = toolex("expand", "--benchmark", "nope", "--db", str(db))
    assert ran.code == 2 and db.exists()


def _closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    """``toolex ARGS`` writing to a pipe whose reading end is closed before it starts."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [*TOOLEX, *args],
            stdout=write,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            timeout=DEADLINE,  # a bound on a hang, not a measurement
            env={**os.environ, "COLUMNS": "80"},
        )
    finally:
        os.close(write)


@pytest.fixture
def db(bench_db: str, toolex: Callable[..., Ran]) -> str:
    ran = toolex("retrieve", "--benchmark", "plain", "--retriever", "bm25", "--run", "bm25",
                 "--db", bench_db)  # fmt: skip
    assert ran.code == 0, ran.err
    return bench_db


def test_a_closed_pipe_ends_the_command_quietly(db: str) -> None:
    tally = Tally("daily round 2: closed pipe")
    big = "SELECT i, 'row ' || i AS t FROM range(200000) t(i)"
    for args in (
        ("info",),
        ("info", "--format", "json"),
        ("sql", "--tables"),
        ("sql", big),
        ("sql", big, "--format", "csv"),
        ("sql", big, "--format", "json"),
        ("stats", "--benchmark", "plain"),
        ("eval", "--run", "bm25"),
        ("runs", "list"),
        ("export", "equivalences", "--by", "platform"),
        ("--help",),
        ("sql", "--help"),
    ):
        done = _closed_pipe(*args, *(("--db", db) if "--help" not in args else ()))
        tally.record(" ".join(args)[:40], "traceback" if "Traceback" in done.stderr else
                     ("correct result" if done.returncode == 0 else "clean error"))  # fmt: skip
        assert done.returncode == 0, (args, done.returncode, done.stderr)
        assert "Exception ignored" not in done.stderr and "Broken pipe" not in done.stderr, args
    tally.check()


def test_pipefail_scripts_keep_working(db: str) -> None:
    """The shell's view: `set -o pipefail; toolex info | head -3` succeeds."""
    script = f"set -o pipefail; {sys.executable} -c 'from toolex.cli import main; main()' " \
        f"sql 'SELECT * FROM range(300000)' --format csv --db {db} | head -3"  # fmt: skip
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                          timeout=DEADLINE)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["range", "0", "1"]
    assert shell("info", "--db", db).code == 0
