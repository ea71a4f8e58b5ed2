"""Every read of toolex.exports.queries runs on an empty store: the columns of each SQL file are
the fields of its row type (Store.typed checks them even when no row comes back), so a renamed
column fails here, in CI, not in an export on real data."""

from __future__ import annotations

from toolex.exports import queries
from toolex.store import Store


def test_every_typed_read_matches_its_sql_file() -> None:
    with Store.memory() as store:
        assert queries.toolbench_combinations(store, "b", "default") == []
        assert queries.toolret_queries(store, "b") == []
        edges = queries.equivalence_edges_table(store, "b", "default")
        assert edges.num_rows == 0
        with store.registered("equivalence_edges", edges):
            assert queries.graph_nodes(store, "b") == []
            assert queries.graph_links(store) == []
            assert queries.platform_pairs(store, "b", 1) == []
