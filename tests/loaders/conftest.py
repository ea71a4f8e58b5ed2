"""Helpers for loader tests: a snapshot of the store to prove a failed load changed nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolex.store import Store

DATA = Path(__file__).resolve().parents[1] / "data"
TABLES = (
    "benchmarks",
    "items",
    "item_docs",
    "queries",
    "qrels",
    "runs",
    "run_results",
    "expansions",
    "subqueries",
    "combinations",
    "combination_items",
)


def store_state(store: Store) -> dict[str, object]:
    """Row counts of every table a load or import touches, plus the benchmarks rows."""
    out: dict[str, object] = {
        t: store.con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0] for t in TABLES
    }
    out["benchmark_rows"] = store.con.execute(
        "SELECT benchmark, format, source, revision, loaded_at FROM benchmarks ORDER BY 1"
    ).fetchall()
    return out


@pytest.fixture
def data_dir() -> Path:
    return DATA
