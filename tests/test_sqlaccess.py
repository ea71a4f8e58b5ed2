"""`toolex sql`: read-only by default (parser and connection), outputs, transpiled shipped SQL."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import sqlglot
from click.testing import CliRunner
from reports.fixtures import build

from toolex.cli.sql import sql as sql_cmd
from toolex.errors import ToolexError
from toolex.sqlaccess import (
    DIALECTS,
    PORTABLE_FOLDERS,
    STRICT_DIALECTS,
    SqlRefused,
    check_read_only,
    run_sql,
    shipped_sql_names,
    transpile,
    transpile_shipped,
)
from toolex.store import Store


@pytest.fixture
def db(store: Store, tmp_path: Path) -> str:
    build(store)
    path = store.path
    store.close()
    return path


@pytest.mark.parametrize(
    "statement",
    [
        "SELECT 1",
        "FROM items",
        "WITH a AS (SELECT 1 AS x) SELECT x FROM a",
        "DESCRIBE items",
        "SHOW TABLES",
        "SUMMARIZE items",
        "EXPLAIN SELECT 1",
        "VALUES (1), (2)",
        "SELECT 1 UNION ALL SELECT 2",
        "PRAGMA table_info('items')",
    ],
)
def test_queries_pass(statement: str) -> None:
    check_read_only(statement)


@pytest.mark.parametrize(
    ("statement", "named"),
    [
        ("DELETE FROM items", "DELETE"),
        ("INSERT INTO runs SELECT * FROM runs", "INSERT"),
        ("UPDATE items SET name = 'x'", "UPDATE"),
        ("DROP TABLE items", "DROP"),
        ("CREATE TABLE x AS SELECT 1", "CREATE"),
        ("COPY items TO 'x.csv'", "COPY"),
        ("ATTACH 'other.duckdb'", "ATTACH"),
        ("SELECT * INTO x FROM items", "INTO"),
        ("EXPLAIN ANALYZE DELETE FROM items", "DELETE"),
        ("PRAGMA threads = 1", "PRAGMA"),
        ("SELECT 1; DELETE FROM items", "one statement"),
    ],
)
def test_writes_are_refused_with_a_message_naming_them(statement: str, named: str) -> None:
    with pytest.raises(SqlRefused, match=named):
        check_read_only(statement)


def test_delete_via_cli_is_refused_and_the_store_is_unchanged(db: str) -> None:
    before = run_sql(db, "SELECT count(*) AS n FROM items").to_pylist()
    result = CliRunner().invoke(sql_cmd, ["DELETE FROM items", "--db", db])
    assert result.exit_code != 0
    assert isinstance(result.exception, SqlRefused)
    assert "DELETE statement is not a query" in str(result.exception)
    assert "--write" in str(result.exception)
    assert run_sql(db, "SELECT count(*) AS n FROM items").to_pylist() == before == [{"n": 28}]


def test_connection_is_read_only_even_if_the_parser_were_fooled(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("toolex.sqlaccess.readonly.check_read_only", lambda sql, **_: None)
    with pytest.raises(ToolexError, match="read-only"):
        run_sql(db, "DELETE FROM items")
    assert run_sql(db, "SELECT count(*) AS n FROM items").to_pylist() == [{"n": 28}]


def test_write_flag_allows_changes(db: str) -> None:
    run_sql(db, "DELETE FROM items WHERE item_id = 'w14'", write=True)
    assert run_sql(db, "SELECT count(*) AS n FROM items").to_pylist() == [{"n": 27}]


def test_output_formats(db: str, tmp_path: Path) -> None:
    runner = CliRunner()
    q = "SELECT run_id, level FROM runs ORDER BY run_id"
    res = runner.invoke(sql_cmd, [q, "--db", db, "--format", "json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output) == [
        {"run_id": "bm25", "level": "query"},
        {"run_id": "bm25-ft", "level": "query"},
        {"run_id": "sub-bm25", "level": "subquery"},
    ]
    res = runner.invoke(sql_cmd, [q, "--db", db, "--format", "csv"])
    assert res.output.splitlines() == [
        "run_id,level",
        "bm25,query",
        "bm25-ft,query",
        "sub-bm25,subquery",
    ]
    out = tmp_path / "runs.parquet"
    res = runner.invoke(sql_cmd, [q, "--db", db, "--format", "parquet", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert pq.read_table(out).column("run_id").to_pylist() == ["bm25", "bm25-ft", "sub-bm25"]
    res = runner.invoke(sql_cmd, [q, "--db", db, "--format", "parquet"])
    assert res.exit_code != 0 and "--out" in res.output


def test_bad_sql_is_a_clear_error(db: str) -> None:
    with pytest.raises(ToolexError, match="no_such_table"):
        run_sql(db, "SELECT * FROM no_such_table")


def test_show_prints_transpiled_sql() -> None:
    name = shipped_sql_names()[0]
    res = CliRunner().invoke(sql_cmd, ["--show", name, "--dialect", "spark"])
    assert res.exit_code == 0, res.output
    assert res.stdout == transpile_shipped(name, "spark")  # a warning may go to stderr
    with pytest.raises(ToolexError, match="no shipped SQL file"):
        transpile_shipped("stages/99_nothing.sql", "spark")


def test_transpile_rewrites_duckdb_only_syntax() -> None:
    out = transpile("SELECT list_value(1, 2) AS x FROM t WHERE a = $name", "spark", pretty=False)
    assert out == "SELECT ARRAY(1, 2) AS x FROM t WHERE a = :name;\n"


@pytest.mark.parametrize("dialect", [d for d in DIALECTS if d != "duckdb"])
def test_every_shipped_file_transpiles_and_parses_back(dialect: str) -> None:
    """Each file either comes out as SQL that parses in the target dialect, or (outside the
    strict dialects) is refused with a message naming the file and the construct."""
    failures, refused = [], []
    for name in shipped_sql_names():
        try:
            text = transpile_shipped(name, dialect)
        except ToolexError as exc:
            assert name in str(exc) and dialect in str(exc)
            refused.append(name)
            continue
        try:
            parsed = sqlglot.parse(text, read=dialect)
            assert parsed and all(p is not None for p in parsed)
        except Exception as exc:  # collect all, so one report names every file that fails
            failures.append(f"{name}: {str(exc)[:200]}")
    assert not failures, "\n".join(failures)
    if dialect in STRICT_DIALECTS:
        portable = [n for n in refused if n.split("/")[0] in PORTABLE_FOLDERS]
        assert not portable, f"{dialect} must express the pipeline's SQL; refused: {portable}"


def test_list_names_the_shipped_files() -> None:
    res = CliRunner().invoke(sql_cmd, ["--list"])
    assert res.exit_code == 0
    names = res.output.splitlines()
    assert "reports/72_significance_randomisation.sql" in names
    assert names == shipped_sql_names()
