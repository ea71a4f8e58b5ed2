"""Draw a stratified review sample at either level (toolex.review.levels).

Allocation: the size is split evenly over the level's parts that have items (what one part
cannot fill goes to the others; an odd unit goes to the parts in their order), because
proportional allocation would leave a rare part (the judge's accepted verdicts, whose precision
is the first question) with a handful of items; a level without parts is one population. Within
a part, allocation is proportional to stratum size with Hamilton's largest-remainder rounding:
quota_h = floor(n * N_h / N) plus one for the strata with the largest remainders (ties by
stratum name), so the quotas sum exactly to n and each part's sample is self-weighting (its
share of the positive label estimates the part's rate).

Within a stratum the kept items are the first quota_h in md5(seed:key) order, the key being the
level's item key: the same store, size and seed always give the same sample, and a larger size
with the same seed extends a smaller one per stratum. Reviewers see them in md5(seed:position:
key) order, so strata are interleaved.

- combination: the accepted combinations (status 'valid', not the original), strata category x
  number of tools (sql/review/10_population_strata.sql, 11_sample_insert.sql).
- verdict: (sub-query, reference, candidate) triples (sql/review/42_verdict_population.sql) in
  three parts: the judge's accepted verdicts (its precision), its rejected verdicts
  (equivalents it threw away), and unjudged candidates (equivalents the pipeline missed): stored
  without a verdict, or ranked just past the stored candidate depth (toolex.review.beyond).
  Strata: part x query category x rank band (1-3, 4-10, 11-20, 21+; 'unranked' for a verdict
  with no candidate row); review_verdict_strata keeps each stratum's population for the recall
  estimate (toolex.review.stats). ``order_by='uncertainty'`` changes only the order reviewers
  see, not which items are drawn, so the estimates stay unbiased once the whole sample is
  labelled: verdicts nearest the judge's decision boundary first, those without a confidence
  last. ``verdicts.confidence`` is P(yes), but a judge need not decide at 0.5 (the
  precision-first offline verifier accepts only well above it), so a judge's boundary is taken
  from its own verdicts: the lowest confidence it accepted (0.5 if it accepted none).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from toolex.errors import ToolexError
from toolex.review import protocol, queries
from toolex.review.beyond import BEYOND, SearchFn, ranked_beyond
from toolex.review.levels import VERDICT
from toolex.sqlrunner import Params
from toolex.store import Store

if TYPE_CHECKING:
    import pyarrow as pa

ORDERS = ("random", "uncertainty")


def allocate(sizes: Mapping[str, int], n: int) -> dict[str, int]:
    """Largest-remainder proportional allocation of ``n`` over strata of ``sizes``."""
    total = sum(sizes.values())
    if n >= total:
        return dict(sizes)
    exact = {h: n * size / total for h, size in sizes.items()}
    quotas = {h: math.floor(x) for h, x in exact.items()}
    left = n - sum(quotas.values())
    for h in sorted(exact, key=lambda h: (-(exact[h] - quotas[h]), h))[:left]:
        quotas[h] += 1
    return quotas


def split_evenly(sizes: Mapping[str, int], n: int) -> dict[str, int]:
    """``n`` split as evenly as the sizes allow, in the order of ``sizes`` for odd units."""
    quotas = dict.fromkeys(sizes, 0)
    left = min(n, sum(sizes.values()))
    while left:
        open_ = [h for h in sizes if quotas[h] < sizes[h]]
        share, extra = divmod(left, len(open_))
        for i, h in enumerate(open_):
            take = min(share + (i < extra), sizes[h] - quotas[h])
            quotas[h] += take
            left -= take
    return quotas


def allocate_strata(
    strata: Mapping[str, tuple[str, int]], n: int, parts: Sequence[str] = VERDICT.parts
) -> dict[str, int]:
    """Quotas per stratum (name -> (part, size)): even over ``parts``, proportional within."""
    part_sizes = {p: sum(s for q, s in strata.values() if q == p) for p in parts}
    part_quotas = split_evenly(part_sizes, n)
    quotas: dict[str, int] = {}
    for part in parts:
        quotas.update(
            allocate({h: s for h, (q, s) in strata.items() if q == part}, part_quotas[part])
        )
    return quotas


def check_new_sample(
    store: Store, sample_id: str, benchmark: str, expansion: str, size: int
) -> None:
    """Refuse a non-positive size, an unknown benchmark or expansion, and a name already used by
    a sample of either level or by a label set (a verdict sample publishes under its name)."""
    if size <= 0:
        raise ToolexError(f"the sample size must be positive, not {size}")
    store.require_expansion(store.require_benchmark(benchmark), expansion)
    used = queries.sample_use(store, sample_id)
    if used.combinations or used.verdicts:
        n = used.combinations or used.verdicts
        level = "combination" if used.combinations else "verdict"
        raise ToolexError(
            f"a sample named {sample_id!r} already exists ({n} {level} items); choose another "
            "name (its labels would lose their meaning)"
        )
    if used.labels:
        raise ToolexError(
            f"the labels table already holds a label set named {sample_id!r}; choose another "
            "sample name"
        )


def _quotas(quotas: Mapping[str, int]) -> dict[str, list[str] | list[int]]:
    """The quotas as the insert SQL binds them: stratum names and their counts, same order."""
    names = sorted(quotas)
    return {"strata": names, "quotas": [quotas[h] for h in names]}


def draw_sample(
    store: Store,
    sample_id: str,
    *,
    benchmark: str,
    expansion: str = "default",
    size: int,
    seed: int,
    show_rationale: bool = False,
) -> dict[str, int]:
    """Insert a combination-level sample into ``review_samples``; returns the count kept per
    stratum. Refuses to overwrite an existing sample (its labels would lose their meaning).
    ``show_rationale``: its reviewers see the judges' rationale (toolex.review.protocol)."""
    check_new_sample(store, sample_id, benchmark, expansion, size)
    params = {"benchmark": benchmark, "expansion": expansion}
    strata = {r.stratum: int(r.n) for r in queries.population_strata(store, benchmark, expansion)}
    if not strata:
        raise ToolexError(
            f"no accepted combination to audit in {benchmark}/{expansion}; run `toolex expand` "
            "first (the audit samples combinations with status 'valid' other than the original)"
        )
    quotas = allocate(strata, size)
    with store.transaction():
        store.execute(
            "review/11_sample_insert.sql",
            {"sample_id": sample_id, **params, "seed": seed, **_quotas(quotas)},
        )
        protocol.record(store, sample_id, show_rationale)
    return {h: q for h, q in quotas.items() if q}


