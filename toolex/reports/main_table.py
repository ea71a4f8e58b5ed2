"""The main table: old vs new NDCG/Recall/Comp@K per run and group, and their mean gain Δ.

One implementation, sql/reports/20_main_table.sql, pivots toolex.metrics.summary rows; the
report section, `toolex eval` and `toolex demo` all print its rows. Beside 'all' (the mean over
queries, every query weighs the same) each run gets the paper's "average": the mean of the group
means (every category weighs the same; sql/reports/21_group_mean.sql), labelled by
:func:`group_mean_label`. Sub-query-level runs are marked oracle (see toolex.reports.provenance).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from toolex.metrics.records import MeanScore
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


class MainRow(NamedTuple):
    """One row of the main table (sql/reports/20_main_table.sql): a run x group x K, with old and
    new of each metric (None when the metric was not scored) and their mean gain."""

    run_id: str
    level: str  # query | subquery
    oracle: bool  # a sub-query-level run (the paper's † rows)
    benchmark: str
    group: str  # 'all', the group mean (:func:`group_mean_label`), or a category (or task)
    k: int
    n_queries: int
    n_no_results: int
    ndcg_old: float | None
    ndcg_new: float | None
    recall_old: float | None
    recall_new: float | None
    comp_old: float | None
    comp_new: float | None
    delta: float | None  # (gain_N + gain_R + gain_C) / 3

    def old_new(self, metric: str) -> tuple[float | None, float | None]:
        """Old and new of ``metric`` (``ndcg``, ``recall`` or ``comp``)."""
        return {
            "ndcg": (self.ndcg_old, self.ndcg_new),
            "recall": (self.recall_old, self.recall_new),
            "comp": (self.comp_old, self.comp_new),
        }[metric]

    def printed(self, by: str = "category") -> dict[str, object]:
        """The row as a report file or `toolex eval` prints it: ``group`` named ``by``."""
        return {by if f == "group" else f: v for f, v in zip(self._fields, self, strict=True)}


def group_mean_label(by: str = "category") -> str:
    """The group name of the mean-of-group-means rows: ``avg (category mean)``."""
    return f"avg ({by} mean)"


def with_group_mean(
    store: Store, summary: Sequence[MeanScore], by: str = "category"
) -> list[MeanScore]:
    """``summary`` (rows of ``toolex.metrics.summary(..., by=by)``) plus, per run, metric and K,
    the row of the mean of its group means, named :func:`group_mean_label` ``(by)``."""
    label = group_mean_label(by)
    rows = [r for r in summary if r.group != label]
    with _registered_summary(store, rows):
        means = store.typed("reports/21_group_mean.sql", MeanScore, {"label": label})
    order = {m: i for i, m in enumerate(dict.fromkeys(r.metric for r in rows))}
    means.sort(key=lambda r: (r.run_id, r.k, order[r.metric]))  # metrics as given
    return rows + means


def main_table(ctx: ReportContext, main: Sequence[MainRow] | None = None) -> Table:
    """The report's main table, of ``main`` when the caller has the rows already."""
    from toolex.reports.inputs import Table  # pyarrow: the report's, not `toolex eval`'s

    typed = main_table_rows(ctx.store, ctx.summary) if main is None else main
    rows = [r.printed() for r in typed]
    provenance = run_provenance(ctx.store, ctx.run_ids, ctx.expansion)
    warnings = pool_bias_warnings(provenance.values(), ctx.expansion)
    note = (
        "old = scored against the original label; new = max over the valid combinations "
        "(original included). Δ = mean of the three gains (new - old). level tells "
        "query-level from sub-query-level runs. 'all' is the mean over queries (each query "
        f"weighs the same); '{group_mean_label()}' is the mean of the category rows (each "
        "category weighs the same), the paper's average."
    )
    if any(r.oracle for r in typed):
        note += " " + ORACLE_NOTE
    note += "".join(f"\n\n**Warning:** {w}." for w in warnings)
    return Table(
        "main_table",
        f"Main table: old vs new at K={ctx.k}",
        rows,
        note=note,
        columns=COLUMNS,
        md_rows=[{**r.printed(), "run_id": run_label(r.run_id, r.oracle)} for r in typed],
    )


def main_table_rows(
    store: Store, summary: Sequence[MeanScore], by: str = "category"
) -> list[MainRow]:
    """The main table of ``summary`` (rows of ``toolex.metrics.summary(..., by=by)``): one
    :class:`MainRow` per run x group x K with ``run_id, level, oracle, benchmark, group, k,
    n_queries, n_no_results``, old and new of each metric, and ``delta`` = (gain_N + gain_R +
    gain_C) / 3. The groups are 'all', the group mean (:func:`with_group_mean`) and each
    category (or task), in that order (``by`` names the mean's label).
    """
    with _registered_summary(store, with_group_mean(store, summary, by)):
        return store.typed(
            "reports/20_main_table.sql", MainRow, {"mean_label": group_mean_label(by)}
        )


def summary_dicts(summary: Sequence[MeanScore]) -> list[dict[str, SqlValue]]:
    """The rows keyed as report_summary's columns (:data:`FIELDS`: the group is ``category``
    whatever the grouping), for DuckDB or Arrow to build that table from."""
    return [dict(zip(FIELDS, row, strict=True)) for row in summary]


def _registered_summary(
    store: Store, summary: Sequence[MeanScore]
) -> contextlib.AbstractContextManager[None]:
    """The rows as report_summary for the block, made by DuckDB from the rows and read in
    place (no Arrow: `toolex eval` prints a few rows and would load pyarrow only for this)."""
    return store.registered_query(
        "report_summary", "reports/19_summary_rows.sql", {"rows": summary_dicts(summary)}
    )


def _summary_table(store: Store, summary: Sequence[MeanScore]) -> pa.Table:
    """The rows in report_summary's shape (toolex.reports.inputs.SUMMARY_SCHEMA, which
    sql/reports/19_summary_rows.sql spells in DuckDB's types) as Arrow: what
    :func:`_registered_summary` exposes, for a test to compare with the report's schema."""
    return store.arrow("reports/19_summary_rows.sql", {"rows": summary_dicts(summary)})


# report_summary's columns (toolex.reports.inputs.SUMMARY_SCHEMA; a test keeps the two equal)
FIELDS = ("run_id", "category", "metric", "k", "old", "new", "gain", "n_queries", "n_no_results")
