"""Hostile model answers are paid for and recorded (issue 10): whatever an answer holds, every
paid call is exactly one ledger row, a malformed answer is retried, and the stored text is cut
to a size the store can afford (with a marker that says so)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import pytest

from llm.llm_support import ScriptedServer, chat_count, decompose_tasks, judge_for, verify_tasks
from llm.scripted_answers import _k_of, correction, decomposition, default_responder, task_text
from toolex.judges.base import Verdict
from toolex.judges.parse import REASON_CAP
from toolex.llm.corrections import ANSWER_CAP
from toolex.llm.ledger import Ledger
from toolex.store import Store

DEPTH = 100_000  # far past the interpreter's recursion limit
NESTED = '{"verdict": ' + "[" * DEPTH + "]" * DEPTH + ', "reason": "deep"}'
HUGE_REASON = json.dumps({"verdict": "no", "reason": "blah " * 40_000})  # 200 KB
SURROGATE = '{"verdict": "no", "reason": "a lone \\ud800 surrogate"}'
LONG_NUMBER = '{"subqueries": [{"tool": ' + "9" * 5000 + "}]}"
NOT_UTF8_SAFE = '{"verdict": "yes", "reason": "\\u0000 nul and \\udfff"}'


def first_then(bad: str) -> Callable[[str, dict[str, Any]], str]:
    """Answer ``bad`` until the retry names a problem, then the ordinary scripted answer."""

    def respond(provider: str, body: dict[str, Any]) -> str:
        return default_responder(provider, body) if correction(body) else bad

    return respond


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_deeply_nested_json_is_a_malformed_answer_recorded_and_retried(
    llm_env: dict[str, str], store: Store, provider: str
) -> None:
    with ScriptedServer(first_then(NESTED)) as s:
        judge = judge_for(provider, s, store, max_tokens=200_000)
        [outcome] = list(judge.verify(verify_tasks(1)))
        sent = chat_count(s)
    first, second = Ledger(store).rows()
    assert outcome.ok and outcome.extra["attempts"] == 2 and sent == 2
    assert first["status"] == "malformed" and "RecursionError" in first["error"]
    assert first["response"].startswith(NESTED[:1000])
    assert len(first["response"]) < ANSWER_CAP + 100
    assert first["response"].endswith(f"[... cut: {len(NESTED):,} characters in all]")
    assert second["status"] == "ok"


def test_a_200_kb_reason_is_kept_cut_with_a_marker(llm_env: dict[str, str], store: Store) -> None:
    with ScriptedServer(lambda p, b: HUGE_REASON) as s:
        judge = judge_for("openai", s, store, max_tokens=100_000)
        [outcome] = list(judge.verify(verify_tasks(1)))
    assert outcome.ok and outcome.extra["attempts"] == 1  # an answer, only a long one
    assert isinstance(outcome.value, Verdict)
    reason = outcome.value.reason
    assert reason.startswith("blah blah") and len(reason) < REASON_CAP + 60
    assert reason.endswith("[... cut: 199,999 characters in all]")
    [row] = Ledger(store).rows()
    assert len(row["response"]) < ANSWER_CAP + 60
    assert row["response"].endswith(f"[... cut: {len(HUGE_REASON):,} characters in all]")
    assert json.loads(row["parsed"])["reason"] == reason


@pytest.mark.parametrize("answer", [SURROGATE, NOT_UTF8_SAFE], ids=["surrogate", "nul"])
def test_text_the_store_cannot_encode_is_replaced_not_a_crash(
    llm_env: dict[str, str], store: Store, answer: str
) -> None:
    with ScriptedServer(lambda p, b: answer) as s:
        [outcome] = list(judge_for("openai", s, store).verify(verify_tasks(1)))
    assert outcome.ok
    [row] = Ledger(store).rows()
    assert row["status"] == "ok" and row["response"].encode("utf-8")  # stored, and valid


def test_a_5000_digit_number_is_a_malformed_answer(llm_env: dict[str, str], store: Store) -> None:
    with ScriptedServer(first_then(LONG_NUMBER)) as s:
        judge = judge_for("openai", s, store, max_tokens=100_000)
        [outcome] = list(judge.decompose(decompose_tasks(1)))
    first, second = Ledger(store).rows()
    assert outcome.ok and first["status"] == "malformed" and "ValueError" in first["error"]


def test_a_lying_token_count_is_unknown_not_a_crash(llm_env: dict[str, str], store: Store) -> None:
    usage = {"prompt_tokens": 10**12, "completion_tokens": -5, "total_tokens": "many"}
    with ScriptedServer(usage=usage) as s:
        [outcome] = list(judge_for("openai", s, store).verify(verify_tasks(1)))
    [row] = Ledger(store).rows()
    assert outcome.ok and row["prompt_tokens"] is None and row["completion_tokens"] is None
    assert row["cost_usd"] is None


HOSTILE = [NESTED, HUGE_REASON, SURROGATE, LONG_NUMBER, "", "null", "[1, 2]", '{"a": 1}' * 3]


def test_every_paid_call_is_one_ledger_row_whatever_the_answer(
    llm_env: dict[str, str], store: Store
) -> None:
    """60 tasks, each answered with one of eight hostile answers first: all end answered, and
    the ledger holds exactly one row per request the server answered."""

    def hostile(provider: str, body: dict[str, Any]) -> str:
        if correction(body):
            return default_responder(provider, body)
        k = _k_of(body)
        pick = int(hashlib.sha256(task_text(body).encode()).hexdigest(), 16) % len(HOSTILE)
        if k is not None and pick == 1:
            return decomposition(k + 1)
        return HOSTILE[pick]

    with ScriptedServer(hostile) as s:
        judge = judge_for("openai", s, store, max_tokens=100_000)
        got = list(judge.verify(verify_tasks(40))) + list(judge.decompose(decompose_tasks(20)))
        sent = chat_count(s)
    rows = Ledger(store).rows()
    assert all(o.ok for o in got) and len(got) == 60
    assert len(rows) == sent
    assert sum(r["status"] == "ok" for r in rows) == 60
    assert all(len(r["response"] or "") < ANSWER_CAP + 100 for r in rows)
