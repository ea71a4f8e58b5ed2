"""Draw a stratified audit sample of accepted combinations (category x number of tools).

Allocation is proportional to stratum size with Hamilton's largest-remainder rounding:
quota_h = floor(n * N_h / N) plus one for the strata with the largest remainders (ties by stratum
name), so the quotas sum exactly to n. Within a stratum the kept items are the first quota_h in
md5(seed:query_id:combo_id) order (sql/review/11_sample_insert.sql): the same store, size and seed
always give the same sample, and a larger size with the same seed extends a smaller one per
stratum.
"""

from __future__ import annotations

import math

from toolex.errors import ToolexError
from toolex.store import Store


def allocate(sizes: dict[str, int], n: int) -> dict[str, int]:
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


def check_new_sample(
    store: Store, sample_id: str, benchmark: str, expansion: str, size: int
) -> None:
    """Refuse a non-positive size, an unknown benchmark or expansion, and a name already used by
    a sample of either level or by a label set (a verdict sample publishes under its name)."""
    if size <= 0:
        raise ToolexError(f"the sample size must be positive, not {size}")
    store.require_expansion(store.require_benchmark(benchmark), expansion)
    used = store.rows("review/14_sample_level.sql", {"sample_id": sample_id})[0]
    if used["combinations"] or used["verdicts"]:
        n = used["combinations"] or used["verdicts"]
        level = "combination" if used["combinations"] else "verdict"
        raise ToolexError(
            f"a sample named {sample_id!r} already exists ({n} {level} items); choose another "
            "name (its labels would lose their meaning)"
        )
    if used["labels"]:
        raise ToolexError(
            f"the labels table already holds a label set named {sample_id!r}; choose another "
            "sample name"
        )


def draw_sample(
    store: Store,
    sample_id: str,
    *,
    benchmark: str,
    expansion: str = "default",
    size: int,
    seed: int,
) -> dict[str, int]:
    """Insert the sample into ``review_samples``; returns the count kept per stratum.

    Refuses to overwrite an existing sample (its labels would lose their meaning)."""
    check_new_sample(store, sample_id, benchmark, expansion, size)
    strata = {
        r["stratum"]: int(r["n"])
        for r in store.rows(
            "review/10_population_strata.sql", {"benchmark": benchmark, "expansion": expansion}
        )
    }
    if not strata:
        raise ToolexError(
            f"no accepted combination to audit in {benchmark}/{expansion}; run `toolex expand` "
            "first (the audit samples combinations with status 'valid' other than the original)"
        )
    quotas = allocate(strata, size)
    names = sorted(quotas)
    with store.transaction():
        store.execute(
            "review/11_sample_insert.sql",
            {
                "sample_id": sample_id,
                "benchmark": benchmark,
                "expansion": expansion,
                "seed": seed,
                "strata": names,
                "quotas": [quotas[h] for h in names],
            },
        )
    return {h: q for h, q in quotas.items() if q}
