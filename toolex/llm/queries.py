"""The llm package's reads of its own SQL (sql/llm/): the call ledger's answers, pending batch
requests, and what was spent, as typed rows (``Store.typed``: a renamed column fails here,
naming the SQL file). The ledger's writes stay in toolex.llm.ledger, and so does its one read
left as dicts (``Ledger.rows``: every column of ``llm_calls`` as stored, for the tests)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # the ledger's callers load the store when they open one
    from toolex.store import Store


class HitRow(NamedTuple):
    """The newest ``ok`` answer of an input hash (sql/llm/20)."""

    input_hash: str
    call_id: str
    parsed: object  # the parsed answer as JSON text


class PendingRow(NamedTuple):
    """A batch request submitted and not collected yet (sql/llm/30)."""

    input_hash: str
    call_id: str
    batch_id: str
    attempt: int


class SummaryRow(NamedTuple):
    """Attempts per stage, judge and status, with tokens, cost and latency (sql/llm/50)."""

    stage: str
    judge: str
    status: str
    attempts: int
    prompt_tokens: int | None
    completion_tokens: int | None
    cost_usd: float | None
    avg_latency_ms: float | None


class UsageRow(NamedTuple):
    """Ledger rows of one group (stage, judge, model: None where not grouped by; sql/llm/51)."""

    stage: str | None
    judge: str | None
    model: str | None
    attempts: int
    ok: int
    failed: int
    pending: int
    tokens_in: int
    tokens_out: int
    cost_usd: float | None
    unpriced: int
    tasks: int
    served: int  # tasks answered by a call made for an identical prompt
    reused: int  # verdicts reused from another sub-query


class Uncalled(NamedTuple):
    """Outputs no call made, of one stage and who decided them (sql/llm/52)."""

    stage: str
    decided_by: str
    tasks: int


def ledger_hits(store: Store, hashes: list[str]) -> list[HitRow]:
    return store.typed("llm/20_ledger_hits.sql", HitRow, {"hashes": hashes})


def ledger_pending(store: Store, hashes: list[str]) -> list[PendingRow]:
    return store.typed("llm/30_ledger_pending.sql", PendingRow, {"hashes": hashes})


def ledger_summary(store: Store) -> list[SummaryRow]:
    return store.typed("llm/50_ledger_summary.sql", SummaryRow)


def ledger_usage(store: Store, grouped: Mapping[str, bool]) -> list[UsageRow]:
    """``grouped``: ``by_stage``, ``by_judge``, ``by_model``, each True to group by it."""
    return store.typed("llm/51_ledger_usage.sql", UsageRow, grouped)


def uncalled(store: Store) -> list[Uncalled]:
    return store.typed("llm/52_ledger_uncalled.sql", Uncalled)
