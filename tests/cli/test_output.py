"""Issue 15, output conventions (what duckdb, sqlite-utils, harlequin and psql users expect), for
the one renderer every command prints rows through (toolex.cli.options.emit_rows), and for
`toolex sql` and `toolex info` that lean on it."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from toolex.cli import cli
from toolex.cli.options import emit_rows, stable_float
from toolex.loaders import load_plain
from toolex.store import Store


def printed(
    capsys: pytest.CaptureFixture[str],
    rows: Sequence[dict[str, Any]],
    fmt: str,
    title: str | None = None,
    *,
    columns: Sequence[str] | None = None,
    shown: Sequence[str] | None = None,
    wide: bool = False,
) -> str:
    emit_rows(rows, fmt, title, columns=columns, shown=shown, wide=wide)
    return capsys.readouterr().out


def test_headers_are_the_column_names_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    out = printed(capsys, [{"n_no_results": 1, "valid_combos": 2}], "table")
    assert "n_no_results" in out and "valid_combos" in out
    assert "n no results" not in out


def test_numbers_keep_their_digits(capsys: pytest.CaptureFixture[str]) -> None:
    out = printed(capsys, [{"x": 1e-6}, {"x": 0.123456789}, {"x": 12.5}], "table")
    assert "1e-06" in out and "0.0000" not in out
    assert "0.123457" in out and "12.5" in out


def test_zero_rows_keep_their_header(capsys: pytest.CaptureFixture[str]) -> None:
    out = printed(capsys, [], "csv", columns=["run", "score"])
    assert out == "run,score\n"
    out = printed(capsys, [], "table", columns=["run", "score"])
    assert "run" in out and "score" in out and "(0 rows)" in out
    assert printed(capsys, [], "json", columns=["run"]).strip() == "[]"


def test_struct_and_list_values_are_json_in_csv(capsys: pytest.CaptureFixture[str]) -> None:
    out = printed(capsys, [{"l": [1, 2], "s": {"a": None}, "b": True, "n": None}], "csv")
    row = next(csv.DictReader(io.StringIO(out)))
    assert json.loads(row["l"]) == [1, 2] and json.loads(row["s"]) == {"a": None}
    assert (row["b"], row["n"]) == ("true", "")


def test_floats_are_stable_in_json_and_csv(capsys: pytest.CaptureFixture[str]) -> None:
    # two sums of the same numbers in another order differ in the last bits, as DuckDB's
    # parallel aggregates do; printed, they are the same text
    a, b = 0.1 + 0.2 + 0.3, 0.3 + 0.2 + 0.1
    assert a != b
    for fmt in ("json", "csv"):
        assert printed(capsys, [{"x": a}], fmt) == printed(capsys, [{"x": b}], fmt)
    assert stable_float(1 / 3) == 0.333333333333 and stable_float(1e-6) == 1e-6


def test_a_table_keeps_to_the_terminal_with_its_named_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25, point 7: a wide table shows the columns named for it that fit (the last named
    go first), in its own order, and a footer says how to see the rest; --wide shows all, and
    CSV always carries every column."""
    monkeypatch.setenv("COLUMNS", "80")
    cols = [f"column_number_{i:02d}" for i in range(12)]
    rows = [{c: 1000 + i for i, c in enumerate(cols)} for _ in range(3)]
    named = [cols[5], cols[0], cols[9], cols[2], cols[7], cols[11]]
    out = printed(capsys, rows, "table", shown=named)
    assert max(len(line) for line in out.splitlines()) <= 80
    # all six named fit, their headers broken at an underscore (issue 35.18)
    first, second = (line.split() for line in out.splitlines()[:2])
    assert [a + b for a, b in zip(first, second, strict=True)] == [
        cols[i] for i in (0, 2, 5, 7, 9, 11)
    ]
    assert "(12 columns, 6 shown: --format csv|json" in out  # no --wide outside a command
    out = printed(capsys, rows, "table", shown=named, wide=True)
    assert out.splitlines()[0].split() == cols and "shown" not in out
    out = printed(capsys, rows, "csv", shown=named)
    assert out.splitlines()[0] == ",".join(cols)
    monkeypatch.setenv("COLUMNS", "200")  # a wider terminal shows every named column
    assert printed(capsys, rows, "table", shown=named).splitlines()[0].split() == [
        cols[i] for i in (0, 2, 5, 7, 9, 11)
    ]


