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
