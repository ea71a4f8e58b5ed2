"""Reciprocal Rank Fusion: the one definition toolex uses (Cormack, Clarke & Buettcher, SIGIR 2009).

    rrf(item) = sum over the lists l holding item of 1 / (RRF_K + rank_l(item)),  ranks 1-based,

as ranx's ``rrf`` (ranx/fusion/rrf.py) with its default k = 60; an item absent from a list adds
nothing for it. The fused list is ranked by trec_eval's rule: score descending, ties by item_id
descending. The SQL is ``sql/runs/34_rrf.sql``; this module is the only caller.

Who fuses with it: a sub-query-level run (retrieved or imported) fuses its per-sub-query lists into
the query's list (:mod:`toolex.runs.write`); a hybrid retriever fuses its components' lists
(:mod:`toolex.retrieval.hybrid`); the pipeline scores assembled combinations with the same
``RRF_K`` (``sql/stages/4_assemble/02_rrf_rank.sql``).

Cut: a fused sub-query list is not cut (``depth=None``): it keeps every item any sub-query found.
Metrics cut at their own ``@n`` when they are computed, so a stored cut could only drop items:
it would lower Recall@n for every n beyond it and make the fused list's length depend on a
parameter no sub-query used. Retrieved and imported runs are fused alike. A hybrid retriever is a
retriever and returns its top ``k``, so it fuses with ``depth=k``.
"""

from __future__ import annotations

import pyarrow as pa

from toolex.store import Store

RRF_K = 60


def fuse(store: Store, lists: pa.Table, depth: int | None = None) -> pa.Table:
    """RRF of ranked lists, one fused list per ``(query_id, slot)``.

    ``lists`` has columns ``query_id, slot, list_id, item_id, rank`` (one row per list and item,
    rank 1-based within its list). Returns ``query_id, slot, item_id, score, rank`` ordered by
    query_id, slot, rank; ``depth`` keeps the top ``depth`` of each fused list, None keeps all.
    """
    if depth is not None and depth < 1:
        raise ValueError(f"depth must be at least 1 or None, got {depth}")
    with store.registered("rrf_lists", lists):
        return store.arrow("runs/34_rrf.sql", {"rrf_k": RRF_K, "depth": depth})


def fuse_subquery_lists(store: Store, run_id: str) -> pa.Table:
    """The stored sub-query lists of run ``run_id`` fused into one list per query (slot 0)."""
    return fuse(store, store.arrow("runs/33_subquery_lists.sql", {"run_id": run_id}))
