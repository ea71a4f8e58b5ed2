"""Concurrency that adapts to what the server sustains: a server with ONE slot whose latency grows
with its queue (llama.cpp ``--parallel 1`` on a small machine), and what a client timeout does
to the calls in flight.

The executor and limiter run for real (their threads, their limits, the ledger) on a simulated
clock, against a model of the one-slot (or two-slot) server (one_slot_model.py): every latency
and timeout is the queue's arithmetic, so each run is the same run however loaded the machine
is, and the figures asserted are simulated seconds (issue 25: wall-clock bounds failed under
load)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from llm.one_slot_model import ANSWER, OneSlotServer
from llm.simulated_clock import SimClock
from toolex.judges import make_judge
from toolex.judges.llm import LLMJudge
from toolex.llm.calls import Call, Result
from toolex.llm.clients import Reply, Request, TransientError
from toolex.llm.executor import Executor
from toolex.llm.ledger import Ledger
from toolex.llm.limiter import Limiter
from toolex.llm.retry import Policy
from toolex.store import Store

SERVICE_S = 0.05  # the server's work per request; it works on one at a time
N = 40
SERIAL_S = N * SERVICE_S
FAST = {"backoff_base_s": 0.05, "backoff_max_s": 0.5, "max_attempts": 8, "max_in_flight": 12}
COMPAT = "compat:http://127.0.0.1:9/v1#qwen2.5-1.5b"  # never called: the model answers
HOSTED = "openai:gpt-4o-mini"


def calls(n: int) -> list[Call]:
    return [Call(f"t{i}", f"h{i}", "system", f"task {i}", json.loads) for i in range(n)]


def one_slot_run(
    store: Store,
    spec: str = COMPAT,
    n: int = N,
    service_s: float = SERVICE_S,
    model: Callable[[SimClock, float], OneSlotServer] | None = None,
    **opts: float,
) -> tuple[list[Result], float, OneSlotServer, Limiter]:
    """``n`` verify calls with the settings a judge of ``spec`` runs with (its policy and its
    limiter's cap, start, floor, latency watch and timeout), against the one-slot model (or
    the server model ``model`` makes from the clock and ``service_s``)."""
    judge = make_judge(spec, store, base_url="http://127.0.0.1:9/v1", **{**FAST, **opts})
    assert isinstance(judge, LLMJudge) and judge.policy is not None
    settings = judge.limiter("verify")
    clock = SimClock()
    limiter = Limiter(
        settings.cap,
        settings.allowed,
        watch_latency=settings.watch_latency,
        timeout_s=settings.timeout_s,
        floor=settings.floor,
        clock=clock,
    )
    server = (model or OneSlotServer)(clock, service_s)
    executor = Executor(
        server,
        Ledger(store),
        stage="verify",
        judge=spec,
        prompt_version="v",
        policy=judge.policy,
        limiter=limiter,
        seed=7,
    )
    got = list(executor.run(calls(n)))
    clock.finish()
    return got, clock.now(), server, limiter


def test_a_local_server_with_one_slot_gets_no_needless_timeout(
    llm_env: dict[str, str], store: Store
) -> None:
    """12 calls at once would queue 12 * 0.1 s = 1.2 s deep, past the 1 s timeout: the executor
    starts at one, grows while answers come back unqueued and backs off when they do not, so
    nothing times out and the run takes about the server's serial time."""
    got, took, server, limiter = one_slot_run(store, n=30, service_s=0.1, compat_timeout_s=1.0)
    assert all(o.ok for o in got) and server.timeouts == 0
    assert server.abandoned == 0 and server.received == 30
    assert limiter.cuts >= 1 and 2 <= limiter.peak <= 6  # it probed, saw the queue, backed off
    assert took < 1.6 * 30 * 0.1, f"{took:.2f} s for 3.0 s of server work"
    rows = Ledger(store).rows()
    assert len(rows) == 30 and {r["status"] for r in rows} == {"ok"}


