"""Budgets (toolex/llm/budget.py): a capped run stops before its limit, never exceeds it by more
than the calls in flight, leaves the rest pending, and a later run finishes the work, against
the scripted server with a price per token."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from llm.llm_support import ScriptedServer, chat_count, judge_for, outcome_view, verify_tasks
from toolex.llm.budget import Budget, Reservation
from toolex.llm.ledger import Ledger
from toolex.llm.pricing import set_overrides
from toolex.store import Store


@pytest.fixture
def priced() -> Iterator[None]:
    """gpt-4o-mini at 1,000 USD per million tokens both ways: a call costs about a dollar."""
    set_overrides({"gpt-4o-mini": (1000.0, 1000.0)})
    yield
    set_overrides({})


def test_admission_counts_calls_in_flight_and_then_refuses_everything() -> None:
    budget = Budget(max_calls=2)
    first = budget.admit(None, "s", "u", 100)
    second = budget.admit(None, "s", "u", 100)
    assert first and second and budget.in_flight == 2
    assert budget.admit(None, "s", "u", 100) is None and budget.exhausted
    budget.settle(first, None)
    assert budget.admit(None, "s", "u", 100) is None  # spent for the run, even with room now


def test_cost_admission_reserves_the_whole_answer_budget(priced: None) -> None:
    budget = Budget(max_cost_usd=2.0)
    # 8 + 8 characters = 4 prompt tokens, 996 answer tokens: exactly $1.000 reserved
    one = budget.admit("gpt-4o-mini", "x" * 8, "y" * 8, 996)
    assert one is not None and one.cost == pytest.approx(1.0)
    two = budget.admit("gpt-4o-mini", "x" * 8, "y" * 8, 996)
    assert two is not None
    assert budget.admit("gpt-4o-mini", "x" * 8, "y" * 8, 996) is None  # 3 > 2
    budget.settle(one, 0.25)
    budget.settle(two, 0.25)
    assert budget.spent == pytest.approx(0.5) and budget.reserved == pytest.approx(0.0)


def test_a_call_budget_makes_exactly_that_many_calls_and_the_rest_stay_pending(
    llm_env: dict[str, str], store: Store, tmp_path: Path
) -> None:
    tasks = verify_tasks(40)
    with ScriptedServer(latency_s=0.02) as server:
        judge = judge_for("openai", server, store, max_in_flight=8)
        judge.budget = Budget(max_calls=10)
        capped = list(judge.verify(tasks))
        assert chat_count(server) == 10 and len(capped) == 10
        assert all(o.ok for o in capped)  # refused tasks yield nothing: no failure recorded
        assert judge.budget.exhausted

        again = judge_for("openai", server, store, max_in_flight=8)
        rest = list(again.verify(tasks))
        assert chat_count(server) == 40  # the capped run's answers are served from the ledger
        assert len(rest) == 40

    with ScriptedServer() as fresh, Store.open(tmp_path / "ref.duckdb") as ref:
        assert outcome_view(rest) == outcome_view(judge_for("openai", fresh, ref).verify(tasks))


def test_a_cost_budget_is_never_exceeded_by_more_than_the_calls_in_flight(
    llm_env: dict[str, str], store: Store, priced: None
) -> None:
    tasks = verify_tasks(60)
    max_cost = 12.0
    with ScriptedServer(latency_s=0.03) as server:
        judge = judge_for("openai", server, store, max_in_flight=8)
        budget = judge.budget = Budget(max_cost_usd=max_cost)
        done = list(judge.verify(tasks))
    rows = Ledger(store).rows()
    costs = [r["cost_usd"] for r in rows]
    assert 0 < len(done) < len(tasks) and budget.exhausted
    assert len(rows) == budget.calls == chat_count(server)
    spent = sum(costs)
    assert spent == pytest.approx(budget.spent)
    # the guarantee: at most the calls in flight beyond the budget (here, none at all: each
    # call's reservation covers a whole answer budget, far more than the answer it gets)
    assert spent <= max_cost + budget.most_in_flight * max(costs)
    assert spent <= max_cost


def test_a_capped_run_spreads_its_calls_over_the_queries(
    llm_env: dict[str, str], store: Store
) -> None:
    """Issue 28.5: --max-calls spent all 30 audit calls on one query. Audit tasks of four
    queries, five combinations each, in query order: a budget of 8 calls reaches every query
    (two combinations each, in each query's own order), not the first query alone."""
    from dataclasses import replace

    from llm.llm_support import audit_tasks

    by_query = [replace(t, key=f"q{i // 5}/{i % 5}") for i, t in enumerate(audit_tasks(20))]
    with ScriptedServer() as server:
        judge = judge_for("openai", server, store, max_in_flight=1)  # one worker: in order
        judge.budget = Budget(max_calls=8)
        done = list(judge.audit(by_query))
    assert sorted(o.key for o in done) == [f"q{q}/{c}" for q in range(4) for c in range(2)]


def test_spread_takes_the_groups_in_turn() -> None:
    from toolex.llm.calls import Call, spread

    calls = [Call(k, k, "s", "u", str, group=k[0]) for k in ("a1", "a2", "a3", "b1", "c1", "c2")]
    assert [c.key for c in spread(calls)] == ["a1", "b1", "c1", "a2", "c2", "a3"]
    assert spread([]) == []


def test_a_budget_goes_to_the_calls_in_spread_order_however_workers_are_scheduled(
    llm_env: dict[str, str], store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: a worker took a call, then asked the budget for it; on a loaded machine another
    worker could take a later call and be admitted first, so a capped `judges eval` spent its two
    calls on one query. Here the second admission is held up for a second (what load does): the
    budget still goes to the first call of every query, as spread() orders them."""
    import threading
    import time
    from dataclasses import replace

    from llm.llm_support import audit_tasks

    admit, seen, lock = Budget.admit, [0], threading.Lock()

    def slow_second(self: Budget, *args: Any, **kwargs: Any) -> Reservation | None:
        with lock:
            seen[0] += 1
            n = seen[0]
        if n == 2:
            time.sleep(1.0)  # the worker holding the second call stalls; the others run on
        return admit(self, *args, **kwargs)

    monkeypatch.setattr(Budget, "admit", slow_second)
    by_query = [replace(t, key=f"q{i // 5}/{i % 5}") for i, t in enumerate(audit_tasks(20))]
    with ScriptedServer() as server:
        judge = judge_for("openai", server, store, max_in_flight=4)
        judge.budget = Budget(max_calls=4)
        done = list(judge.audit(by_query))
    assert sorted(o.key for o in done) == ["q0/0", "q1/0", "q2/0", "q3/0"]
