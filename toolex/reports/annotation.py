"""The annotation tables: the pipeline's own statistics (`toolex stats`:
toolex.pipeline.stats over sql/stages/expansion/06_stats.sql)
per benchmark and category, and the detail of judging and combination fates
(sql/reports/10_annotation.sql)."""

from __future__ import annotations

from toolex.reports.inputs import ReportContext, Table


def annotation_table(ctx: ReportContext) -> Table:
    """`toolex stats` for every reported benchmark, per category and 'all'."""
    from toolex.pipeline.stats import annotation_rows

    rows = []
    for benchmark in ctx.benchmarks:
        for r in annotation_rows(ctx.store, benchmark, ctx.expansion, by="category"):
            rows.append({"benchmark": benchmark, **r._asdict()})
    return Table(
        "annotation",
        f"Annotation table (expansion '{ctx.expansion}')",
        rows,
        note=(
            "As `toolex stats`: annotated queries (stage 3 ran), sub-queries, verified items "
            "(the reference included), valid combinations (the original included), and the "
            "shares of sub-queries with an equivalent beyond the ground truth and of queries "
            "with an alternative combination."
        ),
    )


def annotation_detail_table(ctx: ReportContext) -> Table:
    rows = ctx.rows("10_annotation.sql", benchmarks=ctx.benchmarks, expansion=ctx.expansion)
    return Table(
        "annotation_detail",
        "Judging and combination fates",
        rows,
        note=(
            "Per benchmark and category ('all' = the benchmark). Candidates judged and "
            "equivalents accepted exclude the reference (ground-truth) verdicts; combination "
            "counts exclude the original (alternatives: valid combinations other than the "
            "original), so mean_valid_per_query = 1 + alternatives per query."
        ),
    )
