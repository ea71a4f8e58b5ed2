"""Expanded qrels as Parquet: one row per (query, combination, slot, item) with the combination's
RRF score and audit verdict (sql/exports/10), or flattened per (query, item) (sql/exports/11).

The per-combination form is the one to score with: the new metrics take, per query, the best
score over the valid combinations (combo 0, the original, included). The flat form answers
"which tools count for this query" and keeps ``combo_ids`` so nothing is lost.

A combination no audit judged (``cut`` by the audit cap or the safety limit, or ``pending``) is
never relevant by default, in either form: its rows carry relevance 0 and the flat form leaves it
out. ``include_unaudited=True`` counts it, marked (``unaudited`` / ``unaudited_only``).
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from toolex.exports.common import resolve
from toolex.exports.files import output_file
from toolex.exports.queries import expanded_qrels_table, flat_qrels_table
from toolex.sqlrunner import Params
from toolex.store import Store


def expanded_qrels(
    store: Store,
    benchmark: str | None = None,
    expansion: str = "default",
    *,
    valid_only: bool = False,
    include_unaudited: bool = False,
) -> pa.Table:
    """The per-combination rows as an Arrow table (columns as in sql/exports/10)."""
    benchmark, expansion = resolve(store, benchmark, expansion)
    params: Params = {
        "benchmark": benchmark,
        "expansion": expansion,
        "valid_only": valid_only,
        "include_unaudited": include_unaudited,
    }
    return expanded_qrels_table(store, params)


def flat_qrels(
    store: Store,
    benchmark: str | None = None,
    expansion: str = "default",
    *,
    include_unaudited: bool = False,
) -> pa.Table:
    """One row per (query, item) of any valid combination (sql/exports/11); with
    ``include_unaudited``, of any unaudited one too (marked)."""
    members = expanded_qrels(
        store, benchmark, expansion, valid_only=True, include_unaudited=include_unaudited
    )
    with store.registered("export_members", members):
        return flat_qrels_table(store)


def export_qrels(
    store: Store,
    path: str | Path,
    benchmark: str | None = None,
    expansion: str = "default",
    *,
    flat: bool = False,
    valid_only: bool = False,
    include_unaudited: bool = False,
) -> int:
    """Write the expanded qrels (or their flat form) to a Parquet file; returns the row count."""
    table = (
        flat_qrels(store, benchmark, expansion, include_unaudited=include_unaudited)
        if flat
        else expanded_qrels(
            store,
            benchmark,
            expansion,
            valid_only=valid_only,
            include_unaudited=include_unaudited,
        )
    )
    with output_file(path, store.path) as temp:
        pq.write_table(table, temp)
    rows: int = table.num_rows
    return rows
