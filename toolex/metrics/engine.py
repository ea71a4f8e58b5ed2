"""Run the metric macros of ``sql/metrics/`` and shape their rows for Python callers.

The macros are TEMP (connection-local), created on first use by :func:`ensure_macros`: they never
write to the store file, so metrics work on a read-only store (TUI, reports) and a store opened by
an older toolex picks up the current definitions. ``CREATE OR REPLACE`` keeps this idempotent.

They run on the store's own DuckDB unless ``on`` names another :class:`Engine` (the Spark one of
``toolex.engines``): the same files then run there, fed from the store; the runs are still
checked, and the rows still shaped, here.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Protocol, TypeVar

from toolex.errors import ToolexError
from toolex.metrics.records import GroupedQueryScore, MeanScore, QueryScore, Score
from toolex.metrics.registry import FAMILIES, Metric, parse, validate_ks
from toolex.resources import sql_files, sql_text
from toolex.sqlrunner import Params, SqlRunner, SqlValue

if TYPE_CHECKING:  # the tables come from DuckDB; a caller that reads rows never loads pyarrow
    import pyarrow as pa

BY = ("category", "task")
PER_QUERY_COLUMNS = ["run_id", "query_id", "metric", "k", "old", "new"]
# The paper's three metric families, scored unless a caller asks for others.
DEFAULT_FAMILIES = ("ndcg", "recall", "comp")
# The folder of the macros (NNN_*.sql) that the queries of metrics/select/ call, and of the
# slices of the stored tables they read (inputs/), for an engine outside DuckDB.
FOLDER = "metrics"
R = TypeVar("R")


class Engine(Protocol):
    """Runs a shipped metric query somewhere other than the store's DuckDB, reading its inputs
    from the store: ``rows``/``arrow`` take what ``Store.rows``/``Store.arrow`` take."""

    def rows(
        self, store: SqlRunner, name: str, params: Params, *, folder: str
    ) -> list[dict[str, object]]: ...

    def arrow(self, store: SqlRunner, name: str, params: Params, *, folder: str) -> pa.Table: ...


# The macro files each store's connection holds. A connection keeps its TEMP macros until it
# closes, and creating all of them again took 13 ms of CPU (30-80 ms on a busy machine) on every
# call: half of the TUI query page's slowest read. Store.cursor() is another connection, hence
# another store here. Callers create them outside any transaction (a rollback would drop them).
_MADE: weakref.WeakKeyDictionary[SqlRunner, set[str]] = weakref.WeakKeyDictionary()
_MACRO = re.compile(r"CREATE OR REPLACE TEMP MACRO (\w+)", re.IGNORECASE)
_CALL = re.compile(r"\b(metric_\w+)\s*\(")


def ensure_macros(store: SqlRunner) -> None:
    """Create every macro of sql/metrics/NNN_*.sql on the store's connection, in file order;
    once per connection."""
    _create(store, list(_macro_files().values()))


def _create(store: SqlRunner, files: Sequence[str]) -> None:
    made = _MADE.setdefault(store, set())
    for name in files:
        if name not in made:
            store.execute_script(f"metrics/{name}")
            made.add(name)


def _ensure_for(store: SqlRunner, query: str) -> None:
    """Create the macros the shipped query ``query`` calls, directly or through other macros,
    in file order: `toolex eval` reads the summary, which needs 7 of the 10 (each costs 1-3 ms
    of CPU to create, a twentieth of the whole process)."""
    _create(store, _needed(query))


@cache
def _macro_files() -> dict[str, str]:
    """Macro name -> the file (sql/metrics/NNN_*.sql) that creates it, in file order."""
    out = {}
    for path in sql_files(FOLDER):
        found = _MACRO.search(sql_text(f"{FOLDER}/{path.name}"))
        if found is None:
            raise ToolexError(f"sql/{FOLDER}/{path.name} creates no TEMP MACRO")
        out[found.group(1).lower()] = path.name
    return out


def _calls(sql: str) -> set[str]:
    """The metric macros ``sql`` calls (its comments, which name them too, left out)."""
    code = "\n".join(line.split("--", 1)[0] for line in sql.splitlines())
    return {m.lower() for m in _CALL.findall(code)} & set(_macro_files())


@cache
def _needed(query: str) -> list[str]:
    """The macro files ``query`` reaches, in file order (a macro's file comes after those of
    the macros it calls)."""
    files = _macro_files()
    wanted: set[str] = set()
    todo = _calls(sql_text(query))
    while todo:
        name = todo.pop()
        wanted.add(name)
        todo |= _calls(sql_text(f"{FOLDER}/{files[name]}")) - wanted
    return [file for name, file in files.items() if name in wanted]


def check_runs(store: SqlRunner, run_ids: Sequence[str]) -> list[str]:
    """The run ids, de-duplicated in order; a clear error naming any that the store lacks."""
    ids = list(dict.fromkeys(str(r) for r in run_ids))
    if not ids:
        raise ToolexError(
            "no run to evaluate; name one with --run, or use --all-runs (make a run with "
            "`toolex retrieve` or `toolex runs import`)"
        )
    runs: list[str] = store.require_runs(ids)
    return runs


def _typed(
    store: SqlRunner, on: Engine | None, name: str, params: Params, row: Callable[..., R]
) -> list[R]:
    """The rows of ``name`` as typed records, each made by ``row`` from the columns by name (a
    column renamed in the SQL fails here, in the one module that reads the file)."""
    if on is not None:
        return [row(**r) for r in on.rows(store, name, params, folder=FOLDER)]
    _ensure_for(store, name)
    return [row(**r) for r in store.rows(name, params)]


def _arrow(store: SqlRunner, on: Engine | None, name: str, params: Params) -> pa.Table:
    if on is not None:
        return on.arrow(store, name, params, folder=FOLDER)
    _ensure_for(store, name)
    # Store.arrow streams straight into Arrow; a DB-API cursor would copy the rows once more.
    return store.arrow(name, params)


def _params(
    store: SqlRunner,
    run_ids: Sequence[str],
    ks: Sequence[int],
    expansion: str | None,
    families: Sequence[str] = DEFAULT_FAMILIES,
) -> dict[str, SqlValue]:
    unknown = sorted(set(families) - set(FAMILIES))
    if unknown:
        raise ToolexError(f"unknown metric families {unknown}; known: {', '.join(FAMILIES)}")
    return {
        "run_ids": check_runs(store, run_ids),
        "ks": validate_ks(ks),
        "expansion": expansion,
        "metrics": list(families),
    }


def per_query(
    store: SqlRunner,
    run_ids: Sequence[str],
    ks: Sequence[int] = (10,),
    expansion: str = "default",
    families: Sequence[str] = DEFAULT_FAMILIES,
    *,
    on: Engine | None = None,
) -> pa.Table:
    """Per-query scores: pyarrow Table ``run_id, query_id, metric, k, old, new``.

    old = trec_eval over the original qrels; new = max over the valid combinations of the
    expansion (the original included). Queries with judgments but no results are rows of zeros.
    ``families`` picks the metrics (``toolex.metrics.registry.FAMILIES``); ``on`` the engine.
    """
    params = _params(store, run_ids, ks, expansion, families)
    table = _arrow(store, on, "metrics/select/per_query.sql", params)
    return table.select(PER_QUERY_COLUMNS)


def per_query_rows(
    store: SqlRunner,
    run_ids: Sequence[str],
    ks: Sequence[int] = (10,),
    expansion: str = "default",
    families: Sequence[str] = DEFAULT_FAMILIES,
    *,
    on: Engine | None = None,
) -> list[GroupedQueryScore]:
    """Like :func:`per_query` with task, category and has_results, as typed rows (for the CLI)."""
    params = _params(store, run_ids, ks, expansion, families)
    return _typed(store, on, "metrics/select/per_query.sql", params, GroupedQueryScore)


def query_scores(
    store: SqlRunner,
    run_ids: Sequence[str],
    query_id: str,
    ks: Sequence[int] = (10,),
    expansion: str = "default",
    families: Sequence[str] = DEFAULT_FAMILIES,
) -> list[QueryScore]:
    """:func:`per_query` rows of one query (``run_id, query_id, metric, k, old, new``), computed
    for that query alone: what a page about one query needs, in milliseconds."""
    params = _params(store, run_ids, ks, expansion, families) | {"query_id": query_id}
    return _typed(store, None, "metrics/select/one_query.sql", params, QueryScore)


def summary(
    store: SqlRunner,
    run_ids: Sequence[str],
    ks: Sequence[int] = (10,),
    expansion: str = "default",
    by: str = "category",
    families: Sequence[str] = DEFAULT_FAMILIES,
    *,
    on: Engine | None = None,
) -> list[MeanScore]:
    """Macro averages per ``by`` group plus ``'all'``: :class:`MeanScore` rows ``run_id,
    group, metric, k, old, new, gain, n_queries, n_no_results`` (``group`` a value of ``by``;
    gain = new - old; n_no_results = queries with judgments that the run returned nothing for,
    scored 0). ``on``: the engine."""
    if by not in BY:
        raise ToolexError(f"cannot group by {by!r}; choose one of {', '.join(BY)}")
    params = _params(store, run_ids, ks, expansion, families) | {"by": by}
    # summary.sql's ``grp`` (a name DuckDB and Spark both take unquoted) is the row's ``group``
    return _typed(
        store, on, "metrics/select/summary.sql", params, lambda grp, **c: MeanScore(group=grp, **c)
    )


def scores(
    store: SqlRunner, metric: str | Metric, run_ids: Sequence[str], *, expansion: str | None = None
) -> list[Score]:
    """Rows ``run_id, query_id, metric, k, value`` of one metric named like ``"ndcg@10"`` (or a
    :class:`Metric`); old when expansion is None."""
    metric = parse(metric)
    params = _params(store, run_ids, [metric.k], expansion, [metric.name])
    del params["metrics"]  # scores.sql takes the one family, as $metric
    params["metric"] = metric.name
    return _typed(store, None, "metrics/select/scores.sql", params, Score)


def expansion_coverage(store: SqlRunner, run_ids: Sequence[str], expansion: str) -> dict[str, int]:
    """run_id -> number of its queries with at least one valid expanded combination."""
    params = {"run_ids": check_runs(store, run_ids), "expansion": expansion}
    rows = store.rows("metrics/select/expansion_coverage.sql", params)
    return {row["run_id"]: row["n_expanded"] for row in rows}


def all_runs(store: SqlRunner) -> list[str]:
    """Every run id in the store, in name order."""
    return [row["run_id"] for row in store.rows("metrics/select/run_ids.sql")]
