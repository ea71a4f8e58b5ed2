"""Runs: importing a run made elsewhere (a file, or a run held in memory), listing and deleting
runs. `toolex runs import` calls :func:`import_run` with the file it was given."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

    from toolex.runs import RunImport
    from toolex.store import Store


def import_run(
    store: Store,
    source: str | Path | object,
    *,
    run: str,
    benchmark: str,
    fmt: str = "auto",
    level: str = "query",
    skip_unknown: bool = False,
    replace: bool = False,
) -> RunImport:
    """Check a run against its benchmark and store it under the name ``run``.

    Ranks are recomputed (score descending, then item id descending), as for every run; nothing
    is written unless every check passes.

    Args:
        store: A store opened for writing (:func:`toolex.open`).
        source: A run file (TREC, CSV/TSV, Parquet or ToolRet JSON), or a run in memory: a
            pandas or polars DataFrame or an Arrow table with columns ``query_id, item_id,
            score`` (and ``slot`` at sub-query level), a dict ``{query_id: {item_id: score}}``,
            or a ranx ``Run``.
        run: The run's name in the store.
        benchmark: The benchmark its query ids belong to.
        fmt: A file's format (``auto``: by suffix; ``trec``, ``csv``, ``parquet``,
            ``toolret-json``); ignored for a run in memory.
        level: ``query``, or ``subquery`` (rows carry a slot; each query's lists are fused
            with RRF).
        skip_unknown: Drop rows of query ids the benchmark lacks (counted in the notes)
            instead of refusing the run.
        replace: Replace a run of the same name.

    Returns:
        What was stored: ``run_id``, ``queries``, ``results``, ``format`` and ``notes``.

    Raises:
        InputError: A bad row (named by its line, or its query id for a dict or ranx run).
        NotFoundError: An unknown benchmark.
        ToolexError: A run of that name exists and ``replace`` is not set.
    """
    from toolex.runs import import_results
    from toolex.runs import import_run as import_file
    from toolex.runs.imports import RunTarget

    if isinstance(source, str | Path):
        return import_file(
            store,
            source,
            run=run,
            benchmark=benchmark,
            fmt=fmt,
            level=level,
            skip_unknown=skip_unknown,
            replace=replace,
        )
    from toolex.api.frames import results_table

    where = f"<{type(source).__name__} {run}>"
    table, kind = results_table(source, where)
    target = RunTarget(run, benchmark, level, skip_unknown, replace)
    return import_results(store, table, source=where, fmt=kind, target=target)


def list_runs(store: Store, benchmark: str | None = None) -> pd.DataFrame:
    """The stored runs, one row each, with their query and result counts.

    Args:
        store: An open store.
        benchmark: Only the runs of this benchmark.

    Returns:
        pandas DataFrame, the columns of `toolex runs list` (``run``, ``benchmark``,
        ``level``, ``retriever``, ``queries``, ``results``, ...).
    """
    from toolex.api.optional import pandas

    pd = pandas()
    from toolex.runs import list_runs as stored_runs

    return pd.DataFrame.from_records([r._asdict() for r in stored_runs(store, benchmark)])


def delete_run(store: Store, run: str) -> int:
    """Delete a run and all its results.

    Args:
        store: A store opened for writing.
        run: The run's name.

    Returns:
        The number of results deleted.

    Raises:
        NotFoundError: No run of that name.
    """
    from toolex.runs import delete_run as delete

    store.require_runs([run])
    return delete(store, run)
