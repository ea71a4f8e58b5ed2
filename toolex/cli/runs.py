"""`toolex runs ...`: import retrieval runs made elsewhere, list and delete runs."""

from __future__ import annotations

import click

from toolex.cli.options import (
    benchmark_option,
    db_option,
    echo_summary,
    emit_rows,
    format_option,
    open_store,
)
from toolex.runs import LEVELS, RRF_K, RUN_FORMATS, delete_run, import_run, list_runs


@click.group()
def runs() -> None:
    """Import, list and delete retrieval runs.

    \b
    Examples:
      toolex runs import bm25.trec --run bm25 --benchmark toolret
      toolex runs list
      toolex runs delete bm25
    """


@runs.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--run", "run_id", required=True, help="Name of the run in the store.")
@benchmark_option("Benchmark the run's query ids belong to.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(RUN_FORMATS),
    default="auto",
    show_default=True,
    help="auto: .parquet, .csv/.tsv, .json (ToolRet {query: {item: score}}), else TREC.",
)
@click.option(
    "--level",
    type=click.Choice(LEVELS),
    default="query",
    show_default=True,
    help=f"subquery: rows carry a slot column; each query's lists are fused with RRF "
    f"(k={RRF_K}), keeping every item.",
)
@click.option(
    "--skip-unknown", is_flag=True, help="Drop rows of query ids the benchmark lacks (counted)."
)
@click.option("--replace", is_flag=True, help="Replace a run of the same name.")
@db_option
def import_cmd(
    file: str,
    run_id: str,
    benchmark: str,
    fmt: str,
    level: str,
    skip_unknown: bool,
    replace: bool,
    db: str,
) -> None:
    """Import a run file: TREC (`qid Q0 docid rank score tag`), CSV/Parquet (query_id, item_id,
    score[, slot]) or ToolRet JSON. Ranks are recomputed: score desc, then item id desc.

    \b
    Example:
      toolex runs import results.trec --run e5 --benchmark toolret
    """
    with open_store(db) as store:
        result = import_run(
            store,
            file,
            run=run_id,
            benchmark=benchmark,
            fmt=fmt,
            level=level,
            skip_unknown=skip_unknown,
            replace=replace,
        )
    echo_summary(result)


@runs.command("list")
@benchmark_option("Only runs of this benchmark.", required=False, default=None)
@format_option
@db_option
def list_cmd(benchmark: str | None, fmt: str, db: str) -> None:
    """List the runs in the store with their query and result counts.

    \b
    Example:
      toolex runs list --format json
    """
    with open_store(db, read_only=True) as store:
        rows = list_runs(store, benchmark)
    emit_rows(rows, fmt, title="runs")


@runs.command("delete")
@click.argument("run_ids", nargs=-1, required=True)
@db_option
def delete_cmd(run_ids: tuple[str, ...], db: str) -> None:
    """Delete runs and all their results.

    \b
    Example:
      toolex runs delete bm25 e5
    """
    with open_store(db) as store:
        for run_id in run_ids:
            n = delete_run(store, run_id)
            click.echo(f"deleted run {run_id!r} ({n} results)", err=True)
