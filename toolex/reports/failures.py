"""The failed queries of the reported expansion: every query with a failed pipeline task and
why, as `toolex stats` lists them (toolex.pipeline.outcome over
sql/stages/expansion/05_failed_queries.sql).
A query whose decomposition failed keeps new = old, so a reader must see how many did."""

from __future__ import annotations

from toolex.pipeline.outcome import FAILED_COLUMNS, failed_queries
from toolex.reports.inputs import ReportContext, Table


def failed_queries_table(ctx: ReportContext) -> Table:
    rows = [
        {"benchmark": benchmark, **r._asdict()}
        for benchmark in ctx.benchmarks
        for r in failed_queries(ctx.store, benchmark, ctx.expansion)
    ]
    return Table(
        "failed_queries",
        f"Failed queries (expansion '{ctx.expansion}')",
        rows,
        note=(
            f"{len({(r['benchmark'], r['query_id']) for r in rows})} queries with a failed "
            "pipeline task, and why. A failed decomposition leaves the query with new = old "
            "(no sub-queries, no equivalents); a failed verdict or audit leaves those "
            "candidates or combinations out. `toolex expand --retry-failed` retries them."
        ),
        columns=["benchmark", *FAILED_COLUMNS],
    )
