from __future__ import annotations

import duckdb
import pytest

from toolex.errors import StoreError
from toolex.store import Store, schema_migrations


def test_fresh_store_is_at_latest_version(tmp_path):
    with Store.open(tmp_path / "a.duckdb") as s:
        assert s.schema_version == schema_migrations()[-1][0]
        tables = {
            r[0]
            for r in s.con.execute("SELECT table_name FROM information_schema.tables").fetchall()
        }
    assert {
        "items",
        "queries",
        "qrels",
        "runs",
        "run_results",
        "combinations",
        "llm_calls",
    } <= tables


def test_reopen_does_not_reapply(tmp_path):
    path = tmp_path / "a.duckdb"
    Store.open(path).close()
    with Store.open(path) as s:
        n = s.con.execute("SELECT count(*) FROM schema_version").fetchone()[0]
    assert n == len(schema_migrations())


def test_newer_store_is_refused(tmp_path):
    path = tmp_path / "a.duckdb"
    Store.open(path).close()
    con = duckdb.connect(str(path))
    con.execute("INSERT INTO schema_version (version, name) VALUES (999, '999_future.sql')")
    con.close()
    with pytest.raises(StoreError, match="newer than this toolex"):
        Store.open(path)


def test_transaction_rolls_back(store):
    with pytest.raises(RuntimeError), store.transaction() as con:
        con.execute("INSERT INTO benchmarks (benchmark, format, source) VALUES ('b', 'plain', 'x')")
        raise RuntimeError("boom")
    assert store.con.execute("SELECT count(*) FROM benchmarks").fetchone()[0] == 0


def test_read_only_missing_store_is_clear(tmp_path):
    with pytest.raises(StoreError, match="no store at"):
        Store.open(tmp_path / "missing.duckdb", read_only=True)


def test_fresh_store_accepts_relational_queries(tmp_path):
    # Regression: reading the schema version must not leave a pending result behind.
    with Store.open(tmp_path / "a.duckdb") as s:
        assert s.con.sql("SELECT 42").fetchall() == [(42,)]
