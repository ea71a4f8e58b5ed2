"""The executor and ledger under faults, end to end: real SDKs, real HTTP, the scripted server.

Every fault the server injects must show up as exactly one non-ok ledger row; every task must
end with exactly one answer; a second identical run must not touch the network.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from llm.llm_support import (
    FaultPlan,
    ScriptedServer,
    judge_for,
    outcome_view,
    verify_tasks,
)
from llm.scripted_answers import default_responder, request_key
from toolex.judges import make_judge
from toolex.judges.base import Outcome
from toolex.judges.llm import LLMJudge
from toolex.llm.ledger import Ledger
from toolex.store import Store


@pytest.mark.parametrize("how", ["close", "raise"])
def test_interrupted_run_resumes_without_repeating_finished_calls(
    llm_env: dict[str, str], store: Store, tmp_path: Path, how: str
) -> None:
    from toolex.store import Store

    tasks = verify_tasks(60)
    with ScriptedServer(faults=FaultPlan(rate=0.2)) as s:  # hangs held until the client quits
        with Store.open(tmp_path / "reference.duckdb") as ref_store:
            reference = outcome_view(judge_for("openai", s, ref_store, timeout_s=5).verify(tasks))

        judge = judge_for("openai", s, store, timeout_s=5)
        first: list[Outcome] = []
        if how == "close":
            stream = judge.verify(tasks)
            for outcome in stream:
                first.append(outcome)
                if len(first) == 25:
                    break
            stream.close()  # as a stage does when it stops early
        else:
            with pytest.raises(KeyboardInterrupt):
                for outcome in judge.verify(tasks):
                    first.append(outcome)
                    if len(first) == 25:
                        raise KeyboardInterrupt
        s.requests.clear()
        rest = list(judge_for("openai", s, store, timeout_s=5).verify(tasks))
        resent = {request_key(r["body"]) for r in s.requests if r["kind"] == "chat"}

    assert outcome_view(rest) == reference  # same results as an uninterrupted run
    finished = {o.key for o in first}
    by_key = {t.key: t for t in tasks}
    assert all(o.extra["cached"] for o in rest if o.key in finished)
    # no request of a task finished before the interruption was sent again
    finished_prompts = {o.call_id for o in first}
    rows = {r["call_id"]: r for r in Ledger(store).rows()}
    assert finished_prompts <= set(rows)
    assert len(finished) == 25 and len(by_key) == 60
    ok_hashes = [r["input_hash"] for r in rows.values() if r["status"] == "ok"]
    assert len(ok_hashes) == len(set(ok_hashes)) == 60  # no finished call was paid twice
    assert len(resent) <= 60 - 25 + 12  # at most the unfinished tasks (+ in-flight retries)


def test_a_refused_key_stops_the_stage_with_a_clear_error(
    llm_env: dict[str, str], store: Store
) -> None:
    """The first 401 stops the stage: it does not wait for the calls in flight (the server holds
    them until it closes, and the client would wait for them ten times longer than the server
    holds them at most), and what was attempted is in the ledger. Issue 25: with every request
    refused at once, how many attempts finished before the stop depended on scheduling (30 of
    30 once)."""
    from toolex.errors import ModelUnavailableError

    with ScriptedServer() as s:
        s.refuse_all(401, hold_others=True)
        judge = judge_for("openai", s, store, timeout_s=600)
        with pytest.raises(ModelUnavailableError, match="refused the API key.*OPENAI_API_KEY"):
            list(judge.verify(verify_tasks(30)))
    rows = Ledger(store).rows()
    assert len(rows) == 1  # the refused attempt, recorded; nothing else had finished
    assert rows[0]["status"] == "error" and rows[0]["error"].startswith("HTTP 401")


def test_an_unreachable_endpoint_stops_the_stage(llm_env: dict[str, str], store: Store) -> None:
    import socket

    from toolex.errors import ModelUnavailableError

    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    judge = make_judge(
        "openai:gpt-4o",
        store,
        base_url=f"http://127.0.0.1:{port}/v1",
        max_in_flight=2,
        backoff_base_s=0.01,
        max_attempts=50,
    )
    with pytest.raises(ModelUnavailableError, match="cannot reach"):
        list(judge.verify(verify_tasks(10)))
    assert 4 <= len(Ledger(store).rows()) < 500


def test_retry_after_is_waited_for(llm_env: dict[str, str], store: Store) -> None:
    plan = FaultPlan(rate=1.0, kinds=("429",), repeats=1, retry_after="0.4")
    with ScriptedServer(faults=plan) as s:
        judge = judge_for("openai", s, store, backoff_base_s=0.001, backoff_max_s=5)
        [outcome] = list(judge.verify(verify_tasks(1)))
        first, second = (r["t"] for r in s.requests)
    assert outcome.ok and outcome.extra["attempts"] == 2
    assert second - first >= 0.4


def test_malformed_answers_are_failures_never_cached(llm_env: dict[str, str], store: Store) -> None:
    with ScriptedServer(lambda p, b: "yes, the candidate is fine") as s:
        judge = judge_for("openai", s, store, max_attempts=3)
        [outcome] = list(judge.verify(verify_tasks(1)))
        [again] = list(judge.verify(verify_tasks(1)))
        calls = s.count("chat")
    rows = Ledger(store).rows()
    assert not outcome.ok and "after 3 attempts" in (outcome.error or "")  # the third was varied
    assert "not valid JSON" in (outcome.error or "")
    assert not again.ok and calls == 6  # the second run asked again: failures are not answers
    assert [r["status"] for r in rows] == ["malformed"] * 6
    assert rows[0]["response"] == "yes, the candidate is fine"


def test_identical_prompts_share_one_call(llm_env: dict[str, str], store: Store) -> None:
    tasks = verify_tasks(4)
    twins = [type(t)(t.key + "#twin", t.subquery, t.candidate, t.reference) for t in tasks]
    with ScriptedServer(default_responder) as s:
        got = list(judge_for("openai", s, store).verify(tasks + twins))
        assert s.count("chat") == 4
    assert len(got) == 8 and len({o.call_id for o in got}) == 4


def test_a_crashing_parser_is_a_recorded_malformed_answer(
    llm_env: dict[str, str], store: Store
) -> None:
    """Whatever reading an answer raises, the paid call is a ledger row and is retried."""
    from toolex.llm.calls import Call
    from toolex.llm.executor import Executor

    def broken(text: str) -> None:
        raise RuntimeError("parser bug")

    with ScriptedServer(default_responder) as s:
        judge = judge_for("openai", s, store, max_attempts=3)
        executor = Executor(
            judge.client,
            judge.ledger,
            stage="verify",
            judge=judge.spec,
            prompt_version="v",
            policy=judge.policy,
        )
        [result] = list(executor.run([Call("k", "h", "s", "u", broken)]))
        sent = s.count("chat")
    rows = Ledger(store).rows()
    assert not result.ok and "unreadable answer: RuntimeError: parser bug" in (result.error or "")
    assert sent == len(rows) == 3 and {r["status"] for r in rows} == {"malformed"}
    assert all(r["response"] for r in rows)  # the answer paid for is kept


def test_long_stages_run_in_chunks_and_later_chunks_reuse_earlier_answers(
    llm_env: dict[str, str], store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = verify_tasks(10)
    twins = [type(t)(t.key + "#twin", t.subquery, t.candidate, t.reference) for t in tasks[:3]]
    with ScriptedServer(default_responder) as s:
        judge = judge_for("openai", s, store)
        assert isinstance(judge, LLMJudge)
        judge.chunk_size = 4
        sizes: list[int] = []
        original = judge._run_chunk

        def counted(stage: str, chunk: Sequence[Any]) -> Iterator[Outcome]:
            sizes.append(len(chunk))
            return original(stage, chunk)

        monkeypatch.setattr(judge, "_run_chunk", counted)
        got = list(judge.verify(tasks + twins))
        assert s.count("chat") == 10  # the twins, in the last chunk, came from the ledger
    assert sizes == [4, 4, 4, 1]
    assert sorted(o.key for o in got) == sorted(t.key for t in tasks + twins)
    assert [o.extra["cached"] for o in got if o.key.endswith("#twin")] == [True] * 3
