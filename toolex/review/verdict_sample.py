"""Draw a verdict-level review sample: (sub-query, reference, candidate) triples for two blind
reviewers to label yes (an equivalent of the reference for that sub-query) or no.

The population (sql/review/42_verdict_population.sql) has three parts:

- accepted: the judge's accepted verdicts (precision of the judge);
- rejected: its rejected verdicts (equivalents the judge threw away);
- unjudged: retrieved but never judged (equivalents the pipeline missed): candidates stored
  without a verdict, plus the items the expansion's candidate retriever ranks just past the
  stored candidate depth for that sub-query. Those are computed at draw time with
  ``toolex.retrieval.search`` over the expansion's scope, to depth + ``beyond`` (20 by default,
  so ranks 21-40 for the default depth of 20); any searched item that is not a stored candidate
  counts. The retriever, depth and scope are the expansion's recorded settings (else what its
  candidates show); ``retriever=`` overrides the spec, ``beyond=0`` samples stored rows only.
  Recall estimates are therefore recall within the retriever's top depth + beyond.

Strata: part x query category x rank band (1-3, 4-10, 11-20, 21+; 'unranked' for a verdict
with no candidate row). Allocation: the size is split evenly over the parts that have items
(what one part cannot fill goes to the others; an odd unit goes to accepted, then rejected,
then unjudged), because proportional allocation would leave the rare accepted verdicts, whose
precision is the first question, with a handful of items. Within a part, allocation is
proportional to stratum size with largest remainders (toolex.review.sample.allocate), so each
part's sample is self-weighting and its share of yes estimates the part's rate; the strata
table keeps each stratum's population for the recall estimate (toolex.review.verdict_stats).

Within a stratum the kept items are the first quota in md5(seed:query_id:slot:item_id) order
(sql/review/43_verdict_sample_insert.sql): the same store, size and seed give the same sample.
``order_by='uncertainty'`` changes only the order reviewers see, not which items are drawn, so
the estimates stay unbiased once the whole sample is labelled: verdicts nearest the judge's
decision boundary first, those without a confidence last. ``verdicts.confidence`` is P(yes),
but a judge need not decide at 0.5 (the precision-first offline verifier accepts only well
above it), so a judge's boundary is taken from its own verdicts: the lowest confidence it
accepted (0.5 if it accepted none); see sql/review/42_verdict_population.sql.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pyarrow as pa

from toolex.errors import InputError, ModelUnavailableError, ToolexError
from toolex.review.sample import allocate, check_new_sample
from toolex.store import Store

PARTS = ("accepted", "rejected", "unjudged")
ORDERS = ("random", "uncertainty")
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


def split_evenly(sizes: dict[str, int], n: int) -> dict[str, int]:
    """``n`` split as evenly as the sizes allow, in the order of ``sizes`` for odd units."""
    quotas = {h: 0 for h in sizes}
    left = min(n, sum(sizes.values()))
    while left:
        open_ = [h for h in sizes if quotas[h] < sizes[h]]
        share, extra = divmod(left, len(open_))
        for i, h in enumerate(open_):
            take = min(share + (i < extra), sizes[h] - quotas[h])
            quotas[h] += take
            left -= take
    return quotas


def allocate_strata(strata: dict[str, tuple[str, int]], n: int) -> dict[str, int]:
    """Quotas per stratum (name -> (part, size)): even over parts, proportional within."""
    part_sizes = {p: sum(s for q, s in strata.values() if q == p) for p in PARTS}
    part_quotas = split_evenly(part_sizes, n)
    quotas: dict[str, int] = {}
    for part in PARTS:
        quotas.update(
            allocate({h: s for h, (q, s) in strata.items() if q == part}, part_quotas[part])
        )
    return quotas


def draw_verdict_sample(
    store: Store,
    sample_id: str,
    *,
    benchmark: str,
    expansion: str = "default",
    size: int,
    seed: int,
    order_by: str = "random",
    beyond: int = BEYOND,
    retriever: str | None = None,
    search: SearchFn | None = None,
) -> list[dict[str, Any]]:
    """Insert the sample; returns one row per stratum (stratum, part, category, rank_band,
    population, drawn), parts in PARTS order. ``search`` replaces toolex.retrieval.search."""
    if order_by not in ORDERS:
        raise ToolexError(f"order must be one of {', '.join(ORDERS)}, not {order_by!r}")
    if beyond < 0:
        raise ToolexError(f"--beyond must be 0 or more, not {beyond}")
    check_new_sample(store, sample_id, benchmark, expansion, size)
    params = {"benchmark": benchmark, "expansion": expansion}
    settings = store.rows("review/40_verdict_settings.sql", params)[0]
    depth = settings["config_depth"] or settings["depth"]
    spec = retriever or settings["config_retriever"] or settings["retriever"]
    scope = settings["config_scope"] or "auto"
    hits = pa.Table.from_pylist([], schema=BEYOND_SCHEMA)
    searched = bool(beyond and depth and spec)
    if searched:
        scope, hits = _search_beyond(
            store, benchmark, expansion, spec, depth + beyond, scope, search or _default_search()
        )
    with store.registered("review_beyond", hits):
        pop = store.arrow("review/42_verdict_population.sql", params)
    if pop.num_rows == 0:
        raise ToolexError(
            f"no verdict to review in {benchmark}/{expansion}; run `toolex expand` through the "
            "verify stage first (the sample draws judged and retrieved candidates)"
        )
    cols = pop.select(["stratum", "part", "category", "rank_band"]).to_pylist()
    counts = Counter(tuple(c.values()) for c in cols)
    strata = {k[0]: (k[1], n) for k, n in counts.items()}
    quotas = allocate_strata(strata, size)
    names = sorted(quotas)
    rows = [
        dict(
            zip(("stratum", "part", "category", "rank_band"), k, strict=True),
            population=n,
            drawn=quotas[k[0]],
        )
        for k, n in sorted(counts.items(), key=lambda kv: (PARTS.index(kv[0][1]), kv[0][0]))
    ]
    with store.transaction(), store.registered("review_verdict_population", pop):
        store.execute(
            "review/43_verdict_sample_insert.sql",
            {
                "sample_id": sample_id,
                **params,
                "seed": seed,
                "order_by": order_by,
                "strata": names,
                "quotas": [quotas[h] for h in names],
            },
        )
        for row in rows:
            store.execute("review/44_verdict_strata_insert.sql", {"sample_id": sample_id, **row})
        store.execute(
            "review/45_verdict_draw_insert.sql",
            {
                "sample_id": sample_id,
                **params,
                "seed": seed,
                "size": size,
                "order_by": order_by,
                "retriever": spec if searched else None,
                "depth": depth,
                "beyond": beyond if searched else 0,
                "scope": scope if searched else None,
            },
        )
    return rows


def _default_search() -> SearchFn:
    # imported when used: the retrievers load numpy, bm25s and LanceDB, which labelling never needs
    from toolex.retrieval import search

    return search


def _search_beyond(
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
    subs = store.rows(
        "review/41_verdict_subqueries.sql", {"benchmark": benchmark, "expansion": expansion}
    )
    texts = [(r["query_id"], r["slot"], r["text"]) for r in subs]
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
