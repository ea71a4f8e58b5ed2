"""From raw hits to the ranked table every retriever returns.

A single retriever (BM25, dense) scores one scope group at a time (``GroupSearcher``);
``ranked_hits`` runs it over every group and ranks the hits in SQL
(``sql/retrieval/030_rank_hits.sql``): ``query_id, slot, item_id, score, rank``, top ``depth``
per (query_id, slot), rank 1-based by trec_eval's rule (score descending, ties by item_id
descending).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import pyarrow as pa

from toolex.retrieval.texts import Library, ScopeGroups, TextRow
from toolex.store import Store


class GroupSearcher(Protocol):
    def prepare(self, store: Store, library: Library, texts: Sequence[TextRow]) -> None:
        """Whatever the searches of every group share (query embeddings, the index)."""
        ...

    def group_hits(
        self,
        library: Library,
        items: np.ndarray,
        texts: Sequence[TextRow],
        rows: np.ndarray,
        depth: int,
        scope: str,
        scope_value: str | None,
    ) -> pa.Table:
        """At least the top ``depth`` of ``items`` per text row in ``rows``: row, item_id, score."""
        ...


def ranked_hits(
    store: Store,
    searcher: GroupSearcher,
    library: Library,
    texts: Sequence[TextRow],
    scope: str,
    groups: ScopeGroups,
    depth: int,
) -> pa.Table:
    """One searcher's hits over every scope group, ranked and cut to ``depth`` in SQL."""
    searcher.prepare(store, library, texts)
    parts = [
        searcher.group_hits(library, items, texts, rows, depth, scope, value)
        for value, (rows, items) in groups.items()
    ]
    hits = pa.concat_tables(parts) if parts else _empty_hits()
    row = hits.column("row").to_numpy()
    qids = np.array([t[0] for t in texts], dtype=object)
    slots = np.array([t[1] for t in texts], dtype=np.int32)
    table = pa.table(
        {
            "query_id": pa.array(qids[row] if len(row) else [], pa.string()),
            "slot": pa.array(slots[row] if len(row) else [], pa.int32()),
            "item_id": hits.column("item_id"),
            "score": hits.column("score"),
        }
    )
    with store.registered("retrieval_hits", table):
        return store.arrow("retrieval/030_rank_hits.sql", {"depth": depth})


def _empty_hits() -> pa.Table:
    return pa.table(
        {
            "row": pa.array([], pa.int64()),
            "item_id": pa.array([], pa.string()),
            "score": pa.array([], pa.float64()),
        }
    )
