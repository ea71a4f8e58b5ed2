"""The main table: old vs new NDCG/Recall/Comp@K per run and group, and their mean gain Δ.

One implementation, sql/reports/20_main_table.sql, pivots toolex.metrics.summary rows; the
report section, `toolex eval` and `toolex demo` all print its rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from toolex.reports.inputs import SUMMARY_SCHEMA, ReportContext, Table
from toolex.store import Store

COLUMNS = [
    "run_id",
    "benchmark",
    "level",
    "category",
    "n_queries",
    "ndcg_old",
    "ndcg_new",
    "recall_old",
    "recall_new",
    "comp_old",
    "comp_new",
    "delta",
]


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


def main_table_rows(
    store: Store, summary: Sequence[dict[str, Any]], by: str = "category"
) -> list[dict[str, Any]]:
    """The main table of ``summary`` (rows of ``toolex.metrics.summary(..., by=by)``): one row per
    run x group x K with ``run_id, level, benchmark, <by>, k, n_queries, n_no_results``, old and
    new of each metric, and ``delta`` = (gain_N + gain_R + gain_C) / 3.

    The SQL names the group column ``category``; a ``task`` grouping is renamed on the way in and
    back on the way out.
    """
    table = pa.Table.from_pylist(
        [{**row, "category": row[by]} for row in summary], schema=SUMMARY_SCHEMA
    )
    with store.registered("report_summary", table):
        rows = store.rows("reports/20_main_table.sql")
    if by == "category":
        return rows
    return [{(by if key == "category" else key): value for key, value in r.items()} for r in rows]
