"""The call ledger on its own: what it serves, what it never serves, and its summary."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from toolex.llm.ledger import Attempt, Ledger, input_hash
from toolex.store import Store

T0 = datetime(2026, 1, 1, 12, 0, 0)


def attempt(
    h: str, status: str, parsed: dict[str, str] | None = None, at: int = 0, **kw: Any
) -> Attempt:
    return Attempt(
        "verify",
        "openai:gpt-4o",
        "gpt-4o",
        "verify-abc",
        h,
        "q/0/x",
        status,
        parsed=parsed,
        created_at=T0 + timedelta(seconds=at),
        **kw,
    )


def test_serves_the_newest_ok_row_and_never_a_failure(store: Store) -> None:
    ledger = Ledger(store)
    old = attempt("h1", "ok", {"verdict": "no", "reason": "old"}, at=0)
    new = attempt("h1", "ok", {"verdict": "yes", "reason": "new"}, at=5)
    later_failure = attempt("h1", "malformed", at=9, error="not valid JSON", response="yes")
    ledger.record([old, new, later_failure])
    ledger.record(
        [
            attempt("h2", "error", at=1, error="HTTP 500"),
            attempt("h3", "pending", at=1, batch_id="batch_1"),
        ]
    )
    hits = ledger.hits(["h1", "h2", "h3", "h4"])
    assert hits == {"h1": (new.call_id, {"verdict": "yes", "reason": "new"})}
    pending = ledger.pending(["h1", "h2", "h3"])
    assert list(pending) == ["h3"] and pending["h3"][1] == "batch_1"


def test_settle_turns_a_pending_row_into_an_answer(store: Store) -> None:
    ledger = Ledger(store)
    row = attempt("h", "pending", batch_id="b1")
    ledger.record([row])
    ledger.settle(
        row.call_id,
        {
            "status": "ok",
            "error": None,
            "response": "{}",
            "parsed": {"verdict": "yes", "reason": "r"},
            "prompt_tokens": 10,
            "completion_tokens": 2,
            "cost_usd": 0.5,
            "latency_ms": None,
        },
    )
    assert ledger.hits(["h"]) == {"h": (row.call_id, {"verdict": "yes", "reason": "r"})}
    assert ledger.pending(["h"]) == {}
    [summary] = ledger.summary()
    assert (summary.stage, summary.status, summary.attempts, summary.cost_usd) == (
        "verify",
        "ok",
        1,
        0.5,
    )


def test_rows_commit_on_their_own_even_inside_a_rolled_back_stage_transaction(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.duckdb"
    with Store.open(path) as store:
        ledger = Ledger(store)
        try:
            with store.transaction():
                ledger.record([attempt("h", "ok", {"verdict": "no", "reason": "r"})])
                raise KeyboardInterrupt  # the stage dies mid-transaction
        except KeyboardInterrupt:
            pass
    with Store.open(path, read_only=True) as store:  # a dry run reads the ledger read-only
        assert list(Ledger(store).hits(["h"])) == ["h"]


def test_input_hash_covers_every_part() -> None:
    base = ("openai:gpt-4o", "gpt-4o", "verify-abc", "system", "user")
    h = input_hash(*base)
    assert len(h) == 64 and h == input_hash(*base)
    for i in range(5):
        changed = list(base)
        changed[i] = changed[i] + "x"
        assert input_hash(*changed) != h
    # parts are length-prefixed: moving text across a boundary changes the hash
    assert input_hash("a", "b", "c", "sys", "tem") != input_hash("a", "b", "c", "syst", "em")