def test_the_issues_verify_run_scaled_down_wastes_nothing(
    llm_env: dict[str, str], store: Store
) -> None:
    """Issue 16's run at 1/100 of the time: one slot, 45 s a call (0.45 s), the 60 s timeout
    (0.6 s), 8 verify tasks. With up to sixteen calls in flight the real run made 25 calls, 16
    of which timed out; the executor never puts a second call behind one that takes most of
    the timeout, and the slot is never idle."""
    got, took, server, limiter = one_slot_run(
        store, n=8, service_s=0.45, compat_timeout_s=0.6, max_in_flight=16
    )
    assert all(o.ok for o in got) and server.timeouts == 0 and server.received == 8
    assert limiter.peak == 1 and server.abandoned == 0
    assert took == pytest.approx(8 * 0.45)  # one call after the other, back to back


def test_configured_slots_cap_the_calls_in_flight(llm_env: dict[str, str], store: Store) -> None:
    got, took, server, limiter = one_slot_run(store, compat_timeout_s=0.5, slots=1)
    assert all(o.ok for o in got) and server.timeouts == 0
    assert limiter.peak == 1 and limiter.cap == 1
    assert took == pytest.approx(SERIAL_S)


def test_timeouts_halve_the_calls_in_flight_of_a_hosted_style_judge(
    llm_env: dict[str, str], store: Store, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A judge that starts at the cap (as for a hosted API) overruns the one-slot server at
    first; each timeout cuts in-flight, so far fewer calls time out (and are worked on by the
    server in vain) than with a fixed twelve in flight, which keeps the queue past the timeout
    by replacing every answer with a new request."""
    got, _, server, limiter = one_slot_run(store, HOSTED, timeout_s=0.5)
    assert all(o.ok for o in got)
    assert limiter.peak == 12 and limiter.lowest <= 6

    from toolex.store import Store

    monkeypatch.setattr(Limiter, "_cut", lambda self, ticket: None)  # fixed concurrency
    # ...which drowns this server in abandoned work until nothing answers: the breaker would
    # stop that run (rightly); the counterfactual needs it to go on.
    monkeypatch.setattr("toolex.llm.retry.TIMEOUTS_IN_A_ROW", 10**6)
    with Store.open(tmp_path / "fixed.duckdb") as fixed_store:
        fixed, _, fixed_server, _ = one_slot_run(fixed_store, HOSTED, timeout_s=0.5)
    assert sum(o.ok for o in fixed) <= N  # some may even run out of attempts
    assert 0 < server.timeouts <= fixed_server.timeouts / 2, (
        server.timeouts,
        fixed_server.timeouts,
    )
    assert server.abandoned <= fixed_server.abandoned / 2


class TimeoutOnce:
    """A client whose first call of task "a" times out after 0.05 s; every other call takes
    0.1 s (simulated)."""

    provider, model, max_tokens = "compat", "fake", 100

    def __init__(self, clock: SimClock) -> None:
        self.clock = clock
        self.sent: list[tuple[str, float]] = []

    def complete(self, request: Request) -> Reply:
        first = not any(user == request.user for user, _ in self.sent)
        self.sent.append((request.user, self.clock.now()))
        if request.user == "a" and first:
            self.clock.sleep(0.05)
            raise TransientError("timeout: the server did not answer in time", kind="timeout")
        self.clock.sleep(0.1)
        return Reply(ANSWER, 10, 5)

    def mode_for(self, request: Request) -> str:
        return "none"

    def fallback(self, mode: str) -> None:
        return None

    def adopt(self, mode: str) -> None:
        pass

    def start_at(self, structured: str) -> None:
        pass


def timeout_once_run(
    store: Store, limiter: Limiter, clock: SimClock
) -> tuple[list[Result], dict[str, list[float]], list[dict[str, Any]]]:
    client = TimeoutOnce(clock)
    executor = Executor(
        client,
        Ledger(store),
        stage="verify",
        judge="compat:fake",
        prompt_version="v",
        policy=Policy(max_in_flight=2, backoff_base_s=0.001, backoff_max_s=0.01),
        limiter=limiter,
        seed=7,
    )
    got = list(executor.run([Call(k, f"h-{k}", "s", k, json.loads) for k in ("a", "b", "c")]))
    clock.finish()
    times: dict[str, list[float]] = {}
    for user, at in client.sent:
        times.setdefault(user, []).append(at)
    return got, times, Ledger(store).rows()


def test_after_a_timeout_on_a_server_that_keeps_working_nothing_is_sent_meanwhile(
    store: Store,
) -> None:
    """A server known to work abandoned requests to their end (the limiter learnt it): the
    timed-out attempt keeps its place for the fastest answer's time (1 s here), so neither its
    retry nor the next call lands on the server meanwhile; the ledger's latency is the
    attempt's own 0.05 s, not the wait (issue 28.3: 579 s recorded for a 300 s timeout)."""
    clock = SimClock()
    limiter = Limiter(cap=2, start=2, watch_latency=True, clock=clock)
    warm = limiter.acquire(clock.event())
    assert warm is not None  # a free slot is granted at once
    limiter.release(warm, latency=1.0)  # the server's fastest answer so far took 1 s
    limiter.keeps_abandoned = True
    got, times, rows = timeout_once_run(store, limiter, clock)
    assert all(r.ok for r in got) and limiter.cuts == 1 and limiter.allowed >= 1
    assert times["a"][0] == times["b"][0] == 0.0  # two in flight at first
    timed_out = 0.05
    assert times["c"][0] >= timed_out + 1.0  # waited for the place of the abandoned call
    assert times["a"][1] >= timed_out + 1.0  # and so did the retry
    assert [r["status"] for r in rows].count("error") == 1 and len(rows) == 4
    [error] = [r for r in rows if r["status"] == "error"]
    assert error["latency_ms"] == pytest.approx(50)  # 0.05 s of call, not the 1 s hold


def test_after_a_timeout_the_place_is_given_back_at_once(store: Store) -> None:
    """Not known to keep working (llama.cpp, vLLM and Ollama drop a request whose client left):
    the place is free at once. Were it held for the fastest answer's time (1,000 s here), the
    retry would go out 1,000 s after the timeout."""
    clock = SimClock()
    limiter = Limiter(cap=1, start=1, watch_latency=True, clock=clock)
    warm = limiter.acquire(clock.event())
    assert warm is not None  # a free slot is granted at once
    limiter.release(warm, latency=1000.0)
    got, times, rows = timeout_once_run(store, limiter, clock)
    assert all(r.ok for r in got) and len(rows) == 4 and limiter.keeps_abandoned is not True
    timed_out = 0.05
    assert timed_out < times["a"][1] <= timed_out + 0.01  # only its backoff (at most 0.01 s)
    assert clock.now() < 1.0  # three answers of 0.1 s after it, nothing held


def test_a_timeout_on_a_two_slot_server_that_drops_it_keeps_both_slots_in_use(
    llm_env: dict[str, str], store: Store
) -> None:
    """Issue 28.3's run: llama.cpp with ``--parallel 2`` (``slots = 2``) drops a request whose
    client timed out. The limit stays at the two slots, the timed-out call does not hold its
    place (it learns nothing that says the server kept the request), and the ledger records the
    timeout's own latency."""

    # the sixth request hangs, once
    def two_slots(clock: SimClock, service_s: float) -> OneSlotServer:
        return OneSlotServer(clock, service_s, slots=2, drop_abandoned=True, hangs={"task 5"})

    got, took, server, limiter = one_slot_run(
        store,
        n=6,
        service_s=0.6,
        model=two_slots,
        slots=2,
        compat_timeout_s=1.0,
        backoff_base_s=0.01,
    )
    assert server.max_active == 2
    assert all(o.ok for o in got) and server.dropped == 1 and server.abandoned == 0
    assert limiter.cuts == 1 and limiter.lowest == limiter.allowed == 2
    assert limiter.keeps_abandoned is not True
    rows = Ledger(store).rows()
    [timeout] = [r for r in rows if r["status"] == "error"]
    assert "timeout" in timeout["error"] and len(rows) == 7
    assert timeout["latency_ms"] == pytest.approx(1000)  # the timeout's own; a hold adds 600


@pytest.mark.parametrize("provider", ["openai", "compat"])
def test_per_judge_timeouts(llm_env: dict[str, str], store: Store, provider: str) -> None:
    spec = "openai:gpt-4o" if provider == "openai" else "compat:http://127.0.0.1:9/v1#m"
    judge = make_judge(spec, store, base_url="http://127.0.0.1:9/v1")
    assert isinstance(judge, LLMJudge) and judge.policy is not None
    expected = 60.0 if provider == "openai" else 300.0  # hosted vs local default
    assert judge.policy.timeout_s == expected
    assert judge.limiter("verify").allowed == (16 if provider == "openai" else 1)
