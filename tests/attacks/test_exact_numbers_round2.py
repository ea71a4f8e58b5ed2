"""Exact numbers (issue 37, point 7): HUGEINT, UHUGEINT and DECIMAL(38,10) print every digit in
a table, in CSV and in JSON (as numbers); Parquet holds them as decimal(38, 0) or refuses a value
with more digits, naming the column; nothing is rounded, wrapped or turned into a float."""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from attacks.conftest import Ran
from attacks.tally import Tally

HUGE_MAX = 2**127 - 1
HUGE_MIN = -(2**127)
UHUGE_MAX = 2**128 - 1
DEC = "1234567890123456789012345678.0123456789"
SELECT = (
    f"SELECT {HUGE_MAX}::HUGEINT AS h, {UHUGE_MAX}::UHUGEINT AS u, "
    f"{-HUGE_MAX}::HUGEINT - 1 AS lo, {DEC}::DECIMAL(38,10) AS d, "
    f"{2**127}::UHUGEINT AS past, 0.1::DECIMAL(3,1) AS tenth, NULL::HUGEINT AS nothing, "
    "sum(i) AS total FROM range(3) t(i)"
)
EXPECTED = [HUGE_MAX, UHUGE_MAX, HUGE_MIN, DEC, 2**127, "0.1", None, 3]
COLUMNS = ["h", "u", "lo", "d", "past", "tenth", "nothing", "total"]


def test_every_digit_in_csv_json_and_the_table(
    bench_db: str, toolex: Callable[..., Ran], monkeypatch: pytest.MonkeyPatch
) -> None:
    tally = Tally("exact numbers round 2")
    ran = toolex("sql", SELECT, "--format", "csv", "--db", bench_db)
    tally.record("csv", ran.outcome, wrong=ran.code != 0)
    header, row = ran.out.splitlines()
    assert header == "h,u,lo,d,past,tenth,nothing,total"
    assert row.split(",") == ["" if v is None else str(v) for v in EXPECTED]

    ran = toolex("sql", SELECT, "--format", "json", "--db", bench_db)
    tally.record("json", ran.outcome, wrong=ran.code != 0)
    (obj,) = json.loads(ran.out, parse_float=Decimal)
    assert list(obj.values()) == [Decimal(v) if isinstance(v, str) else v for v in EXPECTED], obj
    assert f'"d": {DEC},' in ran.out  # a JSON number, not a string

    ran = toolex("sql", SELECT, "--db", bench_db)
    tally.record("table", ran.outcome, wrong=ran.code != 0)
    # one row wider than 80 columns: on its side, a line per column
    lines = [line.split() for line in ran.out.splitlines()[2:]]
    pairs = zip(COLUMNS, EXPECTED, strict=True)
    assert lines == [[c, str(v)] if v is not None else [c] for c, v in pairs]
    monkeypatch.setenv("COLUMNS", "400")
    ran = toolex("sql", SELECT, "--db", bench_db)
    assert ran.out.splitlines()[2].split() == [str(v) for v in EXPECTED if v is not None]
    tally.check()


def test_exact_numbers_inside_lists_and_in_toolex_own_json(
    bench_db: str, toolex: Callable[..., Ran]
) -> None:
    ran = toolex(
        "sql", f"SELECT [{DEC}::DECIMAL(38,10)] AS l", "--format", "json", "--db", bench_db
    )
    assert json.loads(ran.out, parse_float=Decimal)[0]["l"] == [Decimal(DEC)]
    ran = toolex("sql", "--tables", "--format", "json", "--db", bench_db)
    assert ran.code == 0 and json.loads(ran.out)


def test_parquet_keeps_them_exact_or_names_the_column(
    bench_db: str, toolex: Callable[..., Ran], tmp_path: Path
) -> None:
    out = tmp_path / "n.parquet"
    ran = toolex(
        "sql",
        f"SELECT 12::UHUGEINT AS u, sum(i) AS total, {10**38 - 1}::HUGEINT AS most, "
        f"{DEC}::DECIMAL(38,10) AS d FROM range(4) t(i)",
        "--format", "parquet", "--out", str(out), "--db", bench_db,
    )  # fmt: skip
    assert ran.code == 0, ran.err
    assert pq.read_table(out).to_pylist() == [
        {"u": Decimal(12), "total": Decimal(6), "most": Decimal(10**38 - 1), "d": Decimal(DEC)}
    ]
    ran = toolex("sql", SELECT, "--format", "parquet", "--out", str(out), "--db", bench_db)
    assert ran.code == 2 and "column 'h' holds" in ran.err and "::VARCHAR" in ran.err
    assert pq.read_table(out).num_rows == 1  # the old file, as it was
