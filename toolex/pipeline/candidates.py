"""Stage 2a: the top-K candidates of each sub-query from the chosen retriever.

The library searched is the scope's (default: the whole benchmark, as the paper retrieves "over
the full tool library") in the chosen documentation rendering (default: items.text; any rendering
loaded with `toolex load docs`, e.g. Tool-DE-style expanded docs).

Each sub-query's list is written in one transaction together with its reference (the slot's
ground-truth tool), which gets its own retrieval rank or K+1 when the retriever missed it — the rank
the RRF of stage 3 charges an unretrieved reference. A sub-query either has its whole list or none,
so an interrupted stage resumes at the first sub-query without one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from toolex.pipeline.settings import CANDIDATES_PER_SUBQUERY, RENDERING, SCOPE
from toolex.pipeline.stage import StageContext, StageCounts, write_rows

# (store, benchmark, retriever, texts, depth, scope, rendering) -> pyarrow.Table
# (query_id, slot, item_id, score, rank): the signature of toolex.retrieval.search
SearchFn = Callable[..., Any]
BATCH = 256


def default_search() -> SearchFn:
    from toolex.retrieval import search

    return search


def run(
    ctx: StageContext,
    retriever: str,
    depth: int = CANDIDATES_PER_SUBQUERY,
    scope: str = SCOPE,
    search: SearchFn | None = None,
    rendering: str = RENDERING,
) -> StageCounts:
    counts = StageCounts("candidates")
    pending = ctx.store.rows("stages/2_candidates/01_candidates_pending.sql", ctx.params())
    counts.tasks = len(pending)
    if not pending:
        return counts
    search = search or default_search()
    ctx.progress.start(
        f"candidates {ctx.benchmark} ({retriever})", len(pending), unit="sub-queries"
    )
    try:
        for start in range(0, len(pending), BATCH):
            batch = pending[start : start + BATCH]
            texts = [(r["query_id"], r["slot"], r["text"]) for r in batch]
            table = search(
                ctx.store,
                ctx.benchmark,
                retriever,
                texts,
                depth=depth,
                scope=scope,
                rendering=rendering,
            )
            _write(ctx, batch, table.to_pylist(), retriever, depth)
            counts.ok += len(batch)
            ctx.progress.advance(len(batch))  # no calls of its own: BM25 and local models
    finally:
        ctx.progress.finish()
    counts.notes["reference_unretrieved"] = _unretrieved(ctx)
    return counts


def _write(
    ctx: StageContext,
    batch: Sequence[dict[str, Any]],
    hits: list[dict[str, Any]],
    retriever: str,
    depth: int,
) -> None:
    by_slot: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for h in hits:
        by_slot.setdefault((h["query_id"], int(h["slot"])), []).append(h)
    rows = []
    for sub in batch:
        key = (sub["query_id"], int(sub["slot"]))
        got = sorted(by_slot.get(key, []), key=lambda h: h["rank"])[:depth]
        seen = {h["item_id"] for h in got}
        for h in got:
            rows.append(
                dict(
                    query_id=key[0],
                    slot=key[1],
                    item_id=h["item_id"],
                    rank=int(h["rank"]),
                    score=float(h["score"]),
                    retriever=retriever,
                )
            )
        if sub["ref_item_id"] not in seen:
            rows.append(
                dict(
                    query_id=key[0],
                    slot=key[1],
                    item_id=sub["ref_item_id"],
                    rank=depth + 1,
                    score=None,
                    retriever=retriever,
                )
            )
    with ctx.store.transaction():
        write_rows(ctx.store, "stages/2_candidates/02_insert_candidate.sql", rows, ctx.base())


def _unretrieved(ctx: StageContext) -> int:
    return int(ctx.store.rows("stages/2_candidates/03_count_unretrieved.sql", ctx.params())[0]["n"])
