"""The main table: old vs new NDCG/Recall/Comp@K per run and group, and their mean gain Δ.

One implementation, sql/reports/20_main_table.sql, pivots toolex.metrics.summary rows; the
report section, `toolex eval` and `toolex demo` all print its rows. Beside 'all' (the mean over
queries, every query weighs the same) each run gets the paper's "average": the mean of the group
means (every category weighs the same; sql/reports/21_group_mean.sql), labelled by
:func:`group_mean_label`. Sub-query-level runs are marked oracle (see toolex.reports.provenance).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolex.reports.provenance import (
    ORACLE_NOTE,
    pool_bias_warnings,
    run_label,
    run_provenance,
)

if TYPE_CHECKING:
    import pyarrow as pa

    from toolex.reports.inputs import ReportContext, Table
    from toolex.sqlrunner import SqlValue
    from toolex.store import Store

COLUMNS = [
    "run_id",
    "benchmark",
    "level",
    "oracle",
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


def group_mean_label(by: str = "category") -> str:
    """The group name of the mean-of-group-means rows: ``avg (category mean)``."""
    return f"avg ({by} mean)"


def with_group_mean(
    store: Store, summary: Sequence[dict[str, Any]], by: str = "category"
) -> list[dict[str, Any]]:
    """``summary`` (rows of ``toolex.metrics.summary(..., by=by)``) plus, per run, metric and K,
    the row of the mean of its group means, named :func:`group_mean_label` ``(by)``."""
    label = group_mean_label(by)
    rows = [r for r in summary if r[by] != label]
    with _registered_summary(store, rows, by):
        means = store.rows("reports/21_group_mean.sql", {"label": label})
    order = {m: i for i, m in enumerate(dict.fromkeys(r["metric"] for r in rows))}
    means.sort(key=lambda r: (r["run_id"], r["k"], order[r["metric"]]))  # metrics as given
    return rows + [{by if key == "category" else key: v for key, v in r.items()} for r in means]


def main_table(ctx: ReportContext) -> Table:
    from toolex.reports.inputs import Table  # pyarrow: the report's, not `toolex eval`'s

    rows = main_table_rows(ctx.store, ctx.summary)
    provenance = run_provenance(ctx.store, ctx.run_ids, ctx.expansion)
    warnings = pool_bias_warnings(provenance.values(), ctx.expansion)
    note = (
        "old = scored against the original label; new = max over the valid combinations "
        "(original included). Δ = mean of the three gains (new - old). level tells "
        "query-level from sub-query-level runs. 'all' is the mean over queries (each query "
        f"weighs the same); '{group_mean_label()}' is the mean of the category rows (each "
        "category weighs the same), the paper's average."
    )
    if any(r["oracle"] for r in rows):
        note += " " + ORACLE_NOTE
    note += "".join(f"\n\n**Warning:** {w}." for w in warnings)
    return Table(
        "main_table",
        f"Main table: old vs new at K={ctx.k}",
        rows,
        note=note,
        columns=COLUMNS,
        md_rows=[{**r, "run_id": run_label(r["run_id"], r["oracle"])} for r in rows],
    )


def main_table_rows(
    store: Store, summary: Sequence[dict[str, Any]], by: str = "category"
) -> list[dict[str, Any]]:
    """The main table of ``summary`` (rows of ``toolex.metrics.summary(..., by=by)``): one row per
    run x group x K with ``run_id, level, oracle, benchmark, <by>, k, n_queries, n_no_results``,
    old and new of each metric, and ``delta`` = (gain_N + gain_R + gain_C) / 3. The groups are
    'all', the group mean (:func:`with_group_mean`) and each category (or task), in that order.

    The SQL names the group column ``category``; a ``task`` grouping is renamed on the way in and
    back on the way out.
    """
    with _registered_summary(store, with_group_mean(store, summary, by), by):
        rows = store.rows("reports/20_main_table.sql", {"mean_label": group_mean_label(by)})
    if by == "category":
        return rows
    return [{(by if key == "category" else key): value for key, value in r.items()} for r in rows]


def _summary_params(summary: Sequence[Mapping[str, SqlValue]], by: str) -> dict[str, SqlValue]:
    rows = [{key: row[by] if key == "category" else row[key] for key in FIELDS} for row in summary]
    return {"rows": rows}


def _registered_summary(
    store: Store, summary: Sequence[Mapping[str, SqlValue]], by: str
) -> contextlib.AbstractContextManager[None]:
    """The rows as report_summary for the block, made by DuckDB from the dicts and read in
    place (no Arrow: `toolex eval` prints a few rows and would load pyarrow only for this)."""
    return store.registered_query(
        "report_summary", "reports/19_summary_rows.sql", _summary_params(summary, by)
    )


def _summary_table(store: Store, summary: Sequence[Mapping[str, SqlValue]], by: str) -> pa.Table:
    """The rows in report_summary's shape (toolex.reports.inputs.SUMMARY_SCHEMA, which
    sql/reports/19_summary_rows.sql spells in DuckDB's types) as Arrow: what
    :func:`_registered_summary` exposes, for a test to compare with the report's schema."""
    return store.arrow("reports/19_summary_rows.sql", _summary_params(summary, by))


# report_summary's columns (toolex.reports.inputs.SUMMARY_SCHEMA; a test keeps the two equal)
FIELDS = ("run_id", "category", "metric", "k", "old", "new", "gain", "n_queries", "n_no_results")
