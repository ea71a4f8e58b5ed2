"""Explicit dependency edges added to a loaded benchmark: ``toolex.loaders`` is the one writer of
``dependency_edges``. A load writes the edges its format carries with the benchmark
(``write_benchmark``); an import that carries a query's call chain (the combinations import's
``dependencies``) hands its edges here. Either way they are facts about the benchmark's plan, not
about one expansion, so every expansion's assembly and audit read them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import pyarrow as pa

from toolex.loaders.schemas import EDGE_SCHEMA
from toolex.store import Store


class DependencyEdge(NamedTuple):
    """One producer->consumer edge of a query, its ends slots of the query's original
    combination (qrels.slot): a ``dependency_edges`` row without its benchmark."""

    query_id: str
    producer_slot: int
    consumer_slot: int
    value: str  # what is handed over (a field name); '' = unnamed
    source: str  # loaded | imported
    origin: str | None  # the file (or format) the edge was read from


def add_dependency_edges(store: Store, benchmark: str, edges: Sequence[DependencyEdge]) -> None:
    """Store ``edges`` of ``benchmark``'s queries inside the caller's transaction; an edge
    already stored (loaded, or imported before) is kept as it is."""
    table = pa.Table.from_pylist([e._asdict() for e in edges], schema=EDGE_SCHEMA)
    with store.registered("new_edges", table):
        store.execute("load/25_add_dependency_edges.sql", {"benchmark": benchmark})
