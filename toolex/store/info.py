"""What a store holds at a glance (`toolex info`, `toolex sql --tables`): the store's own
counting queries (``sql/store/2*_*.sql``), one typed row per line, so that a front end reads
fields the type checker knows rather than the SQL's column names."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from toolex.store.store import Store


class TableCount(NamedTuple):
    table: str
    rows: int  # the committed row count DuckDB keeps per table


class BenchmarkInfo(NamedTuple):
    benchmark: str
    format: str
    items: int
    queries: int
    labels: int  # qrels rows: the benchmark's relevance judgements
    source: str


class ExpansionInfo(NamedTuple):
    benchmark: str
    expansion: str
    subqueries: int
    valid: int  # valid combinations, the original included
    alternatives: int  # valid ones other than the original
    queries_with_alternative: int
    failed: int  # pipeline tasks whose answer failed


def table_counts(store: Store) -> list[TableCount]:
    """Every table of the store with its number of rows, in name order."""
    return store.typed("store/20_table_counts.sql", TableCount)


def benchmark_info(store: Store) -> list[BenchmarkInfo]:
    """One row per benchmark with its item, query and label counts."""
    return store.typed("store/21_info_benchmarks.sql", BenchmarkInfo)


def expansion_info(store: Store) -> list[ExpansionInfo]:
    """One row per expansion (run by `expand`, or imported) with what it holds."""
    return store.typed("store/22_info_expansions.sql", ExpansionInfo)
