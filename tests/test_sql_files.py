"""Every shipped SQL file is numbered uniquely within its folder, opens with a header comment
saying what it does, and parses (sqlglot, DuckDB dialect). The pipeline's SQL is one folder per
stage, numbered in run order, and its headers (and the expansion tables' writes) name their file."""

from __future__ import annotations

import re
from collections import Counter

import sqlglot

from toolex.resources import resource_root

SQL_ROOT = resource_root("sql")
FILES = sorted(SQL_ROOT.rglob("*.sql"))


def test_there_are_sql_files() -> None:
    assert FILES


def test_numbers_are_unique_per_folder() -> None:
    for folder in {f.parent for f in FILES}:
        numbers = Counter(
            m.group(1) for f in folder.glob("*.sql") if (m := re.match(r"^(\d+)_", f.name))
        )
        dupes = {n: c for n, c in numbers.items() if c > 1}
        assert not dupes, f"{folder.relative_to(SQL_ROOT)} reuses numbers {dupes}"


def test_each_file_is_numbered_and_opens_with_a_comment() -> None:
    for f in FILES:
        # Checks are audits named for the invariant they guard, and select/ holds named read
        # queries; every other folder is an ordered sequence of transforms, so it is numbered.
        pattern = (
            r"^[a-z0-9_]+\.sql$"
            if f.parent.name in ("checks", "select")
            else r"^\d+_[a-z0-9_]+\.sql$"
        )
        assert re.match(pattern, f.name), f"{f} is not named {pattern}"
        first = f.read_text(encoding="utf-8").lstrip().splitlines()[0]
        assert first.startswith("--"), f"{f} does not open with a header comment"


def test_each_file_parses() -> None:
    for f in FILES:
        sqlglot.parse(f.read_text(encoding="utf-8"), read="duckdb")


def test_stage_folders_are_numbered_in_run_order() -> None:
    stages = SQL_ROOT / "stages"
    loose = sorted(f.name for f in stages.glob("*.sql"))
    assert not loose, f"sql/stages holds files outside a stage folder: {loose}"
    folders = sorted(f.name for f in stages.iterdir() if f.is_dir())
    # one folder per stage, numbered by its place in a run, and one for what reads a whole
    # expansion whenever it runs
    numbered = [f for f in folders if f != "expansion"]
    assert "expansion" in folders
    for name in numbered:
        assert re.match(r"^\d+_[a-z]+$", name), f"sql/stages/{name} is not named N_stage"
    positions = sorted(int(name.split("_")[0]) for name in numbered)
    assert positions == list(range(len(numbered))), f"stage folders skip or repeat: {folders}"
    readme = (stages / "README.md").read_text(encoding="utf-8")
    for name in folders:
        assert f"`{name}/`" in readme, f"sql/stages/README.md does not list {name}/"


def test_stage_and_expansion_headers_name_their_file() -> None:
    for f in FILES:
        if f.relative_to(SQL_ROOT).parts[0] not in ("stages", "expansions"):
            continue
        first = f.read_text(encoding="utf-8").lstrip().splitlines()[0]
        assert first.startswith(f"-- {f.stem}:"), f"{f} opens with {first!r}, not its name"
