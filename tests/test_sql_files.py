"""Every shipped SQL file is numbered uniquely within its folder, opens with a header comment
saying what it does, and parses (sqlglot, DuckDB dialect)."""

from __future__ import annotations

import re
from collections import Counter

import sqlglot

from toolex.resources import resource_root

SQL_ROOT = resource_root("sql")
FILES = sorted(SQL_ROOT.rglob("*.sql"))


def test_there_are_sql_files():
    assert FILES


def test_numbers_are_unique_per_folder():
    for folder in {f.parent for f in FILES}:
        numbers = Counter(
            m.group(1) for f in folder.glob("*.sql") if (m := re.match(r"^(\d+)_", f.name))
        )
        dupes = {n: c for n, c in numbers.items() if c > 1}
        assert not dupes, f"{folder.relative_to(SQL_ROOT)} reuses numbers {dupes}"


def test_each_file_is_numbered_and_opens_with_a_comment():
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


def test_each_file_parses():
    for f in FILES:
        sqlglot.parse(f.read_text(encoding="utf-8"), read="duckdb")
