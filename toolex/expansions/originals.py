"""What the combination and sub-query imports both need from the store: the benchmark's original
combinations (qrels by slot), its item ids, the query each record names, and the expansions row
they write into."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from toolex.loaders.fields import Where, get_str
from toolex.store import Store


def original_combinations(store: Store, benchmark: str) -> dict[str, dict[int, str]]:
    """{query_id: {slot: item_id}} from qrels; raises if the benchmark is not loaded."""
    store.require_benchmark(benchmark)
    out: dict[str, dict[int, str]] = {}
    for row in store.rows("expansions/02_qrels_of_benchmark.sql", {"benchmark": benchmark}):
        out.setdefault(row["query_id"], {})[row["slot"]] = row["item_id"]
    return out


def item_ids(store: Store, benchmark: str) -> set[str]:
    return {
        r["item_id"] for r in store.rows("load/30_items_of_benchmark.sql", {"benchmark": benchmark})
    }


def record_query(
    rec: dict[str, Any],
    path: Path,
    line: int | None,
    originals: dict[str, dict[int, str]],
    benchmark: str,
) -> tuple[str, Where]:
    """The record's query id, which must be a query of the benchmark, and where to report errors."""
    query_id = get_str(rec, "query_id", Where(str(path), line))
    where = Where(str(path), line, query_id)
    if query_id not in originals:
        raise where.error(f"query id {query_id!r} is not in benchmark {benchmark!r}", "query_id")
    return query_id, where


def ensure_expansion(store: Store, benchmark: str, expansion: str, source: str | Path) -> None:
    """Create the expansions row (if missing) inside the caller's transaction."""
    store.execute(
        "expansions/01_ensure_expansion.sql",
        {
            "benchmark": benchmark,
            "expansion": expansion,
            "config": json.dumps({"imported_from": str(source)}),
        },
    )
