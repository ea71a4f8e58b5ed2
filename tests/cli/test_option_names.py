"""Issue 15: option names mean one thing everywhere (`--format` is the output format; `--run`
names a run, in `runs delete` too), the Quick start reaches `retrieve`, and an error about a
missing run says how to make one."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from toolex.cli import cli
from toolex.errors import ToolexError
from toolex.loaders import load_toolret
from toolex.store import Store

DATA = Path(__file__).resolve().parents[1] / "data"


def run(args: list[str]) -> Result:
    return CliRunner().invoke(cli, args)


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "o.duckdb")
    with Store.open(path) as store:
        load_toolret(store, DATA / "toolret_mini")
    return path


def test_quick_start_includes_retrieve() -> None:
    out = run(["--help"]).output
    quick = out[out.index("Quick start") : out.index("Options")]
    assert "toolex retrieve" in quick and "toolex eval" in quick and "toolex info" in quick


def test_runs_import_names_the_file_format_input_format_and_delete_takes_run(
    db: str, tmp_path: Path
) -> None:
    f = tmp_path / "r.txt"
    f.write_text("mini_query_0 Q0 mini_tool_0 1 0.5 x\n")
    done = run(["runs", "import", str(f), "--run", "r", "--benchmark", "toolret",
                "--input-format", "trec", "--db", db])  # fmt: skip
    assert done.exit_code == 0, done.output
    old = run(["runs", "import", str(f), "--run", "s", "--benchmark", "toolret",
               "--format", "trec", "--db", db])  # fmt: skip
    assert old.exit_code == 2 and "--input-format" in old.output
    gone = run(["runs", "delete", "--run", "r", "--db", db])
    assert gone.exit_code == 0 and "deleted run 'r'" in gone.output
    assert "output format" in run(["runs", "import", "--help"]).output


def test_no_run_errors_say_how_to_make_one(db: str) -> None:
    res = run(["eval", "--db", db, "--all-runs"])
    assert isinstance(res.exception, ToolexError)
    assert "toolex retrieve" in str(res.exception) and "toolex runs import" in str(res.exception)
    res = run(["eval", "--db", db])
    assert "toolex retrieve" in str(res.exception) and "toolex runs import" in str(res.exception)
