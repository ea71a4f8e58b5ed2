"""The rows the pipeline's stages hand to toolex.expansions, one record per table they write.

Typed so that a renamed column is a type error at the stage that builds the row, not a failed
statement at the writer; each record's fields are columns of its table (a test compares them with
``DESCRIBE``) and, in this order, the columns of the registered batch its SQL file reads.
"""

from __future__ import annotations

from typing import NamedTuple


class SubqueryRow(NamedTuple):
    """One sub-query of a decomposition (``subqueries``; sql/expansions/23)."""

    query_id: str
    slot: int
    text: str
    operation: str | None
    entity: str | None
    reference: str  # the ground-truth item of the slot
    judge: str  # the decomposer's spec
    call_id: str | None


class CandidateRow(NamedTuple):
    """One candidate of a sub-query's list (``candidates``; sql/expansions/24): retrieved by the
    pipeline's stage 2a or imported, the reference included (rank K+1, no score, when the list
    missed it)."""

    query_id: str
    slot: int
    item_id: str
    rank: int  # 1-based
    score: float | None
    retriever: str  # the retriever's public spec, or import:<name>


class AuditStatus(NamedTuple):
    """The audit's verdict on a pending combination (``combinations``; sql/expansions/32)."""

    query_id: str
    combo_id: int
    status: str  # valid | rejected_audit
    reason: str | None
    judge: str  # the auditor's spec
    call_id: str | None


class ProductCount(NamedTuple):
    """An assembled query's product and audit budget (``combination_products``;
    sql/expansions/30, which counts what was stored and rejected itself)."""

    query_id: str
    product: str | None  # the product's size in digits (a HUGEINT); None past HUGEINT
    budget: int
    judge: str  # what set the budget: audit_cap | safety_limit
