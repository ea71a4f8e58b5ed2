"""The labels package's reads of its own SQL (sql/labels/), each returning typed rows
(``Store.typed``: a renamed column fails here, naming the SQL file, not in the code that reads
the field). The writes stay with the functions that decide them (toolex.labels.table, .report).

Several reads look at labels registered for the block by the caller (``new_labels``,
``eval_labels``): the function says which."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from toolex.store import Store


class SourceCount(NamedTuple):
    """A source of the registered ``new_labels`` with the labels the store holds of it."""

    source: str
    stored: int


class StoredLabel(NamedTuple):
    """A row of ``labels``, its stratum as JSON text (sql/labels/30)."""

    benchmark: str
    query_id: str
    slot: int | None
    subquery: str | None
    reference: str
    candidate: str
    label: str
    labeller: str
    note: str | None
    source: str
    stratum: str | None
    labelled_at: datetime | None


class LabelSet(NamedTuple):
    """The labels of one source and benchmark, counted (`toolex labels list`)."""

    source: str
    benchmark: str
    labels: int
    yes: int
    no: int
    queries: int
    labellers: str  # comma-separated, sorted
    labelled_at: str  # the last label's time, 'YYYY-MM-DD HH:MM'


class LabelProblem(NamedTuple):
    """A registered new label the store cannot place (sql/labels/10): an unknown query or
    item, a reference that is not a ground-truth item, or the wrong slot."""

    line: int | None
    benchmark: str
    query_id: str
    slot: int | None
    reference: str
    candidate: str
    query_known: bool
    reference_known: bool
    candidate_known: bool
    gt_slot: int | None
    gt_items: list[str] | None


class LabelTaskRow(NamedTuple):
    """A registered label to evaluate a verifier on, with what the verifier is shown: the
    request, the sub-queries known for the reference, both tools (sql/labels/40)."""

    key: str
    benchmark: str
    query_id: str
    slot: int
    reference: str
    candidate: str
    label: str
    note: str | None
    source: str
    stratum: str | None  # JSON text
    label_subquery: str | None
    expansion_subquery: str | None
    expansion_rank: int | None
    request: str
    query_category: str | None
    r_name: str | None
    r_platform: str | None
    r_doc: object
    r_text: str | None
    r_kind: str | None
    c_kind: str | None
    c_name: str | None
    c_platform: str | None
    c_doc: object
    c_text: str | None


class ReferenceTool(NamedTuple):
    """A reference (a ground-truth tool) of a query, with the query and the tool's documentation."""

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


def source_counts(store: Store) -> list[SourceCount]:
    """Per source of the registered ``new_labels``: how many labels the store holds of it."""
    return store.typed("labels/20_source_counts.sql", SourceCount)


def stored_label_rows(store: Store, source: str | None, benchmark: str | None) -> list[StoredLabel]:
    """The labels in the store (of ``source`` and ``benchmark`` when not None)."""
    params = {"source": source, "benchmark": benchmark}
    return store.typed("labels/30_labels.sql", StoredLabel, params)


def label_summary(store: Store) -> list[LabelSet]:
    """Per source and benchmark: labels, yes, no, queries, labellers, last labelled."""
    return store.typed("labels/31_label_summary.sql", LabelSet)


def label_problems(store: Store) -> list[LabelProblem]:
    """The registered ``new_labels`` the store cannot place, by line."""
    return store.typed("labels/10_check_labels.sql", LabelProblem)


def label_task_rows(store: Store, expansion: str) -> list[LabelTaskRow]:
    """The registered ``eval_labels`` the store can place, by key (the others are dropped)."""
    return store.typed("labels/40_label_tasks.sql", LabelTaskRow, {"expansion": expansion})


def references(store: Store, benchmark: str, query_ids: list[str]) -> list[ReferenceTool]:
    """The references (ground-truth tools) of ``query_ids``, by query and slot."""
    params = {"benchmark": benchmark, "query_ids": query_ids}
    return store.typed("labels/41_references.sql", ReferenceTool, params)
