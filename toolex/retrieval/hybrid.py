"""Hybrid retrieval: Reciprocal Rank Fusion of several retrievers' ranked lists, in SQL.

score(item) = sum_r 1 / (60 + rank_r(item)) over the component retrievers r (Cormack et al.,
SIGIR 2009). Each component contributes its top ``max(k, DEPTH)`` so an item ranked just below k
by one retriever and high by the other can still surface.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa

from toolex.retrieval.texts import Library, TextRow, arrow_query, registered
from toolex.store import Store

RRF_K = 60
DEPTH = 100


class HybridRetriever:
    kind = "hybrid"

    def __init__(self, spec: str, parts: list) -> None:
        self.spec = spec
        self.parts = parts
        self.model = " + ".join(p.model for p in parts)

    def describe(self) -> dict[str, object]:
        return {
            "model": self.model,
            "fusion": "rrf",
            "rrf_k": RRF_K,
            "depth": DEPTH,
            "parts": [{"spec": p.spec, **p.describe()} for p in self.parts],
        }

    def build(self, store: Store, library: Library) -> list:
        """Build (or refresh) the index of every dense part; BM25 needs none."""
        return [p.build(store, library) for p in self.parts if hasattr(p, "build")]

    def ranked(
        self,
        store: Store,
        library: Library,
        texts: Sequence[TextRow],
        scope: str,
        groups: dict,
        k: int,
    ) -> pa.Table:
        from toolex.retrieval.search import ranked_hits

        lists = []
        for i, part in enumerate(self.parts):
            ranked = ranked_hits(store, part, library, texts, scope, groups, max(k, DEPTH))
            lists.append(ranked.append_column("list_id", pa.array([i] * len(ranked), pa.int32())))
        with registered(store, "retrieval_lists", pa.concat_tables(lists)):
            return arrow_query(store, "retrieval/040_hybrid_rrf.sql", {"rrf_k": RRF_K, "k": k})
