"""Run many LLM calls with a bounded number in flight, retrying what deserves a retry.

Worker threads (as many as the in-flight limit) each take one call at a time and loop over its
attempts: a transient failure (429, 5xx, timeout) waits an exponential backoff with jitter —
``min(backoff_max, base * 2**(attempt-1)) * U(0.5, 1)`` — or the server's Retry-After when that is
longer; a malformed answer is retried at once (the model, not the server, was at fault); a
permanent error (bad key, bad request) stops the call. Every attempt is reported back.

Only the caller's thread touches DuckDB: workers hand attempts over a queue and the generator
records them in the ledger in bursts, always *before* yielding the result they belong to, so a
result the caller has seen is a finished, recorded call that a re-run serves from the ledger.
Closing the generator early (an interrupted stage) stops the workers after their current
attempt; attempts already finished are still recorded.
"""

from __future__ import annotations

import queue
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from toolex.errors import AnswerError, ModelUnavailableError
from toolex.llm.clients import KEY_ENV, ChatClient, PermanentError, TransientError
from toolex.llm.ledger import Attempt, Ledger
from toolex.llm.pricing import cost_usd


@dataclass
class Call:
    key: str  # task key it was made for (the first, when several tasks share one prompt)
    input_hash: str
    system: str
    user: str
    parse: Callable[[str], Any]  # raises AnswerError on a malformed answer


@dataclass
class Result:
    call: Call
    ok: bool
    parsed: Any = None
    error: str | None = None
    call_id: str | None = None
    cached: bool = False
    attempts: int = 0


@dataclass
class Spend:
    """What a judge has cost so far in this process (progress bars: calls and cost so far)."""

    attempts: int = 0  # HTTP attempts recorded, failures included
    served: int = 0  # answers served from the ledger
    cost_usd: float = 0.0  # sum over attempts whose price is known
    unpriced: int = 0  # attempts whose cost is unknown (model not in the price table)

    def add(self, rows: Sequence[Attempt]) -> None:
        for row in rows:
            self.attempts += 1
            if row.cost_usd is None:
                self.unpriced += row.status != "error"  # an error has no tokens to price
            else:
                self.cost_usd += row.cost_usd


@dataclass
class Policy:
    max_in_flight: int = 16
    max_attempts: int = 5
    backoff_base_s: float = 1.0
    backoff_max_s: float = 60.0

    def delay(self, attempt: int, retry_after: float | None, rng: random.Random) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        wait = min(self.backoff_max_s, self.backoff_base_s * 2 ** (attempt - 1))
        wait *= rng.uniform(0.5, 1.0)
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.backoff_max_s))
        return wait


class _Health:
    """Stops a stage that cannot succeed instead of failing every task slowly: a refused API
    key (401/403), or an endpoint that never answered while the first attempts of every worker
    (and then some) all failed to connect."""

    def __init__(self, client: ChatClient, n_threads: int) -> None:
        self.client, self.limit = client, n_threads + 2
        self.answered, self.unreachable = False, 0
        self.refused: str | None = None

    def see(self, row: Attempt) -> None:
        error = row.error or ""
        if row.status in ("ok", "malformed") or error.startswith("HTTP"):
            self.answered = True
        if error.startswith(("HTTP 401", "HTTP 403")):
            self.refused = error
        elif error.startswith("connection error"):
            self.unreachable += 1

    def check(self) -> None:
        where = getattr(getattr(self.client, "sdk_client", None), "base_url", "the endpoint")
        if self.refused:
            env = KEY_ENV.get(getattr(self.client, "provider", ""), "the API key variable")
            raise ModelUnavailableError(
                f"{where} refused the API key ({self.refused}); check {env}"
            )
        if not self.answered and self.unreachable >= self.limit:
            raise ModelUnavailableError(
                f"cannot reach {where} ({self.unreachable} connection failures, no answer); "
                "is the server running and the base URL right?"
            )


