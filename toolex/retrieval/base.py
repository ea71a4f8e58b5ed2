"""What every retriever offers (the ``Retriever`` protocol) and the records its index reports.

A retriever is built from a spec string (:func:`toolex.retrieval.search.make_retriever`):
``BM25Retriever``, ``DenseRetriever`` and ``HybridRetriever`` (RRF of several) all satisfy
``Retriever``, so callers never ask which kind they hold: how a query is phrased with its
instruction is ``instruction_format``, what is indexed ahead of a search is ``build``, the ranked
lists are ``ranked``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import pyarrow as pa

from toolex.retrieval.texts import Library, ScopeGroups, TextRow
from toolex.store import Store


@dataclass
class EmbedStats:
    embedded: int = 0  # texts sent to the model
    cached: int = 0  # texts served from the cache


@dataclass
class IndexInfo:
    """The stored index one retriever searches; ``table`` is None when it keeps none (BM25)."""

    spec: str
    table: str | None
    rows: int
    ann: bool = False
    rebuilt: bool = False
    stats: EmbedStats = field(default_factory=EmbedStats)

    @property
    def index(self) -> str:
        if self.table is None:
            return "none (built per search)"
        return "ivf_flat" if self.ann else "flat"  # ann.ANN_INDEX (a test keeps them equal)


class Retriever(Protocol):
    spec: str  # as the user wrote it, e.g. "hybrid:bm25+wordllama"
    model: str  # human-readable model name, recorded with runs
    # How a query reads with its instruction: ``instruction_format.format(instruction=, query=)``.
    instruction_format: str

    def describe(self) -> dict[str, object]:
        """Everything that reproduces this retriever's rankings, recorded with each run."""
        ...

    def build(self, store: Store, library: Library) -> list[IndexInfo]:
        """Build or refresh what a search reads ahead of time: one IndexInfo per component."""
        ...

    def ranked(
        self,
        store: Store,
        library: Library,
        texts: Sequence[TextRow],
        scope: str,
        groups: ScopeGroups,
        depth: int,
    ) -> pa.Table:
        """Top ``depth`` per text as ``query_id, slot, item_id, score, rank`` (see ranking.py)."""
        ...
