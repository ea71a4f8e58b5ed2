"""The verdict level's search past the candidate depth: the items the expansion's candidate
retriever ranks for a sub-query just past the stored candidates, which the unjudged part of a
verdict-level sample draws from (toolex.review.sample), so that the recall estimate counts the
equivalents the pipeline never retrieved deep enough to judge.

They are computed at draw time with ``toolex.retrieval.search`` over the expansion's scope, to
depth + ``beyond`` (:data:`BEYOND` = 20 by default, so ranks 21-40 for the default depth of 20).
The retriever, depth and scope are the expansion's recorded settings (else what its candidates
show; sql/review/40_verdict_settings.sql); ``retriever`` overrides the spec, ``beyond=0``
searches nothing (the sample then draws stored rows only). Recall estimates are therefore
recall within the retriever's top depth + beyond.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pyarrow as pa

from toolex.errors import InputError, ModelUnavailableError, ToolexError
from toolex.review.queries import retrieved_subqueries, verdict_settings
from toolex.store import Store

BEYOND = 20  # ranks searched past the candidate depth for the unjudged part
SearchFn = Callable[..., pa.Table]  # the signature of toolex.retrieval.search
BEYOND_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("slot", pa.int32()),
        ("item_id", pa.string()),
        ("rank", pa.int32()),
    ]
)


@dataclass(frozen=True)
class Beyond:
    """What the retriever ranks past the candidate depth, and how it was searched (the row of
    review_verdict_draws): ``retriever`` and ``scope`` are None, ``beyond`` 0, when nothing was
    searched."""

    hits: pa.Table  # query_id, slot, item_id, rank (BEYOND_SCHEMA)
    retriever: str | None
    depth: int | None  # the expansion's candidate depth
    beyond: int
    scope: str | None


def ranked_beyond(
    store: Store,
    benchmark: str,
    expansion: str,
    *,
    beyond: int,
    retriever: str | None = None,
    search: SearchFn | None = None,
) -> Beyond:
    """Search each retrieved sub-query of the expansion to depth + ``beyond``; nothing when
    ``beyond`` is 0 or the expansion records no depth or retriever. ``search`` replaces
    toolex.retrieval.search."""
    settings = verdict_settings(store, benchmark, expansion)
    depth = settings.config_depth or settings.depth
    spec = retriever or settings.config_retriever or settings.retriever
    if not (beyond and depth and spec):
        return Beyond(pa.Table.from_pylist([], schema=BEYOND_SCHEMA), None, depth, 0, None)
    scope, hits = _search(
        store,
        benchmark,
        expansion,
        spec,
        depth + beyond,
        settings.config_scope or "auto",
        search or _default_search(),
    )
    return Beyond(hits, spec, depth, beyond, scope)


def _default_search() -> SearchFn:
    # imported when used: the retrievers load numpy, bm25s and LanceDB, which labelling never needs
    from toolex.retrieval import search

    return search


def _search(
    store: Store,
    benchmark: str,
    expansion: str,
    spec: str,
    depth: int,
    scope: str,
    search: SearchFn,
) -> tuple[str, pa.Table]:
    """(resolved scope, ranked items per sub-query to ``depth``) from the candidate retriever."""
    from toolex.retrieval.texts import resolve_scope

    scope = resolve_scope(store, benchmark, scope)
    subs = retrieved_subqueries(store, benchmark, expansion)
    texts = [(r.query_id, r.slot, r.text) for r in subs]
    if not texts:
        return scope, pa.Table.from_pylist([], schema=BEYOND_SCHEMA)
    try:
        table = search(store, benchmark, spec, texts, depth=depth, scope=scope)
    except (InputError, ModelUnavailableError) as exc:
        raise ToolexError(
            f"cannot search past the candidate depth with the retriever {spec!r} ({exc}); "
            "pass --retriever SPEC (e.g. bm25), or --beyond 0 to sample stored candidates only"
        ) from None
    return scope, table.select(["query_id", "slot", "item_id", "rank"]).cast(BEYOND_SCHEMA)
