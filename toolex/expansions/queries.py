"""The expansions package's reads of its own SQL (sql/expansions/) for the imports, as typed
rows (``Store.typed``: a renamed column fails here, naming the SQL file). The writes stay with
the functions that decide them (toolex.expansions.stage_outputs and the imports).

The ``stored_*`` and ``conflicting_*`` reads look at rows the caller registered for the block
(``new_candidate_keys``, ``new_subqueries``, ``new_combinations``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from toolex.store import Store


class Qrel(NamedTuple):
    """A ground-truth tool of a query, by slot (sql/expansions/02)."""

    query_id: str
    item_id: str
    slot: int
    relevance: int


class SubqueryReference(NamedTuple):
    """A sub-query of an expansion and the reference tool it was made for."""

    query_id: str
    slot: int
    reference: str


class StoredCandidates(NamedTuple):
    """What the expansion already holds for the sub-queries of an import: their candidate lists
    (the first query with one) and the verdicts on them."""

    lists: int
    first_query: str | None
    verdicts: int


class StoredSubqueries(NamedTuple):
    """The queries of an import that already have sub-queries (the first of them)."""

    queries: int
    first_query: str | None


class CombinationKey(NamedTuple):
    query_id: str
    combo_id: int


def qrels_of_benchmark(store: Store, benchmark: str) -> list[Qrel]:
    """The benchmark's qrels, by query and slot."""
    return store.typed("expansions/02_qrels_of_benchmark.sql", Qrel, {"benchmark": benchmark})


def subquery_references(store: Store, params: Mapping[str, str]) -> list[SubqueryReference]:
    """``params``: benchmark, expansion. Its sub-queries by query and slot."""
    return store.typed("expansions/25_expansion_subqueries.sql", SubqueryReference, params)


def stored_candidates(store: Store, params: Mapping[str, str]) -> StoredCandidates:
    """``params``: benchmark, expansion; the keys registered as ``new_candidate_keys``."""
    return store.typed("expansions/26_stored_candidates.sql", StoredCandidates, params)[0]


def stored_subqueries(store: Store, params: Mapping[str, str]) -> StoredSubqueries:
    """``params``: benchmark, expansion; the sub-queries registered as ``new_subqueries``."""
    return store.typed("expansions/20_stored_subqueries.sql", StoredSubqueries, params)[0]


def conflicting_combination(store: Store, params: Mapping[str, str]) -> CombinationKey | None:
    """A stored combination (not an original) that one registered as ``new_combinations``
    would replace; None when there is none."""
    rows = store.typed("expansions/10_conflicting_combinations.sql", CombinationKey, params)
    return rows[0] if rows else None
