"""The records of the LLM executor's work: a call to make, its result, and what the calls
have cost so far.

A judge makes ``Call``s (one per distinct prompt), the executor (toolex.llm.executor) or the
batch path (toolex.llm.batch) turns each into one ``Result``, and ``Spend`` adds up the ledger
rows their attempts wrote, for progress bars.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolex.llm.clients import Reply, Schema
from toolex.llm.corrections import Correction
from toolex.llm.ledger import Attempt


@dataclass
class Call:
    key: str  # task key it was made for (the first, when several tasks share one prompt)
    input_hash: str
    system: str
    user: str
    parse: Callable[[str], Any]  # raises AnswerError (with a ``hint``) on a malformed answer
    schema: Schema | None = None  # the answer's JSON schema, for structured output
    correction: Correction | None = None  # for the first attempt (a batch answer that failed)
    logprobs: int = 0  # alternatives per answer token to ask for (0: none)
    # Adds to a parsed answer what the reply carries beside its text (the verdict's token
    # probability), so the ledger serves it with the answer.
    annotate: Callable[[Any, Reply], Any] | None = None
    # The query the task belongs to: a run with a budget takes its calls round-robin over
    # groups, so the budget covers many queries (toolex.llm.calls.spread).
    group: str | None = None


@dataclass
class Result:
    call: Call
    ok: bool
    parsed: Any = None
    error: str | None = None
    call_id: str | None = None
    cached: bool = False
    attempts: int = 0


def seed_of(call: Call, correction: Correction | None) -> int:
    """The sampling seed of a request: the same for the same conversation (the call's prompt,
    and the rejected answer and its problem on a retry), so a server that honours seeds
    (OpenAI, llama.cpp, vLLM) answers a request asked again, after a resumed run re-sends
    what was in flight when it stopped, as it answered it the first time (issue 37.15)."""
    digest = hashlib.sha256(call.input_hash.encode())
    if correction is not None:
        for part in correction.turns():
            digest.update(len(part).to_bytes(8, "big") + part.encode("utf-8", "replace"))
    return int.from_bytes(digest.digest()[:4], "big") & 0x7FFFFFFF


@dataclass
class Spend:
    """What a judge has cost so far in this process (progress bars: calls and cost so far)."""

    attempts: int = 0  # HTTP attempts recorded, failures included
    served: int = 0  # answers served from the ledger
    cost_usd: float = 0.0  # sum over attempts whose price is known
    unpriced: int = 0  # attempts whose cost is unknown (model not in the price table)
    answered_s: list[float] = field(default_factory=list)  # latencies of attempts answered
    timeouts: int = 0  # attempts that timed out (toolex.llm.timeouts reads both)

    def add(self, rows: Sequence[Attempt]) -> None:
        for row in rows:
            self.attempts += 1
            if row.cost_usd is None:
                self.unpriced += row.status != "error"  # an error has no tokens to price
            else:
                self.cost_usd += row.cost_usd
            if row.status in ("ok", "malformed") and row.latency_ms is not None:
                self.answered_s.append(row.latency_ms / 1000)
            elif (row.error or "").startswith("timeout"):
                self.timeouts += 1


def spread(calls: Sequence[Call]) -> list[Call]:
    """``calls`` round-robin over their groups (in order of first appearance), each group's in
    its own order: the first call of every group, then the second of every group, ..."""
    groups: dict[str | None, list[Call]] = {}
    for call in calls:
        groups.setdefault(call.group, []).append(call)
    columns = list(groups.values())
    return [c[i] for i in range(max(map(len, columns), default=0)) for c in columns if i < len(c)]
