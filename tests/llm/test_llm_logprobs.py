"""A verdict's confidence from the token log-probabilities the API returns (toolex.llm.logprobs,
toolex.judges.confidence), through the real SDKs to the scripted server: asked for where the
API has them, read from direct and batch answers, kept in the ledger with the answer, and never
a failure where a server has none."""

from __future__ import annotations

import json
import math

import pytest

from llm.llm_support import FAST, ScriptedServer, decompose_tasks, judge_for, verify_tasks
from toolex.judges import make_judge
from toolex.judges.base import Verdict
from toolex.judges.confidence import second_judge
from toolex.llm.clients import Request, make_client
from toolex.llm.ledger import Ledger
from toolex.llm.logprobs import TokenProb, choice_probability, read_openai
from toolex.store import Store


def tokens(
    *parts: str | tuple[str, float, list[tuple[str, float]]],
) -> list[TokenProb]:
    """Tokens spelling ``parts``: plain strings are certain, (text, p, alternatives) are not."""
    out = []
    for part in parts:
        text, p, alts = (part, 1.0, ()) if isinstance(part, str) else part
        top = tuple((a, math.log(q)) for a, q in alts)
        out.append(TokenProb(text, math.log(p), ((text, math.log(p)), *top)))
    return out


ANSWER = '{"verdict": "yes", "reason": "r"}'
AT = ANSWER.index("yes")


def test_the_verdict_word_against_the_other_one() -> None:
    both = tokens('{"verdict": "', ("yes", 0.6, [("no", 0.3)]), '", "reason": "r"}')
    assert choice_probability(both, ANSWER, AT, ("yes", "no")) == pytest.approx(0.6 / 0.9)
    # only the written word seen: its own probability, the rest counted against it
    alone = tokens('{"verdict": "', ("yes", 0.7, []), '", "reason": "r"}')
    assert choice_probability(alone, ANSWER, AT, ("yes", "no")) == pytest.approx(0.7)
    no = ANSWER.replace("yes", "no")
    written_no = tokens('{"verdict": "', ("no", 0.9, [("Yes", 0.05), (" yes", 0.05)]), no[15:])
    assert choice_probability(written_no, no, AT, ("yes", "no")) == pytest.approx(0.1)
    # tokens that do not spell the answer, or another word at the place: unknown
    assert choice_probability(both, ANSWER + " ", AT, ("yes", "no")) is None
    assert choice_probability(both, ANSWER, 2, ("yes", "no")) is None
    assert choice_probability(None, ANSWER, AT, ("yes", "no")) is None


def test_a_servers_nonsense_is_no_token_list() -> None:
    assert read_openai({"logprobs": None}) is None
    assert read_openai({"logprobs": {"content": "yes"}}) is None
    bad = {"logprobs": {"content": [{"token": "yes", "logprob": "high"}]}}
    assert read_openai(bad) is None
    nan = {"logprobs": {"content": [{"token": "yes", "logprob": float("nan")}]}}
    assert read_openai(nan) is None


def test_verdicts_ask_for_logprobs_and_carry_the_probability(
    llm_env: dict[str, str], store: Store
) -> None:
    with ScriptedServer(word_p=lambda body: 0.9) as s:
        judge = judge_for("openai", s, store)
        got = list(judge.verify(verify_tasks(6)))
        list(judge.decompose(decompose_tasks(1)))
        bodies = [r["body"] for r in s.requests if r["kind"] == "chat"]
        again = list(judge.verify(verify_tasks(6)))  # served from the ledger
        assert len([r for r in s.requests if r["kind"] == "chat"]) == len(bodies)
    verify_bodies, decompose_bodies = bodies[:6], bodies[6:]
    assert all(b["logprobs"] is True and b["top_logprobs"] == 5 for b in verify_bodies)
    assert all("logprobs" not in b for b in decompose_bodies)  # a decomposition has no verdict
    for o in got:
        assert isinstance(o.value, Verdict)
        assert o.value.confidence == pytest.approx(0.9 if o.value.accepted else 0.1)
    assert {o.key: o.value for o in again} == {o.key: o.value for o in got}
    parsed = [json.loads(r["parsed"]) for r in Ledger(store).rows() if r["stage"] == "verify"]
    assert all(set(p) == {"verdict", "reason", "p_yes"} for p in parsed)


def test_a_batch_answer_carries_its_probability_too(llm_env: dict[str, str], store: Store) -> None:
    with ScriptedServer() as s:
        judge = make_judge(
            "openai:gpt-4o-mini", store, base_url=s.url + "/v1", batch=True, batch_poll_s=0.01
        )
        got = list(judge.verify(verify_tasks(4)))
    assert s.count("batches") == 1
    verdicts = [o.value for o in got]
    assert all(isinstance(v, Verdict) for v in verdicts), verdicts
    assert all(
        v.confidence == pytest.approx(0.8 if v.accepted else 0.2)
        for v in verdicts
        if isinstance(v, Verdict)
    )


def test_no_logprobs_where_the_api_has_none(llm_env: dict[str, str], store: Store) -> None:
    with ScriptedServer() as s:
        anthropic = judge_for("anthropic", s, store)
        got = list(anthropic.verify(verify_tasks(2)))
        reasoning = make_client("openai", "o3-mini", base_url=s.url + "/v1")
        reasoning.complete(Request("S", "U", logprobs=5))
    assert all(o.ok and isinstance(o.value, Verdict) and o.value.confidence is None for o in got)
    assert all("logprobs" not in r["body"] for r in s.requests)


def test_a_server_that_refuses_logprobs_is_asked_without_them(
    llm_env: dict[str, str], store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLEX_COMPAT_API_KEY", "k")
    with ScriptedServer(reject_logprobs=True) as s:
        judge = make_judge(f"compat:{s.url}/v1#qwen", store, **FAST)
        got = list(judge.verify(verify_tasks(3)))
        asked = ["logprobs" in r["body"] for r in s.requests if r["kind"] == "chat"]
    assert all(o.ok and isinstance(o.value, Verdict) and o.value.confidence is None for o in got)
    assert asked[0] and asked[1] is False and not any(asked[2:])  # refused once, then not asked
    assert [r["status"] for r in Ledger(store).rows()] == ["ok"] * 3


def test_without_token_probabilities_two_judges_average() -> None:
    assert second_judge(True, 0.9) == pytest.approx(0.95)
    assert second_judge(True, 0.02) == pytest.approx(0.51)  # they disagree: near the boundary
    assert second_judge(False, 0.02) == pytest.approx(0.01)
    assert second_judge(False, None) is None and second_judge(True, float("nan")) is None
