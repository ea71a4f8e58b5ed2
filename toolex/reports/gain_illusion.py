"""Fine-tuning gain illusion: the gap between a base and a fine-tuned run under old and under new
metrics, and the share of the old gap that vanishes (sql/reports/30 over toolex.metrics.summary).

    gap_old = old(finetuned) - old(base)        gap_new = new(finetuned) - new(base)
    vanished_share = (gap_old - gap_new) / gap_old
"""

from __future__ import annotations

from toolex.reports.inputs import ReportContext, Table

COLUMNS = [
    "base",
    "finetuned",
    "category",
    "metric",
    "gap_old",
    "gap_new",
    "gap_vanished",
    "vanished_share",
]


def gain_illusion_table(ctx: ReportContext) -> Table:
    ctx.register_metrics()
    rows = ctx.rows("30_gain_illusion.sql") if ctx.pairs else []
    return Table(
        "gain_illusion",
        "Fine-tuning gain illusion",
        rows,
        note=(
            "For each --pair BASE:FINETUNED: gap = finetuned - base, under old and new metrics; "
            "vanished_share = (gap_old - gap_new) / gap_old, the part of the old gain that was "
            "credit for returning the labelled tool rather than an equivalent. metric 'mean' "
            "averages the three metrics; category 'category mean' averages the categories. "
            "The share is unstable when gap_old is near 0: read it with the significance "
            "table's run differences."
            if ctx.pairs
            else "No --pair BASE:FINETUNED was given, so there is nothing to compare."
        ),
        columns=COLUMNS,
    )
