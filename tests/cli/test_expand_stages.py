"""Issue 26.8: `toolex expand --stage S` over an expansion that lacks the stage before S says
which stage to run first (it did 0 tasks and said nothing); once that stage ran, S runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from pipeline.fixtures import build

from toolex.cli import cli
from toolex.store import Store


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "s.duckdb")
    with Store.open(path) as store:
        build(store)
    return path


def expand(db: str, *args: str) -> Result:
    return CliRunner().invoke(cli, ["expand", "--db", db, "--benchmark", "b", "-q", *args])


@pytest.mark.parametrize(
    ("stage", "needs", "first"),
    [
        ("candidates", "sub-queries", "decompose"),
        ("verify", "sub-queries", "decompose"),  # verify retrieves its candidates itself
        ("assemble", "verdicts", "verify"),
        ("audit", "combinations", "assemble"),
    ],
)
def test_a_stage_without_its_input_names_the_stage_to_run_first(
    db: str, stage: str, needs: str, first: str
) -> None:
    refused = expand(db, "--stage", stage)
    assert refused.exit_code == 2
    assert f"has no {needs} yet for these 2 queries" in refused.output
    assert f"run `toolex expand --stage {first}` first" in refused.output
    with Store.open(db, read_only=True) as store:  # nothing was recorded or written
        assert store.con.execute("SELECT count(*) FROM expansions").fetchall()[0] == (0,)


def test_each_stage_runs_once_the_one_before_it_has(db: str) -> None:
    for stage in ("decompose", "candidates", "verify", "assemble", "audit"):
        done = expand(db, "--stage", stage)
        assert done.exit_code == 0, (stage, done.output)
    with Store.open(db, read_only=True) as store:
        [(valid,)] = store.con.execute(
            "SELECT count(*) FROM combinations WHERE status = 'valid'"
        ).fetchall()
    assert valid > 2  # the originals and at least one alternative
