"""`toolex runs ...`: import retrieval runs made elsewhere, list and delete runs."""

from __future__ import annotations

from dataclasses import dataclass

import click

from toolex.api.runs import delete_run, import_run
from toolex.cli.options import (
    NAME,
    benchmark_option,
    db_option,
    echo_summary,
    emit_rows,
    format_option,
    open_store,
    option_group,
    run_option,
)
from toolex.runs import LEVELS, RRF_K, RUN_FORMATS, list_runs


@click.group()
def runs() -> None:
    """Import, list and delete retrieval runs.

    \b
    Examples:
      toolex runs import bm25.trec --run bm25 --benchmark toolret
      toolex runs list
      toolex runs delete bm25
    """


@dataclass(frozen=True)
class RunImport:
    """How `runs import` reads the file (format, level, unknown query ids) and whether it
    replaces a stored run of the same name."""

    fmt: str
    level: str
    skip_unknown: bool
    replace: bool


import_options = option_group(
    "settings",
    [
        click.option(
            "--input-format",
            "fmt",
            type=click.Choice(RUN_FORMATS),
            default="auto",
            show_default=True,
            help="auto: .parquet, .csv/.tsv, .json (ToolRet {query: {item: score}}, or keyed by "
            "task first), else TREC (ids with spaces escaped as %20).",
        ),
        click.option(
            "--level",
            type=click.Choice(LEVELS),
            default="query",
            show_default=True,
            help=f"subquery: rows carry a slot column; each query's lists are fused with RRF "
            f"(k={RRF_K}), keeping every item.",
        ),
        click.option(
            "--skip-unknown",
            is_flag=True,
            help="Drop rows of query ids the benchmark lacks (counted).",
        ),
        click.option("--replace", is_flag=True, help="Replace a run of the same name."),
    ],
    RunImport,
)


@runs.command("import", short_help="Import a run file: TREC, CSV, Parquet or ToolRet JSON.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--run", "run_id", required=True, type=NAME, help="Name of the run in the store.")
@benchmark_option("Benchmark the run's query ids belong to.")
@import_options
@click.option(
    "--format",
    "old_format",
    hidden=True,
    callback=lambda ctx, param, value: _renamed(value),
    expose_value=False,
)
@db_option
def import_cmd(file: str, run_id: str, benchmark: str, settings: RunImport, db: str) -> None:
    """Import a run file: TREC (`qid Q0 docid rank score tag`), CSV/Parquet (query_id, item_id,
    score[, slot]) or ToolRet JSON ({query: {item: score}}, or {task: {query: {item: score}}}).
    Ranks are recomputed: score desc, then item id desc. --input-format names the file's
    format (--format, everywhere in toolex, is the output format).

    \b
    Examples:
      toolex runs import results.trec --run e5 --benchmark toolret
      toolex runs import toolret_results.json --run e5 --benchmark toolret
    """
    with open_store(db) as store:
        result = import_run(
            store,
            file,
            run=run_id,
            benchmark=benchmark,
            fmt=settings.fmt,
            level=settings.level,
            skip_unknown=settings.skip_unknown,
            replace=settings.replace,
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
        rows = [run._asdict() for run in list_runs(store, benchmark)]
    emit_rows(rows, fmt, title="runs")


@runs.command("delete", short_help="Delete runs and all their results.")
@run_option("Run to delete (repeatable).", dest="named", multiple=True)
@click.argument("run_ids", nargs=-1, metavar="[NAME]...")
@db_option
def delete_cmd(named: tuple[str, ...], run_ids: tuple[str, ...], db: str) -> None:
    """Delete runs and all their results (name them with --run, as every command does).

    \b
    Examples:
      toolex runs delete --run bm25 --run e5
      toolex runs delete bm25 e5
    """
    run_ids = tuple(dict.fromkeys([*named, *run_ids]))
    if not run_ids:
        raise click.UsageError("name the run to delete: toolex runs delete --run NAME")
    with open_store(db) as store:
        store.require_runs(list(run_ids))  # every name checked before any run is deleted
        for run_id in run_ids:
            n = delete_run(store, run_id)
            click.echo(f"deleted run {run_id!r} ({n} results)", err=True)


def _renamed(value: str | None) -> None:
    if value is not None:
        raise click.UsageError(
            "runs import: the file's format is --input-format now (--format is the output "
            f"format in every toolex command); use --input-format {value}"
        )
