"""Every read of toolex.expansions.queries runs on an empty store: the columns of each SQL file
are the fields of its row type (Store.typed checks them even when no row comes back), so a
renamed column fails here, in CI, not in an import."""

from __future__ import annotations

import pyarrow as pa

from toolex.expansions import queries
from toolex.store import Store


def test_every_typed_read_matches_its_sql_file() -> None:
    params = {"benchmark": "b", "expansion": "default"}
    keys = pa.table({"query_id": pa.array([], pa.string()), "slot": pa.array([], pa.int32())})
    with Store.memory() as store:
        assert queries.qrels_of_benchmark(store, "b") == []
        assert queries.subquery_references(store, params) == []
        with store.registered("new_candidate_keys", keys):
            assert queries.stored_candidates(store, params) == (0, None, 0)
        with store.registered("new_subqueries", keys):
            assert queries.stored_subqueries(store, params) == (0, None)
        combos = pa.table(
            {"query_id": pa.array([], pa.string()), "combo_id": pa.array([], pa.int32())}
        )
        with store.registered("new_combinations", combos):
            assert queries.conflicting_combination(store, params) is None
