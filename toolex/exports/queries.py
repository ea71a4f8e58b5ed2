"""The exports package's reads of its own SQL (sql/exports/): the only module that names those
files. Rows a caller reads field by field come back typed (``Store.typed``: a renamed column
fails here, naming the SQL file); whole tables that go to a file as they are stay Arrow."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from toolex.sqlrunner import Params
from toolex.store import Store

if TYPE_CHECKING:
    import pyarrow as pa


class ToolBenchCombination(NamedTuple):
    """A valid combination of an expansion (combo 0: the original) with its members' raw
    documentation, in slot order (sql/exports/50)."""

    query_id: str
    task: str  # the StableToolBench group
    combo_id: int
    members: list[str]  # item ids
    docs: list[str]  # each member's items.doc as loaded (the api_list entry, JSON text)


class ToolRetQuery(NamedTuple):
    """A query in the shape of ToolRet's queries.json, its original labels in slot order
    (sql/exports/30)."""

    id: str
    query: str
    instruction: str | None
    task: str | None
    category: str | None
    labels: list[dict[str, object]]  # {id, relevance}, as in ToolRet


class GraphNode(NamedTuple):
    """An item at either end of an equivalence edge (sql/exports/42)."""

    id: str
    name: str | None
    platform: str | None
    kind: str | None
    degree: int  # the distinct items it is linked to


class GraphLink(NamedTuple):
    """One (reference -> candidate) edge of the equivalence graph (sql/exports/41)."""

    source: str
    target: str
    steps: int
    queries: int
    subqueries: list[str]
    judges: list[str]
    mean_confidence: float | None


class PlatformPair(NamedTuple):
    """Two providers with equivalent endpoints between them (sql/exports/43)."""

    platform_a: str
    platform_b: str
    equivalent_pairs: int
    steps: int
    covered_a: int
    endpoints_a: int
    covered_b: int
    endpoints_b: int
    share_a: float
    share_b: float


def toolbench_combinations(
    store: Store, benchmark: str, expansion: str
) -> list[ToolBenchCombination]:
    """Every valid combination of ``expansion``, by query and combination."""
    params = {"benchmark": benchmark, "expansion": expansion}
    return store.typed("exports/50_toolbench_combinations.sql", ToolBenchCombination, params)


def toolret_queries(store: Store, benchmark: str) -> list[ToolRetQuery]:
    """The benchmark's labelled queries in ToolRet's shape, by query id."""
    return store.typed("exports/30_toolret_queries.sql", ToolRetQuery, {"benchmark": benchmark})


def graph_nodes(store: Store, benchmark: str) -> list[GraphNode]:
    """The nodes of the edges registered as ``equivalence_edges``, most linked first."""
    return store.typed(
        "exports/42_equivalence_graph_nodes.sql", GraphNode, {"benchmark": benchmark}
    )


def graph_links(store: Store) -> list[GraphLink]:
    """The edges registered as ``equivalence_edges``, one per (reference, candidate) pair."""
    return store.typed("exports/41_equivalence_graph_edges.sql", GraphLink)


def platform_pairs(store: Store, benchmark: str, min_pairs: int) -> list[PlatformPair]:
    """Provider pairs of the edges registered as ``equivalence_edges``, most pairs first."""
    params: Params = {"benchmark": benchmark, "min_pairs": min_pairs}
    return store.typed("exports/43_redundant_platforms.sql", PlatformPair, params)


# -- whole tables, written to a file as they come (Arrow) -------------------------------------


def expanded_qrels_table(store: Store, params: Params) -> pa.Table:
    return store.arrow("exports/10_expanded_qrels.sql", params)


def flat_qrels_table(store: Store) -> pa.Table:
    """The members registered as ``export_members``, one row per (query, item)."""
    return store.arrow("exports/11_flat_qrels.sql")


def equivalence_edges_table(store: Store, benchmark: str, expansion: str) -> pa.Table:
    params = {"benchmark": benchmark, "expansion": expansion}
    return store.arrow("exports/40_equivalence_edges.sql", params)


def training_triples_table(store: Store, params: Params) -> pa.Table:
    return store.arrow("exports/60_training_triples.sql", params)


def run_result_batches(store: Store, run_id: str) -> Iterator[pa.RecordBatch]:
    """One run's results in Arrow batches, read as they are written."""
    return store.batches("exports/20_run_results.sql", {"run_id": run_id})
