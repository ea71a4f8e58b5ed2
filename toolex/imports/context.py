"""What the combination and sub-query imports both need from the store: the benchmark's original
combinations (qrels by slot), its item ids, and the expansions row they write into."""

from __future__ import annotations

import json
from pathlib import Path

from toolex.errors import ToolexError
from toolex.loaders.common import existing_benchmark
from toolex.store import Store


def original_combinations(store: Store, benchmark: str) -> dict[str, dict[int, str]]:
    """{query_id: {slot: item_id}} from qrels; raises if the benchmark is not loaded."""
    if existing_benchmark(store, benchmark) is None:
        raise ToolexError(f"no benchmark {benchmark!r} in the store; load it first")
    out: dict[str, dict[int, str]] = {}
    for row in store.query("imports/02_qrels_of_benchmark.sql", {"benchmark": benchmark}):
        out.setdefault(row["query_id"], {})[row["slot"]] = row["item_id"]
    return out


def item_ids(store: Store, benchmark: str) -> set[str]:
    return {
        r["item_id"]
        for r in store.query("load/30_items_of_benchmark.sql", {"benchmark": benchmark})
    }


def ensure_expansion(store: Store, benchmark: str, expansion: str, source: str | Path) -> None:
    """Create the expansions row (if missing) inside the caller's transaction."""
    store.execute(
        "imports/01_ensure_expansion.sql",
        {
            "benchmark": benchmark,
            "expansion": expansion,
            "config": json.dumps({"imported_from": str(source)}),
        },
    )
