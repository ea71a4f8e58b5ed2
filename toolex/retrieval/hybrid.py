"""Hybrid retrieval: Reciprocal Rank Fusion of several retrievers' ranked lists.

score(item) = sum_r 1 / (RRF_K + rank_r(item)) over the component retrievers r (Cormack et al.,
SIGIR 2009), computed by toolex's one RRF (:mod:`toolex.runs.rrf`, RRF_K = 60). Each component
contributes its top ``max(depth, PART_DEPTH)`` so an item ranked just below ``depth`` by one
retriever and high by another can still surface; the fused list is cut to ``depth`` like any
retriever's.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa

from toolex.retrieval.base import IndexInfo, Retriever
from toolex.retrieval.texts import DENSE_INSTRUCTION, Library, ScopeGroups, TextRow
from toolex.runs.rrf import RRF_K, fuse
from toolex.store import Store

PART_DEPTH = 100  # the least depth each component searches to


class HybridRetriever:
    # One text per query feeds every component, phrased as the dense models expect (ToolRet
    # has no hybrid; the dense components are the ones an instruction prompt was trained for).
    instruction_format = DENSE_INSTRUCTION

    def __init__(self, spec: str, parts: Sequence[Retriever]) -> None:
        self.spec = spec
        self.parts = list(parts)
        self.model = " + ".join(p.model for p in parts)

    def describe(self) -> dict[str, object]:
        return {
            "model": self.model,
            "fusion": "rrf",
            "rrf_k": RRF_K,
            "depth": PART_DEPTH,
            "parts": [{"spec": p.spec, **p.describe()} for p in self.parts],
        }

    def build(self, store: Store, library: Library) -> list[IndexInfo]:
        """Build (or refresh) what every component reads ahead of a search."""
        return [info for p in self.parts for info in p.build(store, library)]

    def ranked(
        self,
        store: Store,
        library: Library,
        texts: Sequence[TextRow],
        scope: str,
        groups: ScopeGroups,
        depth: int,
    ) -> pa.Table:
        lists = []
        for i, part in enumerate(self.parts):
            ranked = part.ranked(store, library, texts, scope, groups, max(depth, PART_DEPTH))
            lists.append(ranked.append_column("list_id", pa.array([i] * len(ranked), pa.int32())))
        return fuse(store, pa.concat_tables(lists), depth=depth)