def test_an_id_is_never_wrapped_a_long_text_may_be(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table wider than the terminal wraps long text (documentation), never a short one (a run
    name, an id): `demo-wordllama-subquery †` once lost its † to the next line."""
    monkeypatch.setenv("COLUMNS", "80")
    rows = [{"run": "demo-wordllama-subquery †", "doc": "word " * 30, "n": 1}]
    out = printed(capsys, rows, "table")
    assert "demo-wordllama-subquery †" in out and max(map(len, out.splitlines())) <= 80
    assert len(out.splitlines()) > 3  # the documentation wrapped instead


def test_a_piped_table_wider_than_80_columns_crops_no_cell(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28.5 met this piped: a long judge spec as a header pushed the table past 80
    columns and a "tp / fp / fn / tn" cell lost its end ("tn 25" printed as "2"). Cells are
    never shortened; the long header folds over lines at its separators, every character kept,
    so the table keeps to 80 columns (issue 35.18)."""
    monkeypatch.delenv("COLUMNS", raising=False)  # capsys: not a terminal, 80 columns
    spec = "compat:http://127.0.0.1:45678/v1#some-long-model-name-Q4_K_M"
    rows: list[dict[str, Any]] = [
        {"figure": "tp / fp / fn / tn", spec: "12 / 3 / 4 / 25", "heuristic": "10 / 5 / 6 / 24"},
        {"figure": "precision", spec: 0.8, "heuristic": 0.66},
    ]
    out = printed(capsys, rows, "table")
    [row] = [line for line in out.splitlines() if line.startswith("tp / fp")]
    assert " ".join(row.split()) == "tp / fp / fn / tn 12 / 3 / 4 / 25 10 / 5 / 6 / 24"
    assert max(len(line) for line in out.splitlines()) <= 80
    head = out.split("─")[0].splitlines()
    folded = "".join(line[19:37].strip() for line in head)  # the spec's column, line by line
    assert folded == spec


def test_a_title_wider_than_its_table_keeps_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A narrow table folded a longer title a word a line ('verify verdicts' / 'vs 910 labels
    of' / 'toolex-dev-v1'): the title takes its own line, whole; a short one stays centred."""
    monkeypatch.setenv("COLUMNS", "80")
    rows = [{"figure": "precision", "value": 0.9}]
    title = "verify verdicts vs 910 labels of toolex-dev-v1"
    lines = printed(capsys, rows, "table", title=title).splitlines()
    assert lines[0] == title and lines[1].split() == ["figure", "value"]
    lines = printed(capsys, rows, "table", title="short").splitlines()
    assert lines[0].strip() == "short" and lines[0] != "short"  # centred over the table
    assert printed(capsys, [], "table", title=title).splitlines() == [title, "(0 rows)"]


DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "s.duckdb")
    with Store.open(path) as store:
        p = DATA / "plain"
        load_plain(store, p / "items.jsonl", p / "queries.jsonl", p / "qrels.jsonl", name="plain")
    return path


def run(args: list[str], stdin: str | None = None) -> Result:
    result = CliRunner().invoke(cli, args, input=stdin)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_sql_reads_the_statement_from_stdin(db: str) -> None:
    res = run(["sql", "-", "--db", db, "--format", "csv"], "SELECT count(*) AS n FROM items")
    assert res.exit_code == 0 and res.stdout == "n\n3\n"
    res = run(["sql", "--db", db, "--format", "csv"], "SELECT 1 AS one")  # piped, no `-`
    assert res.stdout == "one\n1\n"


def test_sql_zero_rows_print_the_header(db: str) -> None:
    res = run(["sql", "SELECT item_id FROM items WHERE false", "--db", db, "--format", "csv"])
    assert res.stdout == "item_id\n"
    res = run(["sql", "SELECT item_id FROM items WHERE false", "--db", db])
    assert "item_id" in res.stdout and "(0 rows)" in res.stdout


def test_sql_show_takes_a_basename_and_prints_the_file_as_shipped() -> None:
    from toolex.resources import sql_text

    shipped = sql_text("stages/4_assemble/01_cartesian.sql")
    for name in ("stages/4_assemble/01_cartesian.sql", "01_cartesian.sql", "01_cartesian"):
        res = run(["sql", "--show", name])
        assert res.exit_code == 0
        assert res.stdout == shipped  # exactly, not reformatted
    res = run(["sql", "--show", "01_cartesian", "--dialect", "spark"])
    assert res.stdout != shipped and "SELECT" in res.stdout.upper()


def test_sql_tables_and_info_list_what_the_store_holds(db: str) -> None:
    res = run(["sql", "--tables", "--db", db, "--format", "csv"])
    counts = {r["table"]: int(r["rows"]) for r in csv.DictReader(io.StringIO(res.stdout))}
    assert counts["items"] == 3 and counts["queries"] == 2 and "runs" in counts
    res = run(["info", "--db", db, "--format", "json"])
    info = json.loads(res.stdout)
    assert set(info) == {"tables", "benchmarks", "expansions", "runs"}
    assert info["benchmarks"][0] | {"source": None} == {
        "benchmark": "plain",
        "format": "plain",
        "items": 3,
        "queries": 2,
        "labels": 3,
        "source": None,
    }
    assert info["runs"] == [] and info["expansions"] == []
    table = run(["info", "--db", db]).stdout
    assert "benchmarks" in table and "(0 rows)" in table  # no runs yet: header, then (0 rows)
    res = run(["info", "--db", db, "--only", "runs", "--format", "csv"])
    assert res.stdout.startswith("run,benchmark,level")
