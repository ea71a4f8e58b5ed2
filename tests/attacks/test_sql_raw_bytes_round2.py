"""Raw bytes, round two (issue 37, point 13): a read-only `toolex sql` reaches the store's rows,
never its file: `query()`, `query_table()`, `EXPLAIN ANALYZE` of either, the block-reading
pragmas and any other table function DuckDB has beyond an allow-list (toolex.sqlaccess.readonly:
TABLE_FUNCTIONS, asked of DuckDB itself) are refused. A note deleted from every table stays
gone: none of the probes prints it, and each refused one leaves the store as it was."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from attacks.conftest import Kept, Ran
from attacks.tally import Tally

NOTE = "NOTE-7f3a-deleted-everywhere"


@pytest.fixture
def db(bench_db: str, toolex: Callable[..., Ran]) -> str:
    """A store whose file once held NOTE in a table since emptied and dropped."""
    for statement in (
        f"CREATE TABLE notes AS SELECT '{NOTE}' || i AS t FROM range(2000) t(i)",
        "DELETE FROM notes",
        "DROP TABLE notes",
    ):
        ran = toolex("sql", statement, "--write", "--db", bench_db)
        assert ran.code == 0, ran.err
    ran = toolex("sql", "SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'notes'",
                 "--format", "csv", "--db", bench_db)  # fmt: skip
    assert ran.out == "n\n0\n"
    return bench_db


def probes(db: str) -> list[str]:
    return [
        f"SELECT * FROM query('SELECT content FROM read_blob(''{db}'')')",
        f"FROM query('FROM read_text(''{db}.wal'')')",
        "FROM query('SELECT 1 AS one')",
        f"SELECT * FROM query_table('{db}')",
        "SELECT * FROM query_table(['items'])",
        f"SELECT * FROM query_table(['{db}'])",
        f"SELECT * FROM \"QUERY\"('FROM read_blob(''{db}'')')",
        f"SELECT (SELECT count(*) FROM query('FROM read_blob(''{db}'')')) AS n",
        f"EXPLAIN ANALYZE SELECT * FROM query('FROM read_blob(''{db}'')')",
        f"EXPLAIN ANALYZE FROM query_table('{db}')",
        f"explain   analyze   from read_blob('{db}')",
        f"EXPLAIN SELECT * FROM query('FROM read_blob(''{db}'')')",
        "FROM pragma_storage_info('items')",
        "PRAGMA storage_info('items')",
        "PRAGMA metadata_info",
        "FROM pragma_metadata_info()",
        "FROM seq_scan('items')",
        "FROM arrow_scan(0, 0, 0)",
        "FROM pandas_scan(0)",
        "FROM python_map_function('items', 'f', 0)",
        f"FROM parquet_kv_metadata('{db}')",
        f"FROM read_duckdb('{db}')",
        f"WITH x AS (FROM query('FROM read_blob(''{db}'')')) SELECT * FROM x",
        f"SELECT * FROM items, LATERAL (FROM query('FROM read_blob(''{db}'')'))",
    ]


def test_no_read_only_query_reads_the_store_file(db: str, toolex: Callable[..., Ran]) -> None:
    tally = Tally("sql round 2: raw bytes")
    before = Kept(db)
    for sql in probes(db):
        ran = toolex("sql", sql, "--db", db)
        leaked = NOTE in ran.out or NOTE in ran.err
        tally.record(sql[:60], ran.outcome, changed=before.changed(), leaked=leaked)
        assert ran.code == 2 and ran.err.startswith("error: "), (sql, ran.out[:200], ran.err)
        assert "--allow-files" in ran.err or "--write" in ran.err, (sql, ran.err)
    tally.check()


def test_what_a_read_only_query_may_call_still_works(db: str, toolex: Callable[..., Ran]) -> None:
    for sql, expected in (
        ("SELECT count(*) AS n FROM range(3)", "n\n3\n"),
        ("SELECT count(*) AS n FROM generate_series(1, 4)", "n\n4\n"),
        ("SELECT unnest([1, 2]) AS u", "u\n1\n2\n"),
        ("SELECT count(*) AS n FROM json_each('[1, 2]')", "n\n2\n"),
        ("SELECT count(*) > 5 AS many FROM duckdb_tables()", "many\ntrue\n"),
        ("SELECT count(*) > 0 AS some FROM pragma_table_info('items')", "some\ntrue\n"),
        ("EXPLAIN ANALYZE SELECT count(*) AS n FROM items", None),
        ("SUMMARIZE items", None),
    ):
        ran = toolex("sql", sql, "--format", "csv", "--db", db)
        assert ran.code == 0, (sql, ran.err)
        assert expected is None or ran.out == expected, (sql, ran.out)
        assert NOTE not in ran.out


def test_allow_files_lifts_the_table_function_rule(db: str, toolex: Callable[..., Ran]) -> None:
    """--allow-files is the documented door: query() runs (the store still read-only)."""
    ran = toolex("sql", "FROM query('SELECT 41 + 1 AS n')", "--allow-files", "--format", "csv",
                 "--db", db)  # fmt: skip
    assert ran.code == 0 and ran.out == "n\n42\n", ran.err
