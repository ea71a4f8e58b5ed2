"""What the combination and sub-query imports both need from the store: the benchmark's original
combinations (qrels by slot), its item ids, the query each record names, and the expansions row
they write into."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from toolex.expansions.queries import qrels_of_benchmark
from toolex.loaders.fields import Where, get_str
from toolex.store import Store


def original_combinations(store: Store, benchmark: str) -> dict[str, dict[int, str]]:
    """{query_id: {slot: item_id}} from qrels; raises if the benchmark is not loaded."""
    store.require_benchmark(benchmark)
    out: dict[str, dict[int, str]] = {}
    for qrel in qrels_of_benchmark(store, benchmark):
        out.setdefault(qrel.query_id, {})[qrel.slot] = qrel.item_id
    return out


def qrel_grades(store: Store, benchmark: str) -> dict[str, dict[int, int]]:
    """{query_id: {slot: the grade of its qrel}} from qrels."""
    out: dict[str, dict[int, int]] = {}
    for qrel in qrels_of_benchmark(store, benchmark):
        out.setdefault(qrel.query_id, {})[qrel.slot] = int(qrel.relevance)
    return out


def tool_set(members: dict[int, str], grades: dict[int, int]) -> frozenset[tuple[str, int]]:
    """What scoring reads of a combination (sql/metrics/020): its distinct items, each at the
    grade of the qrel of the slot it fills (the highest, for an item in two slots; 1 for a slot
    without a qrel). Two combinations of one tool set score the same on every metric: a query's
    combinations are distinct tool sets (the assembly keeps one per set,
    sql/stages/4_assemble/22; `toolex check` holds them to it,
    sql/checks/pipeline_combinations_distinct)."""
    best: dict[str, int] = {}
    for slot, item in members.items():
        best[item] = max(best.get(item, 0), grades.get(slot, 1))
    return frozenset(best.items())


def record_query(
    rec: Mapping[str, object],
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
