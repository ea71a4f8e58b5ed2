"""Where equivalents rank: for queries with at least one verified equivalent, the best rank of an
equivalent tool vs the ground-truth tool vs a random non-equivalent tool (sql/reports/40-42)."""

from __future__ import annotations

from toolex.reports.inputs import ReportContext, Table


def equivalent_rank_tables(ctx: ReportContext) -> tuple[Table, Table, Table]:
    """(summary per run and category, per-query best ranks, CDF rows)."""
    ctx.run(
        "40_equivalent_best_ranks.sql", run_ids=ctx.run_ids, expansion=ctx.expansion, seed=ctx.seed
    )
    summary = ctx.rows("41_equivalent_rank_summary.sql", k=ctx.k)
    best_rows = ctx.rows("43_equivalent_best_rank_rows.sql")
    cdf = ctx.rows("42_equivalent_rank_cdf.sql")
    note = (
        f"Queries with >= 1 verified equivalent. share_*_in_top_k: share of those queries with "
        f"that kind of tool at rank <= {ctx.k}; share_gt_out_equivalent_in: no ground-truth tool "
        f"in the top {ctx.k} but an equivalent is. The random tool is one non-equivalent tool of "
        f"the query's library, drawn with seed {ctx.seed}. Median ranks are over queries where "
        "the run returned that tool."
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
