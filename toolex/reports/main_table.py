"""The main table: old vs new NDCG/Recall/Comp@K per run and category, and their mean gain Δ
(sql/reports/20 over toolex.metrics.summary)."""

from __future__ import annotations

from toolex.reports.context import ReportContext, Table

COLUMNS = ["run_id", "benchmark", "level", "category", "n_queries", "ndcg_old", "ndcg_new",
           "recall_old", "recall_new", "comp_old", "comp_new", "delta"]  # fmt: skip


def main_table(ctx: ReportContext) -> Table:
    ctx.register_metrics()
    rows = ctx.rows("20_main_table.sql")
    return Table(
        "main_table",
        f"Main table: old vs new at K={ctx.k}",
        rows,
        note=(
            "old = scored against the original label; new = max over the valid combinations "
            "(original included). Δ = mean of the three gains (new - old). level tells "
            "query-level from sub-query-level runs. 'all' is the macro average over queries."
        ),
        columns=COLUMNS,
    )
