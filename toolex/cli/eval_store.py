"""The store `toolex eval` scores in: the store file, read-only, or with --run-file the
direct-scoring one (toolex.runs.direct) that scores files against --qrels-file or a stored
benchmark without importing them. Which options go together is checked here, before anything
is opened."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from toolex.cli.options import open_store

if TYPE_CHECKING:
    from toolex.store import Store


@dataclass(frozen=True)
class RunSources:
    """The runs `toolex eval` scores: stored ones (--run, --all-runs), or files (--run-file)
    scored against --qrels-file or a stored --benchmark."""

    runs: tuple[str, ...]
    every_run: bool
    run_files: tuple[str, ...]
    qrels_file: str | None
    benchmark: str | None


@contextlib.contextmanager
def scoring_store(
    db: str, sources: RunSources, write_files: bool = False
) -> Iterator[tuple[Store, list[str]]]:
    """(store, run ids of --run-file): the store read-only, or the direct-scoring one.
    ``write_files``: an engine other than DuckDB reads its inputs from Parquet files the store
    writes (Store.copy_parquet), so the read-only store may then write files."""
    qrels_file, benchmark = sources.qrels_file, sources.benchmark
    if not sources.run_files:
        if qrels_file or benchmark:
            raise click.UsageError("--qrels-file and --benchmark go with --run-file")
        with open_store(db, read_only=True, allow_files=write_files) as store:
            yield store, []
        return
    if sources.runs or sources.every_run:
        raise click.UsageError("--run-file scores files alone; drop --run and --all-runs")
    if qrels_file and benchmark:
        raise click.UsageError("give --qrels-file or --benchmark, not both")
    from toolex.cli.progress import say
    from toolex.runs.direct import direct_scoring

    files = list(sources.run_files)
    direct_store = (
        direct_scoring(files, qrels_file=qrels_file)
        if qrels_file
        else direct_scoring(files, db=db, benchmark=benchmark)
    )
    with direct_store as direct:
        for note in direct.notes:
            say(f"note: {note}")
        yield direct.store, direct.run_ids
