"""The done-when run: 20% of answers faulty (429 with Retry-After, 500, hangs past the timeout,
malformed JSON, wrong k) through the real SDKs. The run completes, every fault is exactly one
non-ok ledger row, every task ends with exactly one answer, and an identical second run makes no
HTTP call."""

from __future__ import annotations

import pytest

from llm.llm_support import (
    ANTHROPIC_KEY,
    OPENAI_KEY,
    FaultPlan,
    ScriptedServer,
    chat_count,
    decompose_tasks,
    judge_for,
    outcome_view,
    verify_tasks,
)
from toolex.llm.ledger import Ledger
from toolex.store import Store

# The client's timeout: what each hang costs, and the margin a loaded machine has before an
# answered request would time out as well (every timeout must be a hang: issue 25).
HANG_TIMEOUT_S = 5.0


@pytest.mark.slow
@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_twenty_percent_faults_complete_and_every_fault_is_a_ledger_row(
    llm_env: dict[str, str], store: Store, provider: str
) -> None:
    plan = FaultPlan(rate=0.2)
    verify, decompose = verify_tasks(100), decompose_tasks(30)
    with ScriptedServer(faults=plan) as s:  # a hang is held until the client gives up
        judge = judge_for(provider, s, store, timeout_s=HANG_TIMEOUT_S)
        got = list(judge.verify(verify)) + list(judge.decompose(decompose))
        sent = chat_count(s)
        faults = {k: n for k, n in s.served.items() if k != "ok"}

        rows = Ledger(store).rows()
        again = list(judge.verify(verify)) + list(judge.decompose(decompose))
        assert chat_count(s) == sent  # identical second run: zero HTTP calls

    keys = [o.key for o in got]
    assert sorted(keys) == sorted(t.key for t in verify + decompose)  # nothing lost or doubled
    assert all(o.ok for o in got), [o.error for o in got if not o.ok]
    assert set(faults) == {"429", "500", "hang", "malformed", "wrong_k"}
    assert sum(faults.values()) == len(keys) // 5  # 20% of the answers were faulty
    assert len(rows) == sent  # one ledger row per HTTP attempt
    bad = [r for r in rows if r["status"] != "ok"]
    assert len(bad) == sum(faults.values())
    assert sum(r["status"] == "malformed" for r in bad) == faults["malformed"] + faults["wrong_k"]
    assert sum("timeout" in r["error"] for r in bad) == faults["hang"]
    assert sum("HTTP 429" in r["error"] for r in bad) == faults["429"]
    assert sum("HTTP 500" in r["error"] for r in bad) == faults["500"]
    assert sum("wrong number of sub-queries" in r["error"] for r in bad) == faults["wrong_k"]
    ok = [r for r in rows if r["status"] == "ok"]
    assert len(ok) == len({r["input_hash"] for r in ok}) == len(keys)
    assert {o.call_id for o in got} == {r["call_id"] for r in ok}
    retried = [o for o in got if o.extra["attempts"] > 1]
    assert len(retried) == len({r["input_hash"] for r in bad})
    assert outcome_view(again) == outcome_view(got)
    assert all(o.extra["cached"] for o in again)
    assert judge.spend is not None
    assert judge.spend.attempts == sent and judge.spend.served == len(keys)
    assert judge.spend.cost_usd == pytest.approx(sum(r["cost_usd"] or 0 for r in rows))
    assert judge.spend.unpriced == 0
    assert {o.key: o.call_id for o in again} == {o.key: o.call_id for o in got}
    for row in rows:  # the key is never stored
        assert not any(k in str(v) for v in row.values() for k in (OPENAI_KEY, ANTHROPIC_KEY))
