"""Concurrency that adapts to what the server sustains: a scripted server with ONE slot whose
latency grows with its queue (llama.cpp ``--parallel 1`` on a small machine), and what a client
timeout does to the calls in flight."""

from __future__ import annotations

import json
import threading
import time

import pytest
from llm_support import FaultPlan, ScriptedServer, verify_tasks

from toolex.judges import make_judge
from toolex.llm.calls import Call
from toolex.llm.clients import Reply, Request, TransientError
from toolex.llm.executor import Executor
from toolex.llm.ledger import Ledger
from toolex.llm.limiter import Limiter
from toolex.llm.retry import Policy

SERVICE_S = 0.05  # the server's work per request; it works on one at a time
N = 40
SERIAL_S = N * SERVICE_S
FAST = {"backoff_base_s": 0.05, "backoff_max_s": 0.5, "max_attempts": 8, "max_in_flight": 12}


def one_slot_run(store, spec, n=N, service_s=SERVICE_S, **opts):
    with ScriptedServer(slots=1, latency_s=service_s) as s:
        judge = make_judge(spec(s), store, **{**FAST, **opts})
        started = time.perf_counter()
        got = list(judge.verify(verify_tasks(n)))
        wall = time.perf_counter() - started
    rows = Ledger(store).rows()
    timeouts = sum("timeout" in (r["error"] or "") for r in rows)
    return got, wall, timeouts, s, judge.limiters["verify"]


def compat(s):
    return f"compat:{s.url}/v1#qwen2.5-1.5b"


def test_a_local_server_with_one_slot_gets_no_needless_timeout(llm_env, store):
    """12 calls at once would queue 12 * 0.1 s = 1.2 s deep, past the 1 s timeout: the executor
    starts at one, grows while answers come back unqueued and backs off when they do not, so
    nothing times out and the run takes about the server's serial time."""
    got, wall, timeouts, server, limiter = one_slot_run(
        store, compat, n=30, service_s=0.1, compat_timeout_s=1.0
    )
    assert all(o.ok for o in got) and timeouts == 0
    assert server.abandoned == 0 and server.max_active == 1
    assert limiter.cuts >= 1 and 2 <= limiter.peak <= 6  # it probed, saw the queue, backed off
    assert wall < 1.6 * 30 * 0.1, f"{wall:.2f} s for 3.0 s of server work"


def test_the_issues_verify_run_scaled_down_wastes_nothing(llm_env, store):
    """Issue 16's run at 1/100 of the time: one slot, 45 s a call (0.45 s), the 60 s timeout
    (0.6 s), 8 verify tasks. With up to sixteen calls in flight the real run made 25 calls, 16
    of which timed out; the executor never puts a second call behind one that takes most of
    the timeout."""
    got, wall, timeouts, server, limiter = one_slot_run(
        store, compat, n=8, service_s=0.45, compat_timeout_s=0.6, max_in_flight=16
    )
    assert all(o.ok for o in got) and timeouts == 0 and server.count("chat") == 8
    assert limiter.peak == 1 and server.abandoned == 0
    assert wall < 1.4 * 8 * 0.45


def test_configured_slots_cap_the_calls_in_flight(llm_env, store):
    got, wall, timeouts, server, limiter = one_slot_run(
        store, compat, compat_timeout_s=0.5, slots=1
    )
    assert all(o.ok for o in got) and timeouts == 0
    assert limiter.peak == 1 and limiter.cap == 1
    assert wall < 2.0 * SERIAL_S


@pytest.mark.slow
def test_timeouts_halve_the_calls_in_flight_of_a_hosted_style_judge(
    llm_env, store, monkeypatch, tmp_path
):
    """A judge that starts at the cap (as for a hosted API) overruns the one-slot server at
    first; each timeout cuts in-flight, so far fewer calls time out (and are worked on by the
    server in vain) than with a fixed twelve in flight, which keeps the queue past the timeout
    by replacing every answer with a new request."""
    url: list[str] = []

    def hosted(s):
        url.append(s.url + "/v1")
        return "openai:gpt-4o-mini"

    def run(st):
        with ScriptedServer(slots=1, latency_s=SERVICE_S) as s:
            spec = hosted(s)
            judge = make_judge(spec, st, base_url=url[-1], timeout_s=0.5, **FAST)
            got = list(judge.verify(verify_tasks(N)))
        rows = Ledger(st).rows()
        return got, sum("timeout" in (r["error"] or "") for r in rows), s, judge

    got, timeouts, server, judge = run(store)
    limiter = judge.limiters["verify"]
    assert all(o.ok for o in got)
    assert limiter.peak == 12 and limiter.lowest <= 6

    from toolex.store import Store

    monkeypatch.setattr(Limiter, "_cut", lambda self, ticket: None)  # fixed concurrency
    # ...which drowns this server in abandoned work until nothing answers: the breaker would
    # stop that run (rightly); the counterfactual needs it to go on.
    monkeypatch.setattr("toolex.llm.retry.TIMEOUTS_IN_A_ROW", 10**6)
    with Store.open(tmp_path / "fixed.duckdb") as fixed_store:
        fixed, fixed_timeouts, fixed_server, _ = run(fixed_store)
    assert sum(o.ok for o in fixed) <= N  # some may even run out of attempts
    assert timeouts <= fixed_timeouts / 2, (timeouts, fixed_timeouts)
    assert server.abandoned <= fixed_server.abandoned / 2


