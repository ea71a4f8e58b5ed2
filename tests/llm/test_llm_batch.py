"""The batch APIs through the real SDKs: OpenAI Files + Batches, Anthropic Message Batches.
Submit, poll, collect; malformed batch answers fall back to direct calls; a run interrupted
after submitting resumes by polling the same batch instead of submitting again."""

from __future__ import annotations

from typing import Any

import pytest

from llm.llm_support import FaultPlan, ScriptedServer, client_of, outcome_view, verify_tasks
from llm.scripted_answers import corrected
from toolex.judges import make_judge
from toolex.judges.base import VerifyTask
from toolex.judges.llm import LLMJudge
from toolex.llm.batch import submit
from toolex.llm.calls import Call
from toolex.llm.executor import Executor
from toolex.llm.ledger import Ledger
from toolex.llm.pricing import price
from toolex.store import Store

SPECS = {"openai": "openai:gpt-4o-mini", "anthropic": "anthropic:claude-3-5-haiku-20241022"}
OPTS: dict[str, Any] = {
    "batch": True,
    "batch_poll_s": 0.01,
    "backoff_base_s": 0.01,
    "timeout_s": 2.0,
}


def judge_for(provider: str, server: ScriptedServer, store: Store) -> LLMJudge:
    base = server.url + ("/v1" if provider == "openai" else "")
    judge = make_judge(SPECS[provider], store, base_url=base, **OPTS)
    assert isinstance(judge, LLMJudge), provider  # its ledger, prompts and batch settings
    return judge


def verify_calls(judge: LLMJudge, tasks: list[VerifyTask]) -> tuple[list[Call], Executor]:
    """The verify calls of ``tasks`` and an executor for them: the batch functions' inputs."""
    prepared = [judge._prepare("verify", t) for t in tasks]
    calls = [Call(p.task.key, p.input_hash, p.system, p.user, p.parse) for p in prepared]
    executor = Executor(
        judge.client,
        judge.ledger,
        stage="verify",
        judge=judge.spec,
        prompt_version=judge.prompt_version("verify"),
        policy=judge.policy,
    )
    return calls, executor


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_batch_run_with_malformed_answers(
    llm_env: dict[str, str], store: Store, provider: str
) -> None:
    tasks = verify_tasks(20)
    plan = FaultPlan(rate=0.2, kinds=("malformed",))
    with ScriptedServer(faults=plan, batch_polls=3) as s:
        judge = judge_for(provider, s, store)
        got = list(judge.verify(tasks))
        direct = s.count("chat") + s.count("messages")
        assert s.count("batches") == 1 and direct == 4  # the 4 malformed ones, called directly
        fixes = [corrected(r["body"]) for r in s.requests if r["kind"] in ("chat", "messages")]
        # ...each told what was wrong with its batch answer
        assert all(f.startswith("Your answer was rejected: it is not valid JSON") for f in fixes)
        polls = s.count("get")
        again = list(judge.verify(tasks))
        assert s.count("get") == polls and s.count("batches") == 1  # second run: no traffic
    assert sorted(o.key for o in got) == sorted(t.key for t in tasks) and all(o.ok for o in got)
    rows = Ledger(store).rows()
    batch_rows = [r for r in rows if r["batch_id"]]
    assert len(batch_rows) == 20 and len({r["batch_id"] for r in batch_rows}) == 1
    assert sorted(r["status"] for r in batch_rows) == ["malformed"] * 4 + ["ok"] * 16
    assert all(r["status"] == "ok" and r["batch_id"] is None for r in rows if not r["batch_id"])
    assert outcome_view(again) == outcome_view(got)
    # batch answers are billed at half price; the fallbacks at the full price
    rates = price(SPECS[provider].split(":")[1])
    assert rates, provider  # both models are priced
    rate_in, rate_out = rates
    for row in rows:
        full = (row["prompt_tokens"] * rate_in + row["completion_tokens"] * rate_out) / 1e6
        if row["status"] == "ok":
            assert row["cost_usd"] == pytest.approx(full / 2 if row["batch_id"] else full)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_interrupted_after_submit_resumes_the_same_batch(
    llm_env: dict[str, str], store: Store, provider: str
) -> None:
    tasks = verify_tasks(6)
    with ScriptedServer(batch_polls=2) as s:
        judge = judge_for(provider, s, store)
        calls, executor = verify_calls(judge, tasks)
        batch_id = submit(client_of(judge), judge.ledger, executor, calls)  # ...then the run dies
        assert [r["status"] for r in Ledger(store).rows()] == ["pending"] * 6
        got = list(judge_for(provider, s, store).verify(tasks))  # a new run
        assert s.count("batches") == 1  # not submitted again
        assert s.count("chat") + s.count("messages") == 0
    rows = Ledger(store).rows()
    assert len(rows) == 6 and {r["batch_id"] for r in rows} == {batch_id}
    assert all(r["status"] == "ok" for r in rows) and all(o.ok for o in got)
    assert {o.call_id for o in got} == {r["call_id"] for r in rows}


def test_large_runs_are_split_into_several_batches(llm_env: dict[str, str], store: Store) -> None:
    from toolex.llm.batch import run_batch

    tasks = verify_tasks(7)
    with ScriptedServer(batch_polls=1) as s:
        judge = judge_for("openai", s, store)
        calls, executor = verify_calls(judge, tasks)
        got = list(
            run_batch(judge.client, judge.ledger, executor, calls, poll_s=0.01, max_requests=3)
        )
        assert s.count("batches") == 3 and s.count("files") == 3  # 3 + 3 + 1 requests
    assert sorted(r.call.key for r in got) == sorted(t.key for t in tasks)
    assert len({r["batch_id"] for r in Ledger(store).rows()}) == 3
