"""What the assembly reads back before it applies the dependency rule: typed rows of the
``stages/4_assemble`` reads that leave SQL for Python (toolex.pipeline.platform_rule decides on
them). The SQL files are the pipeline's own; this module is the only one that names these."""

from __future__ import annotations

from typing import NamedTuple

from toolex.sqlrunner import Params
from toolex.store import Store


class OriginalTool(NamedTuple):
    """A slot of an assembled query's original combination: its ground-truth tool."""

    query_id: str
    slot: int
    item_id: str
    platform: str | None
    doc: object  # the item's JSON documentation (text, or already parsed)


class ExplicitEdge(NamedTuple):
    """A producer -> consumer edge of an assembled query's call chain (``dependency_edges``)."""

    query_id: str
    producer_slot: int
    consumer_slot: int
    value: str  # what is handed over; '' when the edge does not name it
    source: str  # 'loaded' | 'imported'


class EdgeMember(NamedTuple):
    """An accepted alternative of a slot on an edge that names its value, with the role it
    plays there (the first seven fields are the ``edge_fit`` relation's, in its order)."""

    query_id: str
    slot: int
    item_id: str
    value: str
    role: str  # 'produce' | 'accept'
    other_slot: int
    source: str
    doc: object


def assembly_originals(store: Store, benchmark: str, expansion: str) -> list[OriginalTool]:
    """The original tools of the queries being assembled, by query and slot."""
    params = {"benchmark": benchmark, "expansion": expansion}
    return store.typed("stages/4_assemble/04_assemble_originals.sql", OriginalTool, params)


def assembly_edges(store: Store, benchmark: str) -> list[ExplicitEdge]:
    """The explicit edges of the queries being assembled."""
    return store.typed(
        "stages/4_assemble/05_assemble_edges.sql", ExplicitEdge, {"benchmark": benchmark}
    )


def edge_members(store: Store, benchmark: str, expansion: str) -> list[EdgeMember]:
    """Every accepted alternative of a slot on a named-value edge, with its documentation."""
    params = {"benchmark": benchmark, "expansion": expansion}
    return store.typed("stages/4_assemble/07_edge_members.sql", EdgeMember, params)


class PendingWork(NamedTuple):
    """What the chosen queries of an expansion still lack, stage by stage (a dry run's counts;
    ``undecomposed_slots``: ground-truth tools of queries not decomposed yet)."""

    undecomposed_slots: int
    subqueries_without_candidates: int
    unassembled_queries: int
    assembled_queries: int
    audit_tasks: int  # combinations of the assembled queries, originals and imports aside


def pending_work(store: Store, params: Params) -> PendingWork:
    """The counts of ``stages/expansion/03_pending_work.sql`` (one row) as integers."""
    row = store.typed("stages/expansion/03_pending_work.sql", PendingWork, params)[0]
    return PendingWork._make(int(v) for v in row)


def checklist_edges(store: Store, benchmark: str, query_ids: list[str]) -> list[ExplicitEdge]:
    """The explicit edges of the queries whose combinations the audit checks, by consumer."""
    params = {"benchmark": benchmark, "query_ids": query_ids}
    return store.typed("stages/5_audit/03_checklist_edges.sql", ExplicitEdge, params)


class DecomposeMember(NamedTuple):
    """A ground-truth tool of a query still to decompose (its item's fields None when the
    library lacks it: ``item_found``)."""

    query_id: str
    query: str
    instruction: str | None
    slot: int
    item_id: str
    name: str | None
    platform: str | None
    doc: object
    text: str | None
    kind: str | None
    item_found: bool


def decompose_pending(store: Store, params: Params) -> list[DecomposeMember]:
    """The queries to decompose, one row per ground-truth tool, by query and slot."""
    return store.typed("stages/1_decompose/01_decompose_pending.sql", DecomposeMember, params)


class ChecklistStep(NamedTuple):
    """A sub-query of a query whose combinations the audit checks, with its reference tool (its
    fields None when the library lacks it)."""

    query_id: str
    query: str
    instruction: str | None
    slot: int
    text: str
    reference: str
    ref_name: str | None
    ref_platform: str | None
    ref_doc: object
    ref_text: str | None
    ref_kind: str | None


def checklist_steps(store: Store, params: Params) -> list[ChecklistStep]:
    """The sub-queries of the queries being audited, by query and slot."""
    return store.typed("stages/5_audit/02_checklists.sql", ChecklistStep, params)


class PendingSubquery(NamedTuple):
    """A sub-query without candidates yet, with the reference tool its list must hold."""

    query_id: str
    slot: int
    text: str
    reference: str


def candidates_pending(store: Store, params: Params) -> list[PendingSubquery]:
    """The sub-queries of the chosen queries that have no candidate list, by query and slot."""
    return store.typed("stages/2_candidates/01_candidates_pending.sql", PendingSubquery, params)
