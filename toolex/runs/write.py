"""The only writer and deleter of the tables ``runs``, ``run_results`` and ``subquery_results``.

A run arrives as one Arrow table of scored results, whether ``toolex retrieve`` ranked it or
``toolex runs import`` read it from a file, and is written the same way, in one transaction:

* query level: the results are ranked per query into ``run_results``;
* sub-query level: the results (with a ``slot`` column) are ranked per (query, slot) into
  ``subquery_results``, and each query's lists are fused with RRF (:mod:`toolex.runs.rrf`, no cut)
  into ``run_results``.

Rank is always recomputed here, with trec_eval's rule (score descending, ties by item_id
descending, 1-based), so a run ranks the same whichever way it came in: by Arrow's sort
(:func:`ranked`), which costs a quarter of DuckDB's window for the same order (a 690,795-row run:
0.05 against 0.2 CPU-s, most of what was left of an import after its reading). The check
``sql/checks/run_results_rank_order.sql`` states the rule in SQL. The SQL is ``sql/runs/``.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from toolex.errors import InputError
from toolex.runs.codes import as_arrow, as_numpy, encoded, ordinals
from toolex.runs.rrf import fuse_subquery_lists
from toolex.store import Store

LEVELS = ("query", "subquery")


@dataclass(frozen=True)
class RunCounts:
    queries: int  # queries with at least one result in run_results
    results: int  # rows in run_results


def check_level(level: str) -> None:
    if level not in LEVELS:
        raise InputError(f"unknown level {level!r}; use one of {', '.join(LEVELS)}", field="level")


def check_free(store: Store, run_id: str, replace: bool) -> None:
    """Refuse a run name already taken, unless the run is to be replaced."""
    if not replace and store.rows("runs/01_find_run.sql", {"run_id": run_id}):
        raise InputError(
            f"a run named {run_id!r} already exists in {store.path}; pass --replace or pick "
            "another --run name",
            field="run",
        )


def write_run(
    store: Store,
    run_id: str,
    *,
    benchmark: str,
    level: str,
    results: pa.Table,
    params: Mapping[str, object],  # recorded as JSON: whatever json.dumps takes
    retriever: str | None = None,
    source: str | None = None,
    replace: bool = False,
) -> RunCounts:
    """Store run ``run_id`` of ``benchmark`` in one transaction and return its counts.

    ``results`` has columns ``query_id, item_id, score`` (others are ignored), plus ``slot`` at
    sub-query level. Rows of queries the benchmark lacks are dropped. ``params`` is recorded as
    the run's JSON ``params``; ``retriever`` (spec) or ``source`` (file) says where it came from.
    """
    check_level(level)
    check_free(store, run_id, replace)
    ids = {"run_id": run_id, "benchmark": benchmark}
    with store.transaction():
        if replace:
            _delete_rows(store, run_id)
        store.execute(
            "runs/30_insert_run.sql",
            {
                **ids,
                "level": level,
                "retriever": retriever,
                "source": source,
                "params": json.dumps(params, sort_keys=True),
            },
        )
        if level == "subquery":
            with store.registered("new_results", ranked(results, ("query_id", "slot"))):
                store.execute("runs/32_insert_subquery_results.sql", ids)
            results = fuse_subquery_lists(store, run_id)
        with store.registered("new_results", ranked(results, ("query_id",))):
            store.execute("runs/31_insert_run_results.sql", ids)
        counts = store.typed("runs/41_run_counts.sql", RunCounts, {"run_id": run_id})[0]
    return RunCounts(int(counts.queries), int(counts.results))


def ranked(results: pa.Table, groups: tuple[str, ...]) -> pa.Table:
    """``results`` in trec_eval's order within each group (``groups`` ascending, then score
    descending, ties by item_id descending, both compared as DuckDB compares them: numbers by
    value, strings byte by byte) with a 1-based ``rank`` column in place of any it had.

    Ids are sorted as their ordinals among the distinct ids (:mod:`toolex.runs.codes`), which
    order as the strings do: an imported run's ids arrive encoded, and its 690,795 rows rank in
    0.03 CPU-s instead of the 0.06 of a sort by the strings (``benchmarks/bench_run_import.py``'s
    run); a retrieved run's ids are encoded here first, at about the cost the sort saves."""
    if "rank" in results.column_names:
        results = results.drop_columns(["rank"])
    n = results.num_rows
    keys = {g: _sort_key(results.column(g)) for g in groups}
    keys["score"] = results.column("score")
    keys["item_id"] = _sort_key(results.column("item_id"))
    order = pc.sort_indices(
        pa.table({k: as_arrow(v) if isinstance(v, np.ndarray) else v for k, v in keys.items()}),
        sort_keys=[(g, "ascending") for g in groups]
        + [("score", "descending"), ("item_id", "descending")],
    )
    results = results.take(order)
    starts = np.zeros(n, dtype=bool)
    starts[:1] = True
    for g in groups:  # a row starts a group where any group key differs from the row before
        key = np.asarray(keys[g])[as_numpy(order)]
        starts[1:] |= key[1:] != key[:-1]
    first = np.flatnonzero(starts)
    rank = np.arange(n) - first[np.cumsum(starts) - 1] + 1
    return results.append_column("rank", as_arrow(rank, pa.int32()))


def _sort_key(column: pa.ChunkedArray) -> np.ndarray:
    """A group or id column as numbers that sort as it does: ids as their ordinals, numbers
    (a sub-query's slot) as themselves."""
    if pa.types.is_integer(column.type):
        return as_numpy(column)
    return ordinals(encoded(column))


def delete_run(store: Store, run_id: str) -> int:
    """Remove a run and all its results; returns how many results were removed."""
    store.require_runs([run_id])
    n = store.typed("runs/41_run_counts.sql", RunCounts, {"run_id": run_id})[0].results
    with store.transaction():
        _delete_rows(store, run_id)
    return int(n)


def _delete_rows(store: Store, run_id: str) -> None:
    """The run's sub-query results, results and runs row, inside the caller's transaction."""
    for name in (
        "runs/10_delete_subquery_results.sql",
        "runs/11_delete_run_results.sql",
        "runs/12_delete_run.sql",
    ):
        store.execute(name, {"run_id": run_id})


class RunListing(NamedTuple):
    """A stored run with what it holds (`toolex runs list`, `toolex info`)."""

    run: str
    benchmark: str
    level: str  # query | subquery
    retriever: str | None  # None: imported
    source: str | None  # the file it was imported from; None: produced here
    queries: int
    results: int
    created_at: datetime.datetime


def list_runs(store: Store, benchmark: str | None = None) -> list[RunListing]:
    """One row per stored run (of ``benchmark`` when given) with its query and result counts,
    oldest first."""
    return store.typed("runs/40_list_runs.sql", RunListing, {"benchmark": benchmark})
