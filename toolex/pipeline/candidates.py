"""Stage 2a: the top-K candidates of each sub-query from the chosen retriever.

The library searched is the scope's (default: the whole benchmark, as the paper retrieves "over
the full tool library") in the chosen documentation rendering (default: items.text; any rendering
loaded with `toolex load docs`, e.g. Tool-DE-style expanded docs; items it does not document are
searched in their default text, counted in the stage's notes as ``rendering_fallback``).

Each sub-query's list is written in one transaction together with its reference (the slot's
ground-truth tool), which gets its own retrieval rank or K+1 when the retriever missed it — the rank
the RRF of stage 3 charges an unretrieved reference. A sub-query either has its whole list or none,
so an interrupted stage resumes at the first sub-query without one. Sub-queries whose lists were
imported (`toolex load candidates`, toolex.expansions.candidates) already have one and are left
alone. The rows go to their owner, toolex.expansions, as typed records.

With the retriever ``imported`` (:data:`IMPORTED`) the stage retrieves nothing: every list must
be one `toolex load candidates` imported, and :func:`check_source` refuses the run, before any
stage, when a selected sub-query has none. Any other retriever is refused over an expansion that
holds imported lists where some selected sub-query lacks one: its list would be drawn by another
retriever beside the imported ones, silently (issue 35.17).

The retriever may be an embedding endpoint (``compat-embed:``, ``openai-embed:``): its calls are
in the call ledger, and this stage counts them (calls, cost) like a judged stage's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolex import expansions
from toolex.errors import InputError
from toolex.expansions import CandidateRow
from toolex.pipeline import queries
from toolex.pipeline.settings import CANDIDATES_PER_SUBQUERY, RENDERING, SCOPE
from toolex.pipeline.stage import StageContext, StageCounts

if TYPE_CHECKING:
    import pyarrow as pa

    from toolex.store import Store

# The candidate "retriever" that retrieves nothing: every list is one `toolex load candidates`
# imported, and a sub-query without one stops the run (check_source). A word of this stage, not
# a default: settings.py holds the defaults.
IMPORTED = "imported"
# (store, benchmark, retriever, texts, depth, scope, rendering) -> pyarrow.Table
# (query_id, slot, item_id, score, rank): the signature of toolex.retrieval.search
SearchFn = Callable[..., Any]
BATCH = 256


def default_search() -> SearchFn:
    from toolex.retrieval import search

    return search


def check_retriever(retriever: str) -> None:
    """Build the retriever a run will search with before any stage runs, so a bad spec or a
    missing endpoint key stops the run before the decomposer spends a call (the built
    retriever is the one the search uses: toolex.retrieval.search loads each spec once)."""
    from toolex.retrieval.search import cached_retriever

    if retriever != IMPORTED:
        cached_retriever(retriever)


def check_source(
    store: Store, benchmark: str, expansion: str, query_ids: Sequence[str], retriever: str
) -> None:
    """Refuse a run whose candidates stage would not use the lists it was told to: with
    ``imported``, any selected sub-query without an imported list (or query without
    sub-queries); with another retriever, the same over an expansion holding imported lists.
    Called before any stage runs, so nothing is spent or written first."""
    found = store.rows(
        "stages/2_candidates/04_imported_lists.sql",
        {"benchmark": benchmark, "expansion": expansion, "query_ids": list(query_ids)},
    )[0]
    lacking = found["missing_subqueries"] + found["unsplit_queries"]
    if not lacking or (retriever != IMPORTED and not found["imported"]):
        return
    what = []
    if found["missing_subqueries"]:
        what.append(
            f"{found['missing_subqueries']} sub-queries of {found['missing_queries']} queries "
            "have no candidate list"
        )
    if found["unsplit_queries"]:
        what.append(f"{found['unsplit_queries']} queries have no sub-queries yet")
    missing = f"{' and '.join(what)} (e.g. {found['first_missing']})"
    load = f"`toolex load candidates FILE --benchmark {benchmark} --expansion {expansion}`" + (
        ", after `toolex expand --stage decompose`" if found["unsplit_queries"] else ""
    )
    if retriever == IMPORTED:
        held = (
            f"holds imported lists ({found['source']}) for {found['imported']} sub-queries, but"
            if found["imported"]
            else "holds no imported lists:"
        )
        raise InputError(
            f"--retriever {IMPORTED} uses only the lists `toolex load candidates` imported, and "
            f"expansion {expansion!r} of {benchmark!r} {held} {missing}: import them first "
            f"({load}), or select the queries that have lists (--queries)",
            field="--retriever",
        )
    raise InputError(
        f"expansion {expansion!r} of {benchmark!r} holds candidate lists imported with `toolex "
        f"load candidates` ({found['source']}) for {found['imported']} sub-queries, and "
        f"{missing}: --retriever {retriever} would draw those beside the imported ones. Import "
        f"them too ({load}), select the queries that have lists (--queries), or retrieve in a "
        "new --expansion",
        field="--retriever",
    )


@dataclass(frozen=True)
class Retrieval:
    """How the candidates stage retrieves: the run's settings it reads (runner.Settings)."""

    retriever: str
    depth: int = CANDIDATES_PER_SUBQUERY
    scope: str = SCOPE
    rendering: str = RENDERING


