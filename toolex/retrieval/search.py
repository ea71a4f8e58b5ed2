"""``search``: texts in, a ranked Arrow table out, for any retriever spec and scope."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from toolex.errors import InputError
from toolex.retrieval.bm25 import BM25Retriever
from toolex.retrieval.texts import (
    Library,
    TextRow,
    arrow_query,
    load_library,
    registered,
    scope_groups,
)
from toolex.store import Store


def make_retriever(spec: str):  # noqa: ANN201 - BM25Retriever | DenseRetriever | HybridRetriever
    """``bm25`` | ``wordllama`` | ``fastembed[:<model>[@<folder>]]`` | ``hybrid:<a>+<b>[+...]``."""
    spec = spec.strip()
    if spec == "bm25":
        return BM25Retriever()
    if spec.startswith("hybrid:"):
        from toolex.retrieval.hybrid import HybridRetriever

        parts = [p.strip() for p in spec[len("hybrid:") :].split("+")]
        if len(parts) < 2 or not all(parts) or any(p.startswith("hybrid:") for p in parts):
            raise InputError(
                f"hybrid spec {spec!r} needs two or more retrievers, e.g. hybrid:bm25+wordllama",
                field="retriever",
            )
        return HybridRetriever(spec, [make_retriever(p) for p in parts])
    from toolex.retrieval.dense import DenseRetriever

    return DenseRetriever(spec)


def search(
    store: Store,
    benchmark: str,
    retriever,  # noqa: ANN001 - a spec string or a retriever from make_retriever
    texts: Sequence[TextRow],
    k: int = 20,
    scope: str = "task",
    rendering: str = "default",
) -> pa.Table:
    """Top-``k`` items for each ``(query_id, slot, text)``, searched in the query's ``scope``.

    Returns a pyarrow.Table ``query_id, slot, item_id, score, rank`` ordered by query_id, slot,
    rank; rank is 1-based, ties by item_id descending (trec_eval's rule).
    """
    if k < 1:
        raise InputError(f"k must be at least 1, got {k}", field="k")
    r = _cached_retriever(retriever) if isinstance(retriever, str) else retriever
    texts = list(texts)
    library = load_library(store, benchmark, rendering)
    groups = scope_groups(store, benchmark, texts, library, scope) if texts else {}
    return ranked_hits(store, r, library, texts, scope, groups, k)


_LOADED: dict[str, object] = {}


def _cached_retriever(spec: str):  # noqa: ANN202
    """The pipeline calls search() once per batch with the same spec: load each model once."""
    if spec not in _LOADED:
        _LOADED[spec] = make_retriever(spec)
    return _LOADED[spec]


def ranked_hits(
    store: Store,
    r,  # noqa: ANN001 - any retriever
    library: Library,
    texts: Sequence[TextRow],
    scope: str,
    groups: dict,
    k: int,
) -> pa.Table:
    """One retriever's hits over every scope group, ranked and cut to k in SQL."""
    if hasattr(r, "ranked"):
        return r.ranked(store, library, texts, scope, groups, k)
    r.prepare(store, library, texts)
    parts = [
        r.group_hits(library, items, texts, rows, k, scope, value)
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
    with registered(store, "retrieval_hits", table):
        return arrow_query(store, "retrieval/030_rank_hits.sql", {"k": k})


def _empty_hits() -> pa.Table:
    return pa.table(
        {"row": pa.array([], pa.int64()), "item_id": pa.array([], pa.string()),
         "score": pa.array([], pa.float64())}
    )  # fmt: skip
