"""Where equivalents rank: for queries with at least one verified equivalent, the best rank of an
equivalent tool vs the ground-truth tool vs a random non-equivalent tool (sql/reports/40-42).

The random tool is drawn from the query's candidate pool (the tools the expansion's candidate
retriever showed the verifier for its sub-queries), so its share in a top K is a baseline for the
equivalents': a plausible tool that is not one. Drawn from the whole library
(``random_from="library"``, `report --random-from library`) it is almost never in a top 10 of
thousands of tools (0.0). The paper reports a random tool in the top 10 for 9.2% of queries and
does not say where it draws it from; neither draw reproduces that figure
(benchmarks/bench_random_draw.py).
"""

from __future__ import annotations

from toolex.errors import InputError
from toolex.reports.inputs import ReportContext, Table

RANDOM_FROM = ("pool", "library")
WHERE_DRAWN = {
    "pool": "the query's candidate pool (the candidates its sub-queries were shown)",
    "library": "the query's whole library (its share in a top K is near 0)",
}


def equivalent_rank_tables(ctx: ReportContext) -> tuple[Table, Table, Table]:
    """(summary per run and category, per-query best ranks, CDF rows)."""
    if ctx.random_from not in RANDOM_FROM:
        raise InputError(
            f"--random-from must be one of {', '.join(RANDOM_FROM)}, not {ctx.random_from!r}",
            field="--random-from",
        )
    ctx.run(
        "40_equivalent_best_ranks.sql",
        run_ids=ctx.run_ids,
        expansion=ctx.expansion,
        seed=ctx.seed,
        random_from=ctx.random_from,
    )
    summary = ctx.rows("41_equivalent_rank_summary.sql", k=ctx.k)
    best_rows = ctx.rows("43_equivalent_best_rank_rows.sql")
    cdf = ctx.rows("42_equivalent_rank_cdf.sql")
    note = (
        f"Queries with >= 1 verified equivalent. share_*_in_top_k: share of those queries with "
        f"that kind of tool at rank <= {ctx.k}; share_gt_out_equivalent_in: no ground-truth tool "
        f"in the top {ctx.k} but an equivalent is. The random tool is one tool neither ground "
        f"truth nor a verified equivalent, drawn with seed {ctx.seed} from "
        f"{WHERE_DRAWN[ctx.random_from]}; its share is over n_random, the queries with such a "
        "tool to draw. Median ranks are over queries where the run returned that tool."
    )
    return (
        Table("equivalent_ranks", f"Where equivalents rank (K={ctx.k})", summary, note=note),
        Table(
            "equivalent_best_ranks",
            "Best rank per query and kind",
            best_rows,
            note="One row per run, query and kind; best_rank empty = not returned.",
        ),
        Table(
            "equivalent_rank_cdf",
            "CDF of the best rank",
            cdf,
            note="share of queries whose best rank of that kind is <= rank_cutoff.",
        ),
    )
