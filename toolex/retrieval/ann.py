"""Vector search in a LanceDB table: exact (flat) up to ``ANN_THRESHOLD`` rows, through an
approximate index above it, and that index's parameters (``AnnParams``, ``DEFAULT_ANN``), chosen
and tuned with ``benchmarks/bench_ann.py``. Cosine distance throughout.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

ANN_THRESHOLD = 100_000  # rows; below it search is flat: exact, 5.5-14.5 ms/query at 50k rows
# Above it: IVF_FLAT, sqrt(rows) partitions, 192 probed, chosen with benchmarks/bench_ann.py
# (real WordLlama tool and query vectors, depth 20, against exact search, 2 cores at load 5-14; two
# runs; the reference, flat search over 50k rows measured in the same runs: 6.2-14.5 ms/query):
#   rows   flat ms/query  IVF_FLAT ms/query  recall@20   (with 128 probes: recall 0.99/0.98/0.94)
#   100k     17.7-21.3         1.7-2.0       0.997-1.000
#   200k     20.0-76.7         2.0-2.2       0.993-0.997  (recall@100 0.994; 1/8 scope 0.991)
#   1M        129-139          5.8-12.0      0.972-0.979  (384 probes: 0.998 at 9.5 ms)
# IVF_FLAT keeps exact vectors, so it needs no re-ranking. The quantised indexes need it and
# were slower at lower recall: at 200k IVF_HNSW_SQ (the old default: nprobes 32, refine 10) 13.2
# ms and 0.849, nprobes 64 20.8 ms and 0.922; IVF_SQ at most 0.928, IVF_RQ 0.915 (3-8 ms); at
# 100k IVF_PQ at most 0.944 (16 ms, 4-min build). Their recall is bounded by the partitions
# probed, which re-ranking cannot raise.
ANN_INDEX = "IVF_FLAT"
ANN_PARTITION_ROWS: int | None = None  # rows per IVF partition; None = sqrt(rows) partitions
ANN_NPROBES = 192
REFINE_FACTOR: int | None = None  # exact re-ranking of REFINE_FACTOR x depth candidates; none
# Query vectors per Lance call. Lance's exact re-ranking (refine_factor) opens the data file for
# each query of a call and holds it until the call returns: 1,000 queries on IVF_HNSW_SQ held
# 2,001 descriptors, so a 20k-query run in one call died with "Too many open files". IVF_FLAT
# needs no re-ranking and holds none; chunks bound the rest (any index type) at a few hundred.
SEARCH_BATCH = 64
FLAT_SEARCH_BATCH = 1024


@dataclass(frozen=True)
class AnnParams:
    """One approximate index and how it is searched; ``benchmarks/bench_ann.py`` sweeps these."""

    index_type: str = ANN_INDEX
    partition_rows: int | None = ANN_PARTITION_ROWS
    nprobes: int = ANN_NPROBES
    refine_factor: int | None = REFINE_FACTOR
    sub_vectors: int | None = None  # IVF_PQ / IVF_HNSW_PQ only; None = Lance's default

    def built_as(self) -> str:
        """What the table holds (search-time parameters change no file): the sidecar's record."""
        return f"{self.index_type}/{self.partition_rows or 'sqrt'}/{self.sub_vectors or '-'}"

    def create(self, table: Any, rows: int) -> None:
        """Build this index on ``table``'s ``vector`` column (cosine), replacing any other."""
        from lancedb import index

        kinds: dict[str, Any] = {
            "IVF_FLAT": index.IvfFlat,
            "IVF_SQ": index.IvfSq,
            "IVF_PQ": index.IvfPq,
            "IVF_RQ": index.IvfRq,
            "IVF_HNSW_SQ": index.HnswSq,
            "IVF_HNSW_PQ": index.HnswPq,
        }
        parts = rows // self.partition_rows if self.partition_rows else int(np.sqrt(rows))
        extra = {"num_sub_vectors": self.sub_vectors} if self.sub_vectors else {}
        config = kinds[self.index_type](
            distance_type="cosine", num_partitions=max(1, parts), **extra
        )
        table.create_index("vector", config=config, replace=True)


DEFAULT_ANN = AnnParams()


def vector_search(
    table: Any, queries: np.ndarray, limit: int, where: str | None, ann: AnnParams | None
) -> pa.Table:
    """Nearest ``limit`` rows by cosine per query row: ``query_index, item_id, _distance``.

    ``ann=None`` searches exactly (flat), else with ``ann``'s probes (and re-ranking, if it
    asks for any). Queries go to Lance ``SEARCH_BATCH`` at a time (see there: why).
    """
    parts = []
    # A flat search holds no descriptor per query, so it goes in larger calls: Lance's cost per
    # call (planning, its thread pool woken) was most of the demo's dense search.
    batch = SEARCH_BATCH if ann is not None else FLAT_SEARCH_BATCH
    for start in range(0, len(queries), batch):
        chunk = queries[start : start + batch]
        q = table.search(chunk if len(chunk) > 1 else chunk[0]).distance_type("cosine")
        q = q.select(["item_id", "_distance"]).limit(limit)
        if where is not None:
            q = q.where(where, prefilter=True)
        if ann is None:
            q = q.bypass_vector_index()
        else:
            q = q.nprobes(ann.nprobes)
            if ann.refine_factor:
                q = q.refine_factor(ann.refine_factor)
        hits = q.to_arrow()
        index = (
            hits.column("query_index").to_numpy().astype(np.int64)
            if "query_index" in hits.column_names
            else np.zeros(len(hits), np.int64)
        )
        parts.append(
            pa.table(
                {
                    "query_index": pa.array(index + start, pa.int64()),
                    "item_id": hits.column("item_id"),
                    "_distance": hits.column("_distance"),
                }
            )
        )
    if not parts:
        return pa.table(
            {
                "query_index": pa.array([], pa.int64()),
                "item_id": pa.array([], pa.string()),
                "_distance": pa.array([], pa.float32()),
            }
        )
    return pa.concat_tables(parts)
