"""`toolex eval`: old vs new NDCG/Recall/Comp of one or many runs, like the paper's main table."""

from __future__ import annotations

from typing import Any

import click

from toolex.cli.options import (
    db_option,
    emit_rows,
    expansion_option,
    format_option,
    open_store,
    run_option,
)
from toolex.errors import ToolexError
from toolex.metrics.engine import BY, all_runs, expansion_coverage, summary
from toolex.metrics.registry import METRICS, validate_ks
from toolex.reports.main_table import main_table_rows


@click.command("eval")
@db_option
@run_option("Run to score (repeatable).", dest="runs", multiple=True)
@click.option("--all-runs", "every_run", is_flag=True, help="Score every run in the store.")
@click.option(
    "--k",
    "ks",
    type=int,
    multiple=True,
    default=(10,),
    show_default=True,
    help="Cut-off K (repeatable).",
)
@expansion_option("Expansion whose valid combinations define the new scores.")
@click.option(
    "--by",
    type=click.Choice(BY),
    default="category",
    show_default=True,
    help="Group queries by category or by task; 'all' is always added.",
)
@click.option("--per-query", is_flag=True, help="Also output every query's scores.")
@format_option
def eval_cmd(
    db: str,
    runs: tuple[str, ...],
    every_run: bool,
    ks: tuple[int, ...],
    expansion: str,
    by: str,
    per_query: bool,
    fmt: str,
) -> None:
    """Score runs old (original qrels) vs new (max over valid equivalent combinations).

    NDCG@K, Recall@K (trec_eval semantics) and Comp@K (1 if every relevant tool is in the top
    K), macro-averaged per category (or task) and over all queries; Δ is the mean gain new − old
    of the three. Queries with judgments but no results score 0; their number goes to stderr.

    \b
    Example:
      toolex eval --run bm25 --run e5 --k 10 --k 20
      toolex eval --all-runs --by task --format csv > scores.csv
      toolex eval --run bm25 --per-query --format json
    """
    ks = tuple(validate_ks(ks))
    with open_store(db, read_only=True) as store:
        run_ids = list(runs)
        if every_run:
            run_ids = list(dict.fromkeys(run_ids + all_runs(store)))
            if not run_ids:
                raise ToolexError(f"the store {db} holds no runs; import one with `toolex runs`")
        from rich.console import Console

        with Console(stderr=True).status("scoring runs…"):
            rows = summary(store, run_ids, ks, expansion, by)
            table = main_table_rows(store, rows, by) if fmt == "table" else []
            queries = _per_query_rows(store, run_ids, ks, expansion, by) if per_query else []
        _report_counts(store, rows, run_ids, expansion, by)
    if fmt == "table":
        for k in ks:
            emit_rows(
                [_table_row(r, by, k) for r in table if r["k"] == k],
                fmt,
                f"old/new ×100 at K={k}, expansion {expansion!r} (empty = queries without results)",
            )
        if queries:
            emit_rows(queries, fmt, "per query")
        return
    emit_rows([_json_row(r, by) for r in rows] + queries, fmt)


def _json_row(row: dict[str, Any], by: str) -> dict[str, Any]:
    return {
        "run": row["run_id"],
        by: row[by],
        "query": None,
        "metric": row["metric"],
        "k": row["k"],
        "old": row["old"],
        "new": row["new"],
        "gain": row["gain"],
        "n_queries": row["n_queries"],
        "n_no_results": row["n_no_results"],
    }


def _per_query_rows(store, run_ids, ks, expansion, by) -> list[dict[str, Any]]:
    from toolex.metrics.engine import per_query_rows

    return [
        {
            "run": r["run_id"],
            by: r[by],
            "query": r["query_id"],
            "metric": r["metric"],
            "k": r["k"],
            "old": r["old"],
            "new": r["new"],
            "gain": r["new"] - r["old"],
            "n_queries": 1,
            "n_no_results": 0 if r["has_results"] else 1,
        }
        for r in per_query_rows(store, run_ids, ks, expansion)
    ]


def _table_row(row: dict[str, Any], by: str, k: int) -> dict[str, Any]:
    out: dict[str, Any] = {"run": row["run_id"], by: row[by]}
    for metric, letter in METRICS.items():
        # Percent points, as in the paper's tables; json/csv keep the raw 0..1 values.
        out[f"{letter}@{k}"] = f"{100 * row[f'{metric}_old']:.2f}/{100 * row[f'{metric}_new']:.2f}"
    out["Δ"] = f"{100 * row['delta']:+.2f}"
    out["n"] = row["n_queries"]
    out["empty"] = row["n_no_results"]
    return out


def _report_counts(store, rows, run_ids, expansion, by) -> None:
    """stderr: queries without results per run, and runs the expansion does not touch."""
    for row in rows:
        if row[by] == "all" and row["metric"] == "ndcg" and row["k"] == rows[0]["k"]:
            click.echo(
                f"run {row['run_id']}: {row['n_no_results']} of {row['n_queries']} queries "
                "had no results (scored 0)",
                err=True,
            )
    for run_id, n in expansion_coverage(store, run_ids, expansion).items():
        if n == 0:
            click.echo(
                f"note: expansion {expansion!r} has no valid expanded combination for the "
                f"benchmark of run {run_id}; its new scores equal the old ones",
                err=True,
            )