class TimeoutOnce:
    """A client whose first call of task "a" times out; every other call takes 0.1 s."""

    provider, model, max_tokens = "compat", "fake", 100

    def __init__(self) -> None:
        self.sent: list[tuple[str, float]] = []
        self.lock = threading.Lock()

    def complete(self, request: Request) -> Reply:
        with self.lock:
            first = not any(user == request.user for user, _ in self.sent)
            self.sent.append((request.user, time.monotonic()))
        if request.user == "a" and first:
            time.sleep(0.05)
            raise TransientError("timeout: the server did not answer in time", kind="timeout")
        time.sleep(0.1)
        return Reply('{"verdict": "no", "reason": "r"}', 10, 5)

    def mode_for(self, request: Request) -> str:
        return "none"

    def fallback(self, mode: str) -> None:
        return None

    def adopt(self, mode: str) -> None:
        pass

    def start_at(self, structured: str) -> None:
        pass


def timeout_once_run(store, limiter):
    client = TimeoutOnce()
    executor = Executor(
        client,
        Ledger(store),
        stage="verify",
        judge="compat:fake",
        prompt_version="v",
        policy=Policy(max_in_flight=2, backoff_base_s=0.001, backoff_max_s=0.01),
        limiter=limiter,
    )
    calls = [Call(k, f"h-{k}", "s", k, json.loads) for k in ("a", "b", "c")]
    got = list(executor.run(calls))
    times: dict[str, list[float]] = {}
    for user, at in client.sent:
        times.setdefault(user, []).append(at)
    return got, times, Ledger(store).rows()


def test_after_a_timeout_on_a_server_that_keeps_working_nothing_is_sent_meanwhile(store):
    """A server known to work abandoned requests to their end (the limiter learnt it): the
    timed-out attempt keeps its place for the fastest answer's time (1 s here), so neither its
    retry nor the next call lands on the server meanwhile; the ledger's latency is the
    attempt's own 0.05 s, not the wait (issue 28.3: 579 s recorded for a 300 s timeout)."""
    limiter = Limiter(cap=2, start=2, watch_latency=True)
    warm = limiter.acquire(threading.Event())
    limiter.release(warm, latency=1.0)  # the server's fastest answer so far took 1 s
    limiter.keeps_abandoned = True
    got, times, rows = timeout_once_run(store, limiter)
    assert all(r.ok for r in got) and limiter.cuts == 1 and limiter.allowed >= 1
    timed_out = times["a"][0] + 0.05
    assert times["c"][0] >= timed_out + 1.0 - 0.02  # waited for the place of the abandoned call
    assert times["a"][1] >= timed_out + 1.0 - 0.02  # and so did the retry
    assert [r["status"] for r in rows].count("error") == 1 and len(rows) == 4
    [error] = [r for r in rows if r["status"] == "error"]
    assert error["latency_ms"] < 800  # 0.05 s of call, not the 1 s hold


def test_after_a_timeout_the_place_is_given_back_at_once(store):
    """Not known to keep working (llama.cpp, vLLM and Ollama drop a request whose client left):
    the place is free at once. Were it held for the fastest answer's time (1,000 s here), the
    run could not end."""
    limiter = Limiter(cap=1, start=1, watch_latency=True)
    warm = limiter.acquire(threading.Event())
    limiter.release(warm, latency=1000.0)
    done: list = []
    worker = threading.Thread(target=lambda: done.append(timeout_once_run(store, limiter)))
    worker.start()
    worker.join(120)
    assert done, "the executor held the timed-out call's place"
    got, times, rows = done[0]
    assert all(r.ok for r in got) and len(rows) == 4 and limiter.keeps_abandoned is not True


def test_a_timeout_on_a_two_slot_server_that_drops_it_keeps_both_slots_in_use(llm_env, store):
    """Issue 28.3's run: llama.cpp with ``--parallel 2`` (``slots = 2``) drops a request whose
    client timed out. The limit stays at the two slots, the timed-out call does not hold its
    place (it learns nothing that says the server kept the request), and the ledger records the
    timeout's own latency."""
    plan = FaultPlan(rate=1 / 6, kinds=("hang",))  # the sixth distinct request hangs, once
    with ScriptedServer(
        slots=2, latency_s=0.6, faults=plan, hang_s=60, drop_abandoned=True
    ) as server:
        judge = make_judge(
            compat(server), store, slots=2, compat_timeout_s=1.0, backoff_base_s=0.01
        )
        got = list(judge.verify(verify_tasks(6)))
        assert server.max_active == 2
    limiter = judge.limiters["verify"]
    assert all(o.ok for o in got) and server.dropped == 1 and server.abandoned == 0
    assert limiter.cuts == 1 and limiter.lowest == limiter.allowed == 2
    assert limiter.keeps_abandoned is not True
    rows = Ledger(store).rows()
    [timeout] = [r for r in rows if r["status"] == "error"]
    assert "timeout" in timeout["error"] and len(rows) == 7
    assert timeout["latency_ms"] < 1000 * (1.0 + 0.6)  # a hold would add the 0.6 s answer


@pytest.mark.parametrize("provider", ["openai", "compat"])
def test_per_judge_timeouts(llm_env, store, provider):
    spec = "openai:gpt-4o" if provider == "openai" else "compat:http://127.0.0.1:9/v1#m"
    judge = make_judge(spec, store, base_url="http://127.0.0.1:9/v1")
    expected = 60.0 if provider == "openai" else 300.0  # hosted vs local default
    assert judge.policy.timeout_s == expected
    assert judge.limiter("verify").allowed == (16 if provider == "openai" else 1)
