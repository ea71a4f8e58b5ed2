"""The review package's reads of its own SQL (sql/review/) whose rows have one shape, returned
as typed rows (``Store.typed``: a renamed column fails here, naming the SQL file).

An item of a sample is still a dict, read where it was (toolex.review.finals, .labels): its
columns are its level's (the items SQL in :attr:`~toolex.review.levels.Level.sql` differs
between the combination and the verdict level, and a role's labels are added to it), and the
TUI and the sheets read it by the level's key columns. Typing it is a record per level.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from toolex.sqlrunner import Params
from toolex.store import Store

if TYPE_CHECKING:
    import pyarrow as pa


class SampleUse(NamedTuple):
    """What a sample name is used by: items of either level, rows of a label set (review/14)."""

    combinations: int
    verdicts: int
    labels: int


class SampleName(NamedTuple):
    sample_id: str
    level: str  # 'combination' | 'verdict'


class StratumSize(NamedTuple):
    """A stratum (category x number of tools) of the accepted combinations (review/10)."""

    stratum: str
    n: int


class VerdictRationale(NamedTuple):
    """The verifier's verdict on one candidate (review/55)."""

    accepted: bool
    reason: str | None
    judge: str | None
    confidence: float | None


class CombinationRationale(NamedTuple):
    """One slot of a combination with the audit's and the verifier's rationale (review/56)."""

    status: str
    audit_reason: str | None
    audit_judge: str | None
    slot: int
    item_id: str
    is_reference: bool | None
    verify_reason: str | None
    verify_judge: str | None
    confidence: float | None


class ProtocolRow(NamedTuple):
    show_rationale: bool | None


class RoleReviewer(NamedTuple):
    role: str
    reviewer: str


class SlotMember(NamedTuple):
    """A slot of a sampled combination: its sub-query, its item and the ground truth's."""

    slot: int
    subquery: str | None
    candidate: str
    reference: str | None


class VerdictStratum(NamedTuple):
    """A stratum of a verdict sample: its population and how many were drawn (review/63)."""

    stratum: str
    part: str
    category: str
    rank_band: str
    population: int
    drawn: int


class ItemDoc(NamedTuple):
    item_id: str
    name: str | None
    platform: str | None
    doc: object  # the item's JSON documentation (text, or already parsed)


class AuditSampleItem(NamedTuple):
    """A sampled combination with the audit's stored outcome and its query (review/70)."""

    benchmark: str
    expansion: str
    query_id: str
    combo_id: int
    stratum: str
    status: str
    reason: str | None
    judge: str | None
    query: str
    instruction: str | None
    category: str | None


class AuditMember(NamedTuple):
    """A slot of a sampled combination with its item's documentation (review/71)."""

    query_id: str
    combo_id: int
    slot: int
    item_id: str
    subquery: str | None
    name: str | None
    platform: str | None
    doc: object
    text: str | None
    kind: str | None


class VerdictSettings(NamedTuple):
    """How an expansion's candidates were retrieved: as recorded, and as found (review/40)."""

    config_retriever: str | None
    config_depth: int | None
    config_scope: str | None
    retriever: str | None
    depth: int | None
    subqueries: int


class SubqueryText(NamedTuple):
    query_id: str
    slot: int
    text: str


def sample_use(store: Store, sample_id: str) -> SampleUse:
    return store.typed("review/14_sample_level.sql", SampleUse, {"sample_id": sample_id})[0]


def samples(store: Store) -> list[SampleName]:
    """Every sample of either level, by name."""
    return store.typed("review/15_samples.sql", SampleName)


def population_strata(store: Store, benchmark: str, expansion: str) -> list[StratumSize]:
    params = {"benchmark": benchmark, "expansion": expansion}
    return store.typed("review/10_population_strata.sql", StratumSize, params)


def shows_rationale(store: Store, sample_id: str) -> bool:
    """Whether the sample's reviewers see the judge's rationale (no protocol row: no)."""
    rows = store.typed("review/17_protocol.sql", ProtocolRow, {"sample_id": sample_id})
    return bool(rows and rows[0].show_rationale)


def verdict_rationale(
    store: Store, key: Params, slot: int, item_id: str
) -> VerdictRationale | None:
    """The verdict on ``item_id`` at ``slot`` of the query named by ``key`` (benchmark,
    expansion, query_id); None when the verifier was never asked."""
    params = {**key, "slot": slot, "item_id": item_id}
    rows = store.typed("review/55_verdict_rationale.sql", VerdictRationale, params)
    return rows[0] if rows else None


def combination_rationale(store: Store, key: Params, combo_id: int) -> list[CombinationRationale]:
    params = {**key, "combo_id": combo_id}
    return store.typed("review/56_combination_rationale.sql", CombinationRationale, params)


def role_reviewers(store: Store, labels: str, sample_id: str) -> list[RoleReviewer]:
    """Who holds each role of a sample so far (``labels``: the level's labels table)."""
    params = {"labels": labels, "sample_id": sample_id}
    return store.typed("review/23_role_reviewers.sql", RoleReviewer, params)


def item_members(store: Store, key: Params) -> list[SlotMember]:
    """The slots of the combination named by ``key`` (benchmark, expansion, query_id,
    combo_id)."""
    return store.typed("review/21_item_members.sql", SlotMember, key)


def verdict_strata(store: Store, sample_id: str) -> list[VerdictStratum]:
    return store.typed("review/63_verdict_strata.sql", VerdictStratum, {"sample_id": sample_id})


def item_docs(store: Store, benchmark: str, item_ids: Sequence[str]) -> list[ItemDoc]:
    params = {"benchmark": benchmark, "item_ids": sorted(set(item_ids))}
    return store.typed("review/54_item_docs.sql", ItemDoc, params)


def audit_sample(store: Store, sample_id: str) -> list[AuditSampleItem]:
    params = {"sample_id": sample_id}
    return store.typed("review/70_audit_sample.sql", AuditSampleItem, params)


def audit_members(store: Store, sample_id: str) -> list[AuditMember]:
    """Every slot of the sample's combinations, by query, combination and slot."""
    return store.typed("review/71_audit_members.sql", AuditMember, {"sample_id": sample_id})


def verdict_settings(store: Store, benchmark: str, expansion: str) -> VerdictSettings:
    params = {"benchmark": benchmark, "expansion": expansion}
    return store.typed("review/40_verdict_settings.sql", VerdictSettings, params)[0]


def retrieved_subqueries(store: Store, benchmark: str, expansion: str) -> list[SubqueryText]:
    """The expansion's sub-queries that have candidates, by query and slot."""
    params = {"benchmark": benchmark, "expansion": expansion}
    return store.typed("review/41_verdict_subqueries.sql", SubqueryText, params)


def verdict_population(store: Store, params: Params) -> pa.Table:
    return store.arrow("review/42_verdict_population.sql", params)
