"""Category heterogeneity: the gains and Δ per category, with each run's spread over categories
(sql/reports/50 over toolex.metrics.summary)."""

from __future__ import annotations

from toolex.reports.inputs import ReportContext, Table


def heterogeneity_table(ctx: ReportContext) -> Table:
    ctx.register_metrics()
    return Table(
        "heterogeneity",
        f"Category heterogeneity of Δ (K={ctx.k})",
        ctx.rows("50_heterogeneity.sql"),
        note=(
            "Δ = mean of the three gains, per category; delta_rank 1 = the category the old "
            "labels under-credit most; run_delta_range / run_delta_sd: spread over categories."
        ),
    )
