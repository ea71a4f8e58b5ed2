"""Issue 35.21: what the demo prints says what it does, without running it (tests/cli/test_demo.py
runs it): the run names it prints are the names it stores, its help states no column count the
table does not have, † is explained, and git ignores what any store leaves beside it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from click import Command
from click.testing import CliRunner

from toolex.cli.demo import compact, demo, run_name
from toolex.cli.stats import stats

ROOT = Path(__file__).resolve().parents[2]


def test_the_printed_run_names_are_the_stored_ones() -> None:
    rows = [
        {"category": "all", "run_id": run_name("bm25", "query"), "oracle": False},
        {"category": "all", "run_id": run_name("bm25", "subquery"), "oracle": True},
    ]
    rows = [r | {f"{m}_{w}": 0.5 for m in ("ndcg", "recall", "comp") for w in ("old", "new")}
            for r in rows]  # fmt: skip
    assert [r["run"] for r in compact(rows)] == ["bm25-query", "bm25-subquery †"]
    assert run_name("wordllama", "subquery") == "wordllama-subquery"


@pytest.mark.parametrize("command", [demo, stats])
def test_the_help_states_no_column_count(command: Command) -> None:
    """The demo's help said --wide printed "all 16" columns of a table that had 17; the table
    itself counts them when it prints ("(18 columns, 6 shown: ...")."""
    text = CliRunner().invoke(command, ["--help"], terminal_width=100).output
    assert "--wide prints every column" in text or "--wide every column" in text
    assert not [w for w in ("all 16", "all 17", "of 16") if w in text]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.parametrize(
    "path",
    [
        "toolex.duckdb",
        "toolex.duckdb.wal",
        "toolex.duckdb.commits",
        "toolex-demo.duckdb.commits",
        "toolex-demo.duckdb.wal",
        "toolex.duckdb.tmp/duckdb_temp_storage-0.tmp",
        "toolex.duckdb.lance/items.lance/data.bin",
        "elsewhere/my.db.commits",
        "elsewhere/my.db.tmp/spill",
    ],
)
def test_git_ignores_what_every_store_leaves_beside_it(path: str) -> None:
    """`toolex demo` left toolex-demo.duckdb.commits untracked: .gitignore named the WAL of
    *.duckdb stores only."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", "-q", path],
        cwd=ROOT,
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, f"{path} is not ignored"
