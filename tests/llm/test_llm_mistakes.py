"""Mistakes real models make and the scripted server never did (issue 16, section 5), each
played by a deterministic scripted "model" that repeats its mistake until the retry says what it
was: a leaked tool name, a wrong number of sub-queries, a verdict of "Yes", an extra key, an
answer cut off by its token budget, and a server that refuses structured output."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from llm.llm_support import (
    FaultPlan,
    ScriptedServer,
    audit_tasks,
    client_of,
    decompose_tasks,
    judge_for,
    verify_tasks,
)
from llm.scripted_answers import _k_of, budget, corrected, correction, decomposition, task_text
from toolex.judges import make_judge
from toolex.judges.base import Verdict
from toolex.llm.ledger import Ledger
from toolex.store import Store


def subqueries(k: int, leak: str | None = None) -> str:
    """k sub-queries; ``leak``: the first names it in its text and its entity, so nothing clean
    is left to rebuild it from and the model is asked again (issue 35.10)."""
    entries = json.loads(decomposition(k))
    if leak:
        entries["subqueries"][0]["text"] = f"call {leak} for the trip"
        entries["subqueries"][0]["entity"] = leak
    return json.dumps(entries)


def stubborn(provider: str, body: dict[str, Any]) -> str:
    """A deterministic model that makes one mistake per stage and fixes it only when told
    exactly what it was; asked the same question again, it answers the same."""
    fix = correction(body) or ""
    k = _k_of(body)
    if k is not None:
        named = re.search(r"name: (get_\w+)", task_text(body))
        assert named, task_text(body)  # every decompose task names its tool
        name = named.group(1)
        if "expected 2 sub-queries, got 1" in fix:
            return subqueries(k)
        if f"names `{name}`; describe the step in the words of the request" in fix:
            return subqueries(1)  # ...and now drops a sub-query
        return subqueries(k, leak=name)
    if "Combination to judge" in task_text(body) or "Tools in the combination" in task_text(body):
        if "extra key(s) 'confidence'; use exactly the keys verdict, reason" in fix:
            return '{"verdict": "yes", "reason": "covered"}'
        return '{"verdict": "yes", "reason": "covered", "confidence": 0.9}'
    if '"verdict" must be "yes" or "no", not \'Yes\'' in fix:
        return '{"verdict": "yes", "reason": "same operation"}'
    return '{"verdict": "Yes", "reason": "same operation"}'


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_retry_names_the_problem_and_the_model_fixes_it(
    llm_env: dict[str, str], store: Store, provider: str
) -> None:
    with ScriptedServer(stubborn) as s:
        judge = judge_for(provider, s, store, max_attempts=5)
        decomposed = list(judge.decompose(decompose_tasks(3)))
        verified = list(judge.verify(verify_tasks(4)))
        audited = list(judge.audit(audit_tasks(2)))
        bodies = [r["body"] for r in s.requests]
        sent = len(bodies)
        again = list(judge.decompose(decompose_tasks(3))) + list(judge.verify(verify_tasks(4)))
        assert len(s.requests) == sent  # answers that came after a correction are served too

    assert all(o.ok for o in decomposed + verified + audited)
    # decompose: leak, then one sub-query short, then right; verify and audit: one retry each
    assert [o.extra["attempts"] for o in decomposed] == [3, 3, 3]
    assert {o.extra["attempts"] for o in verified + audited} == {2}
    assert sent == 3 * 3 + 4 * 2 + 2 * 2
    assert all(o.extra["cached"] for o in again)
    rows = Ledger(store).rows()
    assert len(rows) == sent  # every attempt is a row, under its task's input hash
    first_decompose = [r for r in rows if r["task_key"] == "q0" and r["stage"] == "decompose"]
    assert [r["status"] for r in first_decompose] == ["malformed", "malformed", "ok"]
    assert len({r["input_hash"] for r in first_decompose}) == 1
    assert "names a ground-truth tool/API ('get_weather_forecast_0')" in first_decompose[0]["error"]
    assert "wrong number of sub-queries: expected k=2, got 1" in first_decompose[1]["error"]
    # the second request is the first plus the rejected answer and a message naming the problem
    first, second, third = (b for b in bodies if "trip 0." in task_text(b))
    messages = second["messages"][-2:] if provider == "anthropic" else second["messages"][2:]
    assert second["messages"][: len(first["messages"])] == first["messages"]
    assert messages[0]["role"] == "assistant" and "get_weather_forecast_0" in messages[0]["content"]
    assert messages[1]["content"].startswith(
        "Your answer was rejected: the sub-query for number 0 names `get_weather_forecast_0`"
    )
    assert "expected 2 sub-queries, got 1" in corrected(third)
    assert "get_weather_forecast_0" not in json.dumps(third["messages"][-1])  # the last one only


def test_without_a_named_problem_the_same_mistake_comes_back(
    llm_env: dict[str, str], store: Store
) -> None:
    """The issue's failure, reproduced: a model told only "try again" repeats itself. Since
    issue 28 the repeat gets one varied retry and then the call stops, rather than five calls
    (tests/llm/test_llm_repeats.py)."""

    def deaf(provider: str, body: dict[str, Any]) -> str:  # ignores what the correction says
        return stubborn(provider, {**body, "messages": body["messages"][:2]})

    with ScriptedServer(deaf) as s:
        [outcome] = list(
            judge_for("openai", s, store, max_attempts=3).decompose(decompose_tasks(1))
        )
    rows = Ledger(store).rows()
    assert len({r["response"] for r in rows}) == 1  # the same mistake came back each time
    assert [r["status"] for r in rows] == ["malformed"] * 3
    assert "names a ground-truth tool/API" in rows[0]["error"]
    assert not outcome.ok and "repeated a rejected answer" in (outcome.error or "")


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_an_answer_cut_off_by_max_tokens_is_retried_with_a_larger_budget(
    llm_env: dict[str, str], store: Store, provider: str
) -> None:
    reason = "The candidate returns the same forecast for the same place. " * 12  # ~190 tokens
    answer = json.dumps({"verdict": "yes", "reason": reason.strip()})
    with ScriptedServer(lambda p, b: answer) as s:
        judge = judge_for(provider, s, store, max_tokens=120)
        [outcome] = list(judge.verify(verify_tasks(1)))
        budgets = [budget(r["body"]) for r in s.requests]
    assert outcome.ok and isinstance(outcome.value, Verdict)
    assert outcome.value.reason == reason.strip()
    assert budgets == [120, 240]
    first, second = Ledger(store).rows()
    assert first["status"] == "malformed"
    assert first["error"] == "cut off at max_tokens=120; next attempt: max_tokens=240"
    assert len(first["response"]) == 120 * 4 and first["completion_tokens"] == 120
    assert second["status"] == "ok" and second["input_hash"] == first["input_hash"]


def test_the_budget_grows_to_four_times_and_no_further(
    llm_env: dict[str, str], store: Store
) -> None:
    endless = json.dumps({"verdict": "no", "reason": "x" * 8000})
    with ScriptedServer(lambda p, b: endless) as s:
        judge = judge_for("openai", s, store, max_tokens=100, max_attempts=5)
        [outcome] = list(judge.verify(verify_tasks(1)))
        budgets = [budget(r["body"]) for r in s.requests]
    assert budgets == [100, 200, 400, 400, 400]
    assert not outcome.ok and "cut off at max_tokens=400" in (outcome.error or "")
    assert [r["status"] for r in Ledger(store).rows()] == ["malformed"] * 5


@pytest.mark.parametrize(
    ("refused", "kept"),
    [(("json_schema",), "json_object"), (("json_schema", "json_object"), None)],
)
def test_a_server_refusing_response_format_is_asked_without_it(
    llm_env: dict[str, str], store: Store, refused: tuple[str, ...], kept: str | None
) -> None:
    """llama.cpp builds without json_schema, servers without any JSON mode: a 400, then the
    next mode down, remembered for the run (one refusal per mode, not one per call)."""
    with ScriptedServer(reject_formats=refused) as s:
        judge = make_judge(f"compat:{s.url}/v1#qwen2.5-1.5b", store, slots=1, max_attempts=4)
        got = list(judge.verify(verify_tasks(6))) + list(judge.decompose(decompose_tasks(2)))
        formats = [(r["body"].get("response_format") or {}).get("type") for r in s.requests]
    assert all(o.ok for o in got)
    assert formats[: len(refused) + 1] == [*refused, kept]
    assert formats[len(refused) + 1 :] == [kept] * 7  # remembered, the other stage too
    assert client_of(judge).mode == (kept or "none")
    rows = Ledger(store).rows()
    assert [r["status"] for r in rows[: len(refused)]] == ["error"] * len(refused)
    assert "HTTP 400" in rows[0]["error"] and "structured output refused" in rows[0]["error"]
    assert len(rows) == len(formats)


def test_a_400_that_is_not_about_the_format_keeps_the_format(
    llm_env: dict[str, str], store: Store
) -> None:
    with ScriptedServer() as s:
        s.refuse_all(400)
        judge = make_judge(f"compat:{s.url}/v1#m", store, slots=1, max_attempts=5)
        [outcome] = list(judge.verify(verify_tasks(1)))
    assert not outcome.ok and "HTTP 400" in (outcome.error or "")
    assert len(Ledger(store).rows()) == 3  # json_schema, json_object, plain: then it stops
    assert client_of(judge).mode == "json_schema"  # no mode answered, so none was adopted


def test_faults_on_corrected_retries_count_as_the_same_task(
    llm_env: dict[str, str], store: Store
) -> None:
    """The fault plan keys on the task, not on the retry's conversation."""
    plan = FaultPlan(rate=1.0, kinds=("malformed",), repeats=1)
    with ScriptedServer(faults=plan) as s:
        got = list(judge_for("openai", s, store).verify(verify_tasks(5)))
    assert all(o.ok and o.extra["attempts"] == 2 for o in got)
    assert s.served["malformed"] == 5 and s.served["ok"] == 5
