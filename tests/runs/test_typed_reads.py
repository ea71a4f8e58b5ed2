"""The runs package's typed reads run on an empty store: the columns of each SQL file are the
fields of its row type (Store.typed checks them even when no row comes back), so a renamed
column fails here, in CI, not in an import of a user's run."""

from __future__ import annotations

import pyarrow as pa

from toolex.runs.imports import DuplicateResult, SlotOutOfRange, UnknownQuery
from toolex.runs.plain import LinesCheck, RunLinesCheck
from toolex.runs.write import RunCounts, RunListing
from toolex.store import Store


def test_every_typed_read_matches_its_sql_file() -> None:
    bench = {"benchmark": "b"}
    results = pa.table(
        {
            "query_id": pa.array([], pa.string()),
            "slot": pa.array([], pa.int32()),
            "item_id": pa.array([], pa.string()),
            "line": pa.array([], pa.int64()),
        }
    )
    queries = pa.table(
        {
            "query_id": pa.array([], pa.string()),
            "line": pa.array([], pa.int64()),
            "n_rows": pa.array([], pa.int64()),
        }
    )
    lines = pa.table(
        {
            "line": pa.array([], pa.int64()),
            "plain": pa.array([], pa.bool_()),
            "tabs": pa.array([], pa.int64()),
            "fields": pa.array([], pa.list_(pa.string())),
        }
    )
    with Store.memory() as store:
        assert store.typed("runs/41_run_counts.sql", RunCounts, {"run_id": "r"}) == [
            RunCounts(0, 0)
        ]
        assert store.typed("runs/40_list_runs.sql", RunListing, {"benchmark": None}) == []
        with store.registered("run_queries", queries):
            assert store.typed("runs/20_unknown_queries.sql", UnknownQuery, bench) == []
        with store.registered("new_results", results):
            assert store.typed("runs/21_duplicate_results.sql", DuplicateResult) == []
            assert store.typed("runs/23_subquery_slots.sql", SlotOutOfRange, bench) == []
        with store.registered("plain_lines", lines):
            assert store.typed("runs/65_plain_qrels_check.sql", LinesCheck) == [LinesCheck(0, 0, 0)]
            assert store.typed("runs/62_plain_run_check.sql", RunLinesCheck, bench) == [
                RunLinesCheck(0, 0, 0, 0, 0)
            ]
