"""`toolex sql` as a user meets it (CliRunner over the real command): every column of the
result in every format, a repeated name included (issue 25, point 2), the table's first rows
with the rest counted, and JSON streamed byte for byte as json.dumps prints it."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result

from toolex.cli import cli
from toolex.cli.output import JsonWriter, unique_names
from toolex.loaders import load_plain
from toolex.store import Store

PLAIN = Path(__file__).resolve().parents[1] / "data" / "plain"


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "s.duckdb")
    with Store.open(path) as store:
        load_plain(
            store,
            PLAIN / "items.jsonl",
            PLAIN / "queries.jsonl",
            PLAIN / "qrels.jsonl",
            name="plain",
        )
    return path


def sql(db: str, *args: str) -> Result:
    result = CliRunner().invoke(cli, ["sql", *args, "--db", db])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def table_lines(out: str) -> list[list[str]]:
    """A printed table's lines split into cells (header, rule, rows)."""
    return [line.split() for line in out.splitlines() if line.strip()]


def test_a_repeated_column_name_keeps_both_columns_in_every_format(db: str, tmp_path: Path) -> None:
    statement = "SELECT 1 AS a, 2 AS a"
    lines = table_lines(sql(db, statement).stdout)
    assert lines[0] == ["a", "a"] and lines[2] == ["1", "2"]  # both, headers as given
    assert sql(db, statement, "--format", "csv").stdout == "a,a\n1,2\n"
    # JSON keys must be unique: DuckDB's suffix, as SELECT * FROM (<query>) names them
    assert json.loads(sql(db, statement, "--format", "json").stdout) == [{"a": 1, "a_1": 2}]
    out = tmp_path / "dup.parquet"
    assert sql(db, statement, "--format", "parquet", "--out", str(out)).exit_code == 0
    assert pq.read_table(out).to_pylist() == [{"a": 1, "a_1": 2}]
    out = tmp_path / "dup.csv"
    assert sql(db, statement, "--format", "csv", "--out", str(out)).exit_code == 0
    assert out.read_text() == "a,a\n1,2\n"


def test_two_text_columns_of_two_tables_stay_apart(db: str) -> None:
    """The case the issue met: `s.text, q.text` showed the query's text in both columns."""
    statement = (
        "SELECT i.text, q.text FROM items i, queries q "
        "WHERE i.item_id = 'pdf-merge' AND q.query_id = 's2'"
    )
    with Store.open(db, read_only=True) as store:
        want = store.user_sql(
            "SELECT (SELECT text FROM items WHERE item_id = 'pdf-merge') AS i, "
            "(SELECT text FROM queries WHERE query_id = 's2') AS q"
        ).to_pylist()[0]
    assert want["i"] != want["q"]
    row = next(
        csv.reader(io.StringIO(sql(db, statement, "--format", "csv").stdout.split("\n", 1)[1]))
    )
    assert row == [want["i"], want["q"]]
    assert json.loads(sql(db, statement, "--format", "json").stdout) == [
        {"text": want["i"], "text_1": want["q"]}
    ]
    table = sql(db, statement).stdout
    assert want["q"].split()[0] in table and want["i"].split()[0] in table


@pytest.mark.parametrize(
    "names",
    [["a", "a"], ["a", "a", "a_1", "A"], ["x", "X", "x_1", "x"], ["id", "text", "id", "id_1"]],
)
def test_unique_names_are_the_names_duckdb_gives_a_sub_query(names: list[str]) -> None:
    select = ", ".join(f'{n} AS "{c}"' for n, c in enumerate(names))
    duck = duckdb.connect().sql(f"SELECT * FROM (SELECT {select})").columns
    assert unique_names(names) == duck


def test_json_is_streamed_as_json_dumps_prints_it() -> None:
    rows = [(1, "é", {"k": [1, None]}, None), (2, "b\nc", {}, 0.1 + 0.2), (3, "", {"k": []}, 1e-6)]
    cols = ["n", "t", "s", "f"]
    buf = io.StringIO()
    out = JsonWriter(buf, cols)
    out.write(rows[:1])
    out.write(rows[1:])
    out.close()
    expected = [dict(zip(cols, r, strict=True)) | {"f": r[3] and round(r[3], 12)} for r in rows]
    assert buf.getvalue() == json.dumps(expected, indent=2, ensure_ascii=False) + "\n"
    empty = io.StringIO()
    JsonWriter(empty, cols).close()
    assert empty.getvalue() == "[]\n"


def test_a_result_of_several_batches_prints_every_row(db: str) -> None:
    statement = "SELECT i, i % 3 = 0 AS three FROM range(25000) t(i)"  # three batches
    rows = json.loads(sql(db, statement, "--format", "json").stdout)
    assert len(rows) == 25000 and rows[-1] == {"i": 24999, "three": True}
    lines = sql(db, statement, "--format", "csv").stdout.splitlines()
    assert len(lines) == 25001 and lines[1] == "0,true" and lines[-1] == "24999,true"


def test_a_table_shows_its_first_rows_and_counts_the_rest(db: str) -> None:
    out = sql(db, "SELECT i FROM range(100) t(i)").stdout
    lines = table_lines(out)
    assert [r[0] for r in lines[2:42]] == [str(i) for i in range(40)]
    assert "(100 rows, 40 shown: --max-rows 0 shows all" in out
    lines = table_lines(sql(db, "SELECT i FROM range(100) t(i)", "--max-rows", "0").stdout)
    assert [r[0] for r in lines[2:]] == [str(i) for i in range(100)]
    out = sql(db, "SELECT i FROM range(40) t(i)").stdout
    assert "shown" not in out  # all of it fits: no footer


def test_help_says_how_repeated_names_are_made_unique() -> None:
    text = CliRunner().invoke(cli, ["sql", "--help"]).stdout
    assert '"a", "a_1"' in " ".join(text.split())
