"""Dense retrieval: an embedder, the embedding cache and the LanceDB index, behind one retriever."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

import numpy as np
import pyarrow as pa

from toolex.progress import progress
from toolex.retrieval.ann import ANN_THRESHOLD, DEFAULT_ANN
from toolex.retrieval.base import EmbedStats, IndexInfo
from toolex.retrieval.embedders import Embedder, make_embedder
from toolex.retrieval.embedding_cache import embed_cached
from toolex.retrieval.index import DenseIndex
from toolex.retrieval.ranking import ranked_hits
from toolex.retrieval.texts import DENSE_INSTRUCTION, Library, ScopeGroups, TextRow
from toolex.store import Store


class DenseRetriever:
    """Cosine similarity between the query's and each tool's embedding (score = 1 - distance)."""

    instruction_format = DENSE_INSTRUCTION

    def __init__(self, spec: str, embedder: Embedder | None = None) -> None:
        self.spec = spec
        self.embedder = embedder or make_embedder(spec)
        self.model = self.embedder.model
        self.index: DenseIndex | None = None
        self._queries = np.zeros((0, self.embedder.dim), dtype=np.float32)
        self.query_stats: EmbedStats | None = None

    def describe(self) -> dict[str, object]:
        info = self.index.info if self.index else None
        return {
            "model": self.model,
            "embedder_key": self.embedder.key,
            "dim": self.embedder.dim,
            "max_words": self.embedder.max_words,
            "metric": "cosine",
            "index": info.index if info else "flat",
            "ann_threshold": ANN_THRESHOLD,
            **({"ann": asdict(DEFAULT_ANN)} if info and info.ann else {}),
        }

    def build(self, store: Store, library: Library) -> list[IndexInfo]:
        """Embed what the cache lacks and (re)write the LanceDB table if the library changed."""
        if self.index is None or self.index.library is not library:
            self.index = DenseIndex(store, self.embedder, library)
        return [self.index.build()]

    def ranked(
        self,
        store: Store,
        library: Library,
        texts: Sequence[TextRow],
        scope: str,
        groups: ScopeGroups,
        depth: int,
    ) -> pa.Table:
        return ranked_hits(store, self, library, texts, scope, groups, depth)

    def prepare(self, store: Store, library: Library, texts: Sequence[TextRow]) -> None:
        self.build(store, library)
        self._queries, self.query_stats = embed_cached(
            store, self.embedder, [t[2] for t in texts], "embedding queries"
        )

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
        assert self.index is not None, "prepare() first"
        with progress(f"{self.model} search", len(rows), unit="queries") as advance:
            hits = self.index.search(self._queries[rows], scope, scope_value, len(items), depth)
            advance(len(rows))
        source_rows = rows[hits.column("query_index").to_numpy()]
        return pa.table(
            {
                "row": pa.array(source_rows, pa.int64()),
                "item_id": hits.column("item_id"),
                "score": hits.column("score"),
            }
        )
