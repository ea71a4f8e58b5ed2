"""The browser's typed rows (one per shipped browse query), so a screen reads ``tool.platform``
and a renamed column fails where the SQL is read (data.py), not in a screen."""

from __future__ import annotations

from typing import NamedTuple


class Tool(NamedTuple):
    """One item of the benchmark (sql/browse/30_tool.sql)."""

    item_id: str
    name: str | None
    kind: str | None
    platform: str | None
    task: str | None
    category: str | None
    doc: str | None  # its raw documentation, JSON text as loaded
    text: str | None


class ToolQuery(NamedTuple):
    """A query where the tool is ground truth (role 'gt') or was accepted in place of a slot's
    reference (role 'equivalent'; sql/browse/31_tool_queries.sql)."""

    role: str
    query_id: str
    slot: int | None
    reference: str | None  # the reference it stands in for (equivalent only)
    reference_name: str | None
    reason: str | None
    text: str


class ToolEquivalent(NamedTuple):
    """An item the tool replaces or is replaced by, across all queries
    (sql/browse/32_tool_equivalents.sql)."""

    relation: str  # 'replaces' | 'replaced by'
    item_id: str
    name: str | None
    platform: str | None
    steps: int
    queries: int
    subquery: str | None  # one sub-query where it happens, for an example


class QueryHeader(NamedTuple):
    """The query page's heading (sql/browse/20_query_header.sql)."""

    query_id: str
    task: str | None
    category: str | None
    text: str
    instruction: str | None


class Slot(NamedTuple):
    """One ground-truth tool of the query and its sub-query (sql/browse/21_query_subqueries.sql)."""

    slot: int
    gt_item: str
    gt_name: str | None
    platform: str | None
    subquery: str | None
    operation: str | None
    entity: str | None


class Candidate(NamedTuple):
    """A retrieved candidate of a slot with its verdict (sql/browse/22_query_candidates.sql)."""

    slot: int
    rank: int | None
    item_id: str
    name: str | None
    platform: str | None
    score: float | None
    accepted: bool | None  # None: no verdict
    reason: str | None
    judge: str | None
    is_reference: bool | None


class Member(NamedTuple):
    """A combination's member, in slot order."""

    item_id: str
    name: str | None
    is_gt: bool | None  # the slot's ground-truth tool


class Combination(NamedTuple):
    """One combination of the query (sql/browse/23_query_combinations.sql)."""

    combo_id: int
    rrf_rank: int | None
    rrf: float | None
    is_original: bool
    status: str | None
    reason: str | None
    judge: str | None
    members: list[Member] | None


class RankedEquivalent(NamedTuple):
    """An accepted equivalent a run ranked, with its rank."""

    item_id: str
    name: str | None
    rank: int


class RunRanks(NamedTuple):
    """Where one run ranked the query's tools (sql/browse/24_query_runs.sql): Recall@10 of the
    original label and the best valid combination, the GT's ranks by slot, the equivalents."""

    run_id: str
    r10_old: float | None
    r10_new: float | None
    gt_ranks: str | None
    equivalents: list[RankedEquivalent] | None
