"""The store's schema version: a fresh store is at the latest, a reopen applies nothing, a newer
file is refused, and a file an older schema left migrates with its rows kept."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import duckdb
import pytest

from toolex.checks import violations
from toolex.errors import StoreError
from toolex.store import Store, schema_migrations


def test_fresh_store_is_at_latest_version(tmp_path: Path) -> None:
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


def test_reopen_does_not_reapply(tmp_path: Path) -> None:
    path = tmp_path / "a.duckdb"
    Store.open(path).close()
    with Store.open(path) as s:
        n = s.con.execute("SELECT count(*) FROM schema_version").fetchall()[0][0]
    assert n == len(schema_migrations())


def test_newer_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.duckdb"
    Store.open(path).close()
    con = duckdb.connect(str(path))
    con.execute("INSERT INTO schema_version (version, name) VALUES (999, '999_future.sql')")
    con.close()
    with pytest.raises(StoreError, match="newer than this toolex"):
        Store.open(path)


def _store_at(
    path: Path,
    version: int,
    keyed: dict[str, str],
    rows: Mapping[str, Sequence[tuple[object, ...]]],
) -> None:
    """A store file as an older schema left it: each table of ``keyed`` recreated from its
    CREATE statement and filled with its ``rows``, and the migrations from ``version`` on
    forgotten, so the next open runs them."""
    Store.open(path).close()
    con = duckdb.connect(str(path))
    for table, create in keyed.items():
        con.execute(f"DROP TABLE {table}")
        con.execute(create)
        marks = ", ".join("?" * len(rows[table][0]))
        con.executemany(f"INSERT INTO {table} VALUES ({marks})", rows[table])
    con.execute("DELETE FROM schema_version WHERE version >= ?", [version])
    con.close()


def _primary_keys(store: Store, *tables: str) -> int:
    count: int = store.con.execute(
        "SELECT count(*) FROM duckdb_constraints() WHERE list_contains(?, table_name)"
        " AND constraint_type = 'PRIMARY KEY'",
        [list(tables)],
    ).fetchall()[0][0]
    return count


def test_schema_065_keeps_the_members_and_drops_their_key(tmp_path: Path) -> None:
    """A store at 064 (combination_items keyed) migrates to 065 with the same rows and no key,
    whose index DuckDB could not evict at library scale."""
    path = tmp_path / "old.duckdb"
    rows = [("b", "default", "q1", c, s, f"t{c}{s}") for c in (1, 0) for s in (1, 0)]
    create = (
        "CREATE TABLE combination_items (benchmark VARCHAR NOT NULL, expansion VARCHAR NOT NULL,"
        " query_id VARCHAR NOT NULL, combo_id INTEGER NOT NULL, slot INTEGER NOT NULL,"
        " item_id VARCHAR NOT NULL, PRIMARY KEY (benchmark, expansion, query_id, combo_id, slot))"
    )
    _store_at(path, 65, {"combination_items": create}, {"combination_items": rows})
    with Store.open(path) as s:
        assert s.schema_version == schema_migrations()[-1][0] >= 65
        got = s.con.execute("SELECT * FROM combination_items").fetchall()
        assert got == sorted(rows)  # every row, in key order
        assert _primary_keys(s, "combination_items") == 0


def test_schema_067_keeps_the_run_results_and_drops_their_keys(tmp_path: Path) -> None:
    """A store at 066 (run_results and subquery_results keyed) migrates to 067 with the same rows
    and no keys (their indexes cost most of a run's import); `toolex check` then holds the line
    the keys held."""
    path = tmp_path / "old.duckdb"
    results = [("r", "q1", "b", 0.5, 2), ("r", "q1", "a", 0.9, 1), ("r", "q0", "a", 0.1, 1)]
    sub = [("s", "q1", 1, "b", 0.5, 1), ("s", "q1", 0, "a", 0.9, 1)]
    keyed = {
        "run_results": "CREATE TABLE run_results (run_id VARCHAR NOT NULL, query_id VARCHAR"
        " NOT NULL, item_id VARCHAR NOT NULL, score DOUBLE NOT NULL, rank INTEGER NOT NULL,"
        " PRIMARY KEY (run_id, query_id, item_id))",
        "subquery_results": "CREATE TABLE subquery_results (run_id VARCHAR NOT NULL, query_id"
        " VARCHAR NOT NULL, slot INTEGER NOT NULL, item_id VARCHAR NOT NULL, score DOUBLE NOT"
        " NULL, rank INTEGER NOT NULL, PRIMARY KEY (run_id, query_id, slot, item_id))",
    }
    _store_at(path, 67, keyed, {"run_results": results, "subquery_results": sub})
    with Store.open(path) as s:
        assert s.schema_version == schema_migrations()[-1][0] >= 67
        got = s.con.execute("SELECT * FROM run_results").fetchall()
        assert got == [results[2], results[1], results[0]]  # by run, query, rank
        assert s.con.execute("SELECT * FROM subquery_results").fetchall() == sorted(sub)
        assert _primary_keys(s, "run_results", "subquery_results") == 0
        assert not violations(s)
        s.con.execute("INSERT INTO run_results VALUES ('r', 'q1', 'a', 0.9, 1)")
        s.con.execute("INSERT INTO subquery_results VALUES ('s', 'q1', 0, 'a', 0.9, 1)")
        failed = {c.name: c.rows for c in violations(s)}
        assert failed["run_results_unique"] == [("r", "q1", "a", 2)]
        assert failed["subquery_results_unique"] == [("s", "q1", 0, "a", 2)]


def test_schema_072_renames_ref_item_id_to_reference(tmp_path: Path) -> None:
    """A store at 071 (subqueries.ref_item_id) migrates to 072: the column is ``reference``, with
    the same values, still NOT NULL and the key unchanged, and the SQL that reads it works."""
    path = tmp_path / "old.duckdb"
    rows = [
        ("b", "default", "q1", s, f"find {s}", None, None, f"t{s}", "import", None) for s in (1, 0)
    ]
    create = (
        "CREATE TABLE subqueries (benchmark VARCHAR NOT NULL, expansion VARCHAR NOT NULL,"
        " query_id VARCHAR NOT NULL, slot INTEGER NOT NULL, text VARCHAR NOT NULL,"
        " operation VARCHAR, entity VARCHAR, ref_item_id VARCHAR NOT NULL, judge VARCHAR,"
        " call_id VARCHAR, PRIMARY KEY (benchmark, expansion, query_id, slot))"
    )
    _store_at(path, 72, {"subqueries": create}, {"subqueries": rows})
    with Store.open(path) as s:
        assert s.schema_version == schema_migrations()[-1][0] >= 72
        columns = s.con.execute(
            "SELECT column_name, is_nullable FROM information_schema.columns"
            " WHERE table_name = 'subqueries' ORDER BY ordinal_position"
        ).fetchall()
        assert [c for c, _ in columns] == [
            "benchmark", "expansion", "query_id", "slot", "text", "operation", "entity",
            "reference", "judge", "call_id",
        ]  # fmt: skip
        assert dict(columns)["reference"] == "NO"
        got = s.rows(
            "expansions/25_expansion_subqueries.sql", {"benchmark": "b", "expansion": "default"}
        )
        assert got == [
            {"query_id": "q1", "slot": 0, "reference": "t0"},
            {"query_id": "q1", "slot": 1, "reference": "t1"},
        ]
        assert _primary_keys(s, "subqueries") == 1
        with pytest.raises(duckdb.ConstraintException):
            s.con.execute(
                "INSERT INTO subqueries VALUES "
                + "('b', 'default', 'q1', 0, 'x', NULL, NULL, 't', NULL, NULL)"
            )
