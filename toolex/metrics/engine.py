"""Run the metric macros of ``sql/metrics/`` and shape their rows for Python callers.

The macros are TEMP (connection-local), created on first use by :func:`ensure_macros`: they never
write to the store file, so metrics work on a read-only store (TUI, reports) and a store opened by
an older toolex picks up the current definitions. ``CREATE OR REPLACE`` keeps this idempotent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from toolex.errors import ToolexError
from toolex.metrics.registry import METRICS, Metric, validate_ks
from toolex.resources import sql_files, sql_text

BY = ("category", "task")
PER_QUERY_COLUMNS = ["run_id", "query_id", "metric", "k", "old", "new"]


def ensure_macros(store: Any) -> None:
    """(Re)create every macro of sql/metrics/NNN_*.sql on the store's connection, in file order."""
    for path in sql_files("metrics"):
        store.con.execute(sql_text(f"metrics/{path.name}"))


def check_runs(store: Any, run_ids: Sequence[str]) -> list[str]:
    """The run ids, de-duplicated in order; a clear error naming any that the store lacks."""
    ids = list(dict.fromkeys(str(r) for r in run_ids))
    if not ids:
        raise ToolexError("no run to evaluate; name one with --run, or use --all-runs")
    known = {row["run_id"] for row in store.query("metrics/select/run_ids.sql")}
    missing = [r for r in ids if r not in known]
    if missing:
        hint = ", ".join(sorted(known)[:20]) or "none; import one with `toolex runs import`"
        names = ", ".join(map(repr, missing))
        raise ToolexError(f"no run named {names} in the store (runs: {hint})")
    return ids


def _params(store: Any, run_ids: Sequence[str], ks: Sequence[int], expansion: str | None):
    ensure_macros(store)
    return {"run_ids": check_runs(store, run_ids), "ks": validate_ks(ks), "expansion": expansion}


def per_query(
    store: Any, run_ids: Sequence[str], ks: Sequence[int] = (10,), expansion: str = "default"
) -> pa.Table:
    """Per-query scores: pyarrow Table ``run_id, query_id, metric, k, old, new``.

    old = trec_eval over the original qrels; new = max over the valid combinations of the
    expansion (the original included). Queries with judgments but no results are rows of zeros.
    """
    params = _params(store, run_ids, ks, expansion)
    # con.sql streams straight into Arrow; a DB-API cursor would copy the rows once more.
    table = store.con.sql(sql_text("metrics/select/per_query.sql"), params=params).to_arrow_table()
    return table.select(PER_QUERY_COLUMNS)


def per_query_rows(
    store: Any, run_ids: Sequence[str], ks: Sequence[int] = (10,), expansion: str = "default"
) -> list[dict[str, Any]]:
    """Like :func:`per_query` with task, category and has_results, as dicts (for the CLI)."""
    return store.query("metrics/select/per_query.sql", _params(store, run_ids, ks, expansion))


def summary(
    store: Any,
    run_ids: Sequence[str],
    ks: Sequence[int] = (10,),
    expansion: str = "default",
    by: str = "category",
) -> list[dict[str, Any]]:
    """Macro averages per ``by`` group plus ``'all'``: dicts ``run_id, <by>, metric, k, old,
    new, gain, n_queries, n_no_results`` (gain = new - old; n_no_results = queries with
    judgments that the run returned nothing for, scored 0)."""
    if by not in BY:
        raise ToolexError(f"cannot group by {by!r}; choose one of {', '.join(BY)}")
    params = _params(store, run_ids, ks, expansion) | {"by": by}
    keys = ["run_id", by, "metric", "k", "old", "new", "gain", "n_queries", "n_no_results"]
    out = []
    for row in store.query("metrics/select/summary.sql", params):
        row[by] = row.pop("grp")
        out.append({key: row[key] for key in keys})
    return out


def main_table(
    store: Any,
    run_ids: Sequence[str],
    ks: Sequence[int] = (10,),
    expansion: str = "default",
    by: str = "category",
) -> list[dict[str, Any]]:
    """The paper's main table: one row per run x group (and 'all') x K with
    ``ndcg_old, ndcg_new, recall_old, recall_new, comp_old, comp_new`` and
    delta = (gain_N + gain_R + gain_C) / 3, plus n_queries and n_no_results."""
    out: dict[tuple[str, str, int], dict[str, Any]] = {}
    for row in summary(store, run_ids, ks, expansion, by):
        key = (row["run_id"], row[by], row["k"])
        entry = out.setdefault(key, {"run_id": row["run_id"], by: row[by], "k": row["k"]})
        entry[f"{row['metric']}_old"] = row["old"]
        entry[f"{row['metric']}_new"] = row["new"]
        entry["n_queries"], entry["n_no_results"] = row["n_queries"], row["n_no_results"]
    table = []
    for entry in out.values():
        gains = [entry[f"{m}_new"] - entry[f"{m}_old"] for m in METRICS]
        ordered = {key: entry[key] for key in ("run_id", by, "k")}
        for m in METRICS:
            ordered[f"{m}_old"], ordered[f"{m}_new"] = entry[f"{m}_old"], entry[f"{m}_new"]
        ordered["delta"] = sum(gains) / len(gains)
        ordered["n_queries"], ordered["n_no_results"] = entry["n_queries"], entry["n_no_results"]
        table.append(ordered)
    return table


def scores(
    store: Any, metric: Metric, run_ids: Sequence[str], *, expansion: str | None = None
) -> list[dict[str, Any]]:
    """Rows ``run_id, query_id, metric, k, value`` of one metric; old when expansion is None."""
    params = _params(store, run_ids, [metric.k], expansion) | {"metric": metric.name}
    return store.query("metrics/select/scores.sql", params)


def expansion_coverage(store: Any, run_ids: Sequence[str], expansion: str) -> dict[str, int]:
    """run_id -> number of its queries with at least one valid expanded combination."""
    params = {"run_ids": check_runs(store, run_ids), "expansion": expansion}
    rows = store.query("metrics/select/expansion_coverage.sql", params)
    return {row["run_id"]: row["n_expanded"] for row in rows}


def all_runs(store: Any) -> list[str]:
    """Every run id in the store, in name order."""
    return [row["run_id"] for row in store.query("metrics/select/run_ids.sql")]