class Executor:
    def __init__(
        self,
        client: ChatClient,
        ledger: Ledger,
        *,
        stage: str,
        judge: str,
        prompt_version: str,
        policy: Policy,
        batch_price: bool = False,
        seed: int | None = None,
        spend: Spend | None = None,
    ) -> None:
        self.spend = spend or Spend()
        self.client, self.ledger, self.policy = client, ledger, policy
        self.stage, self.judge, self.prompt_version = stage, judge, prompt_version
        self.batch_price = batch_price
        self.flush_s = 0.5  # longest a finished answer waits to be recorded and handed over
        self._rng = random.Random(seed)

    def cached(self, calls: Sequence[Call]) -> tuple[list[Result], list[Call]]:
        """Split calls into ledger hits (as results) and calls still to make."""
        hits = self.ledger.hits(c.input_hash for c in calls)
        done, todo = [], []
        for call in calls:
            if call.input_hash in hits:
                call_id, parsed = hits[call.input_hash]
                done.append(Result(call, True, parsed, call_id=call_id, cached=True))
                self.spend.served += 1
            else:
                todo.append(call)
        return done, todo

    def run(self, calls: Sequence[Call]) -> Iterator[Result]:
        done, todo = self.cached(calls)
        yield from done
        if todo:
            yield from self._run_live(todo)

    # -- live calls ------------------------------------------------------------------------------

    def _run_live(self, calls: list[Call]) -> Iterator[Result]:
        work: queue.Queue[Call] = queue.Queue()
        for call in calls:
            work.put(call)
        events: queue.Queue[tuple[str, Any]] = queue.Queue()
        stop = threading.Event()
        n_threads = max(1, min(self.policy.max_in_flight, len(calls)))
        threads = [
            threading.Thread(
                target=self._worker, args=(work, events, stop), daemon=True, name=f"toolex-llm-{i}"
            )
            for i in range(n_threads)
        ]
        for t in threads:
            t.start()
        remaining = len(calls)
        health = _Health(self.client, n_threads)
        pending_rows: list[Attempt] = []
        results: list[Result] = []
        last_flush = time.monotonic()
        try:
            while remaining:
                timeout = max(0.0, last_flush + self.flush_s - time.monotonic())
                try:
                    kind, item = events.get(timeout=timeout)
                except queue.Empty:
                    kind, item = "tick", None
                if kind == "attempt":
                    pending_rows.append(item)
                    health.see(item)
                elif kind == "result":
                    results.append(item)
                    remaining -= 1
                health.check()
                # One ledger commit per interval, not per attempt: a commit costs milliseconds
                # and the caller's thread must keep pace with every worker together.
                if remaining and time.monotonic() - last_flush < self.flush_s:
                    continue
                self.ledger.record(pending_rows)
                self.spend.add(pending_rows)
                pending_rows = []
                last_flush = time.monotonic()
                ready, results = results, []
                yield from ready
        finally:
            stop.set()
            while True:  # record attempts that finished while we were being closed
                try:
                    kind, item = events.get_nowait()
                except queue.Empty:
                    break
                if kind == "attempt":
                    pending_rows.append(item)
            self.ledger.record(pending_rows)
            self.spend.add(pending_rows)

    def _worker(self, work: queue.Queue, events: queue.Queue, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                call = work.get_nowait()
            except queue.Empty:
                return
            try:
                result = self._attempts(call, events, stop)
            except BaseException as exc:  # a bug must fail the call, not hang the stage
                result = Result(call, False, error=f"internal error: {type(exc).__name__}: {exc}")
            if result is not None:
                events.put(("result", result))

    def _attempts(self, call: Call, events: queue.Queue, stop: threading.Event) -> Result | None:
        last_error, last_call = "not attempted", None
        for n in range(1, self.policy.max_attempts + 1):
            if stop.is_set():
                return None
            row = Attempt(
                self.stage,
                self.judge,
                self.client.model,
                self.prompt_version,
                call.input_hash,
                call.key,
                status="error",
                attempt=n,
            )
            started = time.perf_counter()
            retry_after: float | None = None
            try:
                reply = self.client.complete(call.system, call.user)
            except TransientError as exc:
                row.error, retry_after = str(exc), exc.retry_after
            except PermanentError as exc:
                row.error = str(exc)
                row.latency_ms = (time.perf_counter() - started) * 1000
                events.put(("attempt", row))
                return Result(call, False, error=row.error, call_id=row.call_id, attempts=n)
            except Exception as exc:  # an SDK surprise is a failed attempt, not a crash
                row.error = f"{type(exc).__name__}: {exc}"[:500]
            else:
                row.response = reply.text
                row.prompt_tokens, row.completion_tokens = (
                    reply.prompt_tokens,
                    reply.completion_tokens,
                )
                row.cost_usd = cost_usd(
                    self.client.model,
                    reply.prompt_tokens,
                    reply.completion_tokens,
                    batch=self.batch_price,
                )
                try:
                    row.parsed = call.parse(reply.text)
                    row.status = "ok"
                except AnswerError as exc:
                    row.status, row.error = "malformed", str(exc)
            row.latency_ms = (time.perf_counter() - started) * 1000
            events.put(("attempt", row))
            if row.status == "ok":
                return Result(call, True, row.parsed, call_id=row.call_id, attempts=n)
            last_error, last_call = row.error or row.status, row.call_id
            if row.status == "error" and n < self.policy.max_attempts:
                stop.wait(self.policy.delay(n, retry_after, self._rng))
        return Result(
            call,
            False,
            error=f"failed after {self.policy.max_attempts} attempts; last: {last_error}",
            call_id=last_call,
            attempts=self.policy.max_attempts,
        )