def _verdict_population(
    store: Store, benchmark: str, expansion: str, beyond_hits: pa.Table
) -> pa.Table:
    """The verdicts a verdict-level sample draws from (judged candidates, and the retrieved
    ones ranked past the candidates, ``beyond_hits``), each with its stratum."""
    params: Params = {"benchmark": benchmark, "expansion": expansion}
    with store.registered("review_beyond", beyond_hits):
        pop = queries.verdict_population(store, params)
    if pop.num_rows == 0:
        raise ToolexError(
            f"no verdict to review in {benchmark}/{expansion}; run `toolex expand` through the "
            "verify stage first (the sample draws judged and retrieved candidates)"
        )
    return pop


class VerdictStratum(NamedTuple):
    """One stratum of a verdict-level sample: its population and how many were drawn (the
    weights of the recall estimate; ``review_verdict_strata``)."""

    stratum: str
    part: str  # accepted | rejected | unjudged
    category: str | None
    rank_band: str | None
    population: int
    drawn: int


def _strata(pop: pa.Table, size: int) -> tuple[dict[str, int], list[VerdictStratum]]:
    """The quota of each stratum of the population for a sample of ``size``, and one row per
    stratum (stratum, part, category, rank_band, population, drawn), parts in their order."""
    cols = pop.select(["stratum", "part", "category", "rank_band"]).to_pylist()
    counts = Counter(tuple(c.values()) for c in cols)
    quotas = allocate_strata({k[0]: (k[1], n) for k, n in counts.items()}, size, VERDICT.parts)
    rows = [
        VerdictStratum(k[0], k[1], k[2], k[3], population=n, drawn=quotas[k[0]])
        for k, n in sorted(counts.items(), key=lambda kv: (VERDICT.parts.index(kv[0][1]), kv[0][0]))
    ]
    return quotas, rows


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
    show_rationale: bool = False,
) -> list[VerdictStratum]:
    """Insert a verdict-level sample; returns one row per stratum (stratum, part, category,
    rank_band, population, drawn), parts in their order. ``search`` replaces
    toolex.retrieval.search (toolex.review.beyond); ``show_rationale``: its reviewers see the
    judge's rationale (toolex.review.protocol)."""
    if order_by not in ORDERS:
        raise ToolexError(f"order must be one of {', '.join(ORDERS)}, not {order_by!r}")
    if beyond < 0:
        raise ToolexError(f"--beyond must be 0 or more, not {beyond}")
    check_new_sample(store, sample_id, benchmark, expansion, size)
    params = {"benchmark": benchmark, "expansion": expansion}
    found = ranked_beyond(
        store, benchmark, expansion, beyond=beyond, retriever=retriever, search=search
    )
    pop = _verdict_population(store, benchmark, expansion, found.hits)
    quotas, rows = _strata(pop, size)
    with store.transaction(), store.registered("review_verdict_population", pop):
        store.execute(
            "review/43_verdict_sample_insert.sql",
            {
                "sample_id": sample_id,
                **params,
                "seed": seed,
                "order_by": order_by,
                **_quotas(quotas),
            },
        )
        for row in rows:
            stratum = {"sample_id": sample_id, **row._asdict()}
            store.execute("review/44_verdict_strata_insert.sql", stratum)
        store.execute(
            "review/45_verdict_draw_insert.sql",
            {
                "sample_id": sample_id,
                **params,
                "seed": seed,
                "size": size,
                "order_by": order_by,
                "retriever": found.retriever,
                "depth": found.depth,
                "beyond": found.beyond,
                "scope": found.scope,
            },
        )
        protocol.record(store, sample_id, show_rationale)
    return rows