def run(ctx: StageContext, retrieval: Retrieval, search: SearchFn | None = None) -> StageCounts:
    from toolex.retrieval import public_retriever_spec

    retriever, depth, scope = retrieval.retriever, retrieval.depth, retrieval.scope
    rendering = retrieval.rendering

    counts = StageCounts("candidates")
    pending = queries.candidates_pending(ctx.store, ctx.params())
    counts.tasks = len(pending)
    if not pending:
        return counts
    if retriever == IMPORTED:  # check_source refused this before any stage; never search
        first = pending[0]
        raise InputError(
            f"sub-query {first.query_id}#{first.slot} of expansion {ctx.expansion!r} has no "
            f"imported candidate list, and --retriever {IMPORTED} retrieves none",
            field="--retriever",
        )
    search = search or default_search()
    shown = public_retriever_spec(retriever)  # what the rows record: no credentials
    spent = _embed_spend(ctx, shown)
    ctx.progress.start(f"candidates {ctx.benchmark} ({shown})", len(pending), unit="sub-queries")
    try:
        for start in range(0, len(pending), BATCH):
            batch = pending[start : start + BATCH]
            texts = [(r.query_id, r.slot, r.text) for r in batch]
            table = search(
                ctx.store,
                ctx.benchmark,
                retriever,
                texts,
                depth=depth,
                scope=scope,
                rendering=rendering,
            )
            _write(ctx, batch, _hits(table), shown, depth)
            counts.ok += len(batch)
            calls, cost = _embed_spend(ctx, shown)
            counts.calls, counts.cost_usd = calls - spent[0], cost - spent[1]
            # the stage's own embedding calls: ctx.calls counts the judges'
            ctx.progress.advance(len(batch), calls=counts.calls, cost_usd=counts.cost_usd)
    finally:
        ctx.progress.finish()
    counts.notes["reference_unretrieved"] = _unretrieved(ctx)
    fallback = _fallback(ctx, rendering)
    if fallback:
        counts.notes["rendering_fallback"] = fallback
    return counts


# One search hit: (query_id, slot, item_id, rank, score).
Hit = tuple[str, int, str, int, float]


def _hits(table: pa.Table) -> list[Hit]:
    """The search's rows as tuples, read a column at a time: ``Table.to_pylist`` built a dict
    per row through Arrow's scalars, 0.15-0.3 CPU-s for the demo's 14,948 candidates."""
    columns = [table.column(c).to_pylist() for c in ("query_id", "slot", "item_id", "rank")]
    return list(zip(*columns, table.column("score").to_pylist(), strict=True))


def _write(
    ctx: StageContext,
    batch: Sequence[queries.PendingSubquery],
    hits: list[Hit],
    retriever: str,
    depth: int,
) -> None:
    by_slot: dict[tuple[str, int], list[Hit]] = {}
    for h in hits:
        by_slot.setdefault((h[0], int(h[1])), []).append(h)
    rows = []
    for sub in batch:
        key = (sub.query_id, int(sub.slot))
        got = sorted(by_slot.get(key, []), key=lambda h: h[3])[:depth]
        seen = {h[2] for h in got}
        for _, _, item_id, rank, score in got:
            rows.append(CandidateRow(key[0], key[1], item_id, int(rank), float(score), retriever))
        if sub.reference not in seen:
            rows.append(CandidateRow(key[0], key[1], sub.reference, depth + 1, None, retriever))
    with ctx.store.transaction():
        expansions.insert_candidates(ctx.store, ctx.benchmark, ctx.expansion, rows)


def _unretrieved(ctx: StageContext) -> int:
    return int(ctx.store.rows("stages/2_candidates/03_count_unretrieved.sql", ctx.params())[0]["n"])


def _embed_spend(ctx: StageContext, retriever: str) -> tuple[int, float]:
    """Embedding calls in the ledger for ``retriever`` so far, and their cost (0 for a local
    retriever, which makes none)."""
    row = ctx.store.rows("stages/2_candidates/02_embed_calls.sql", {"retriever": retriever})[0]
    return int(row["calls"]), float(row["cost_usd"])


def _fallback(ctx: StageContext, rendering: str) -> int:
    """Items the rendering does not document, searched in their default text."""
    from toolex.retrieval.texts import load_library

    return (
        load_library(ctx.store, ctx.benchmark, rendering).fallback if rendering != "default" else 0
    )
