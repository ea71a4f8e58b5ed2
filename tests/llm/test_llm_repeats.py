"""A model that repeats itself (issue 28.1): a small local model gave its rejected decomposition
back byte for byte in 43 of 44 corrected retries, and attempts 3-5 re-sent an identical prompt.
Played by scripted_answers.RepeatingModel over real HTTP: a repeat gets one varied retry, then
the call stops; where the answer's own operation and entity are clean, it is rebuilt from them
at once, never asked again (issue 35.10); no prompt is ever sent twice."""

from __future__ import annotations

import json
from typing import Any

import pytest

from llm.llm_support import ScriptedServer, decompose_tasks, judge_for, verify_tasks
from llm.scripted_answers import RepeatingModel, corrected
from toolex.llm.corrections import REBUILT, VARY_TEMPERATURE, Correction, Rejections, Stop
from toolex.llm.ledger import Ledger
from toolex.store import Store


def decompose_with(
    model: RepeatingModel, store: Store, n: int = 1, **opts: float
) -> tuple[list[Any], list[Any], list[dict[str, Any]]]:
    with ScriptedServer(model) as s:
        judge = judge_for("openai", s, store, **{"max_attempts": 5, **opts})
        got = list(judge.decompose(decompose_tasks(n)))
        bodies = [r["body"] for r in s.requests]
    return got, bodies, Ledger(store).rows()


def prompts(bodies: list[Any]) -> list[str]:
    """What each request asked, as the server saw it (conversation and sampling)."""
    return [json.dumps([b["messages"], b.get("temperature")], sort_keys=True) for b in bodies]


def test_an_answer_with_clean_operation_and_entity_is_rebuilt_without_asking_again(
    llm_env: dict[str, str], store: Store
) -> None:
    """Issue 35.10: its text names the tool, its operation and entity do not: the rebuild is
    taken at once, where it was sent back once and the model repeated itself word for word."""
    [outcome], bodies, rows = decompose_with(RepeatingModel(), store)
    assert outcome.ok and outcome.extra["attempts"] == 1  # no retry the model would repeat
    assert [s.text for s in outcome.value] == [
        "retrieve the weather forecast",  # rebuilt: operation + entity
        "retrieve the flight status for the trip",  # kept as the model wrote it
    ]
    assert [r["status"] for r in rows] == ["ok"] and len(bodies) == 1
    assert rows[0]["error"].startswith(REBUILT) and "get_weather_forecast_0" in rows[0]["error"]


def test_a_repeat_gets_one_varied_retry_then_the_call_stops(
    llm_env: dict[str, str], store: Store
) -> None:
    """The entity names the tool too, so nothing can be rebuilt: attempt 2 repeats attempt 1,
    attempt 3 is varied (temperature, a message naming the repeat) and repeats again: stop,
    with two of the five attempts never made."""
    [outcome], bodies, rows = decompose_with(RepeatingModel(entity_leaks=True), store)
    assert not outcome.ok and outcome.extra["attempts"] == 3
    assert "stopped after 3 attempts: the model repeated a rejected answer" in (outcome.error or "")
    assert [r["status"] for r in rows] == ["malformed"] * 3
    assert [b.get("temperature") for b in bodies] == [0, 0, VARY_TEMPERATURE]
    assert "the entity for number 0 names `get_weather_forecast_0`" in corrected(bodies[1])
    assert corrected(bodies[2]).startswith(
        "Your answer was rejected: it is, word for word, an answer you already gave"
    )
    assert len(set(prompts(bodies))) == len(bodies) == 3  # never the same prompt twice


def test_the_varied_retry_can_find_another_answer(llm_env: dict[str, str], store: Store) -> None:
    model = RepeatingModel(entity_leaks=True, fixed_when_sampled=True)
    [outcome], bodies, rows = decompose_with(model, store)
    assert outcome.ok and outcome.extra["attempts"] == 3
    assert outcome.value[0].text == "retrieve the weather forecast for the trip"
    assert [r["status"] for r in rows] == ["malformed", "malformed", "ok"]


def test_a_repeated_verdict_stops_after_the_varied_retry(
    llm_env: dict[str, str], store: Store
) -> None:
    """A verdict has nothing to rebuild: "Yes" three times is three calls, not five."""
    with ScriptedServer(lambda p, b: '{"verdict": "Yes", "reason": "same"}') as s:
        [outcome] = list(judge_for("openai", s, store, max_attempts=5).verify(verify_tasks(1)))
        assert s.count("chat") == 3
    assert not outcome.ok and "stopped after 3 attempts" in (outcome.error or "")
    assert "'verdict' must be \"yes\" or \"no\", got 'Yes'" in (outcome.error or "")


def test_rejections_step_by_step() -> None:
    a, b = Correction("A", "wrong"), Correction("B", "wrong")
    seen = Rejections()
    assert seen.next(a) == a  # a first rejection: the plain correction
    assert seen.next(b) == b  # a different answer: still plain
    varied = seen.next(a)  # A again: one varied retry
    assert isinstance(varied, Correction) and varied.temperature == VARY_TEMPERATURE
    assert "word for word" in varied.problem and "(wrong)" in varied.problem
    assert isinstance(seen.next(b), Stop)  # a repeat after the varied retry
    again = Rejections(earlier=a)  # a batch answer rejected before the direct attempts
    assert isinstance(again.next(a), Correction) and isinstance(again.next(a), Stop)


@pytest.mark.parametrize("entity_leaks", [False, True])
def test_many_tasks_of_a_repeating_model_never_waste_more_than_two_calls_each(
    llm_env: dict[str, str], store: Store, entity_leaks: bool
) -> None:
    got, bodies, rows = decompose_with(RepeatingModel(entity_leaks=entity_leaks), store, n=6)
    assert len(got) == 6 and all(o.ok != entity_leaks for o in got)
    assert len(bodies) == 6 * (3 if entity_leaks else 1)  # was 6 x 5 before issue 28
    assert len(set(prompts(bodies))) == len(bodies)
