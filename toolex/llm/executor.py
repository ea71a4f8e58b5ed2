"""Run many LLM calls with an adaptive number in flight, retrying what deserves a retry.

Worker threads (as many as the in-flight cap) each take one call (toolex/llm/calls.py) at a
time and loop over its attempts; each attempt first takes a place under the limiter
(toolex/llm/limiter.py).
- A transient failure (429, 5xx, timeout) waits an exponential backoff with jitter,
  ``min(backoff_max, base * 2**(attempt-1)) * U(0.5, 1)``, or the server's Retry-After when that
  is longer (``Policy``, toolex/llm/retry.py). A permanent error (bad key, bad request) stops
  the call, except a refused structured-output mode (HTTP 400/422), which is retried at once one
  mode lower (the client keeps that mode once it answers). A stage that cannot succeed (a
  refused key, an endpoint nobody answers) stops at once (``Health``, the same module).
- A rejected answer is retried at once, and the retry tells the model what was wrong: it sends
  the same conversation plus the rejected answer and a user message naming the problem (the
  parser's ``hint``, e.g. "the sub-query for number 0 names `GetToday`; describe the step in
  the words of the request"), because a model asked the same question twice gives the same
  answer twice. A model that gives a rejected answer back word for word gets one varied retry,
  then the call stops (no prompt is ever sent twice; ``Rejections``,
  toolex/llm/corrections.py). An answer the
  parser can rebuild without the model (a decomposition whose texts alone name a tool) is taken
  rebuilt at once, never sent back: the model asked again repeats itself (issue 35.10). An
  answer cut off by the token budget (finish_reason length / stop_reason max_tokens) is rejected
  as such and retried with the budget doubled, up to ``MAX_TOKENS_GROWTH`` times the judge's.
  Any other failure to read an answer (a parser crash, JSON nested past the recursion limit) is
  a rejected answer too. Each attempt is one ledger row under the task's input hash, so a retry
  is never served a failed answer, and the answer that finally parses is what an identical task
  is served later.
- Concurrency adapts to what the server sustains (AIMD, see limiter.py): the limit halves on
  timeouts, 429 and 503/529 (and, for local servers, on answers slowed by queueing) and grows by
  one per clean answer, between 1 (or ``slots``) and the cap (``max_in_flight``, or ``slots``);
  on a local server it never stacks more calls than the fastest answer fits into the timeout. A
  timeout cuts the limit and gives the attempt's place back at once (servers drop a request
  whose client gave up), unless the server showed it works abandoned requests to their end:
  then the place is kept for the fastest answer's time (``Limiter.timed_out``). The ledger's
  latency is the attempt's own, never that wait. A server that takes connections and never
  answers stops the stage after ``TIMEOUTS_IN_A_ROW`` timeouts with no answer between them
  (``Health``), as one that refuses connections does.
- A run with a budget (toolex/llm/budget.py) takes its calls round-robin over their groups (the
  query a task belongs to, ``Call.group``), each group's in its own order, so a capped run
  spreads its calls over many queries instead of spending them all on the first one.

Every paid answer is recorded, whatever it holds: the stored text is cut at ``ANSWER_CAP``
characters with a marker, text that cannot be stored (lone surrogates) is replaced, and parser
crashes are caught per attempt (toolex/llm/corrections.py). Only the caller's thread touches
DuckDB: workers hand attempts over a queue and the generator records them in the ledger in
bursts, always *before* yielding the result they belong to, so a result the caller has seen is a
finished, recorded call that a re-run serves from the ledger. Closing the generator early (an
interrupted stage) stops the workers after their current attempt; attempts already finished are
still recorded. While it waits, the caller's thread reports to the progress reporter every
``flush_s`` (``advance(0)``): plain progress lines keep coming while calls are slow, and Ctrl-C,
which stops work at the next report (toolex/cli/progress.py), stops a stage whose calls never
answer at once, not after their timeouts. Time is read, and waited for, on the limiter's clock
(toolex.llm.clock): latencies, backoffs, holds, the pulse and the breaker's timeout episodes.
"""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Iterator, Sequence

from toolex.llm.answers import parse_answer
from toolex.llm.budget import STOPPED, Budget, Reservation
from toolex.llm.calls import Call, Result, Spend, spread
from toolex.llm.clients import ChatClient, Reply, Request
from toolex.llm.corrections import (
    ANSWER_CAP,
    ERROR_CAP,
    Correction,
    Rejections,
    Stop,
    storable,
)
from toolex.llm.failures import PermanentError, TransientError
from toolex.llm.flight import Flight, Handover, Timed, Tried
from toolex.llm.ledger import Attempt, Ledger
from toolex.llm.limiter import Limiter, Ticket
from toolex.llm.pricing import cost_usd
from toolex.llm.retry import Health, Policy
from toolex.progress import current

CONGESTION = ("timeout", "rate_limit", "overloaded")  # TransientError kinds that halve in-flight


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
        limiter: Limiter | None = None,
        budget: Budget | None = None,
    ) -> None:
        self.spend = spend or Spend()
        self.budget = budget  # consulted before every attempt (toolex/llm/budget.py)
        self.client, self.ledger, self.policy = client, ledger, policy
        self.stage, self.judge, self.prompt_version = stage, judge, prompt_version
        self.batch_price = batch_price
        self.limiter = limiter or Limiter(policy.max_in_flight)
        self.clock = self.limiter.clock  # one clock for the limiter and the calls it admits
        self.flush_s = 0.5  # longest a finished answer waits to be recorded and handed over
        self._rng = random.Random(seed)
        # A worker takes a call and admits its first attempt in one step, so a budget is spent
        # in the order of spread(): apart, a worker that took the third call could be admitted
        # before the one that took the second, on a loaded machine (issue 34).
        self._taking = threading.Lock()

    def cached(self, calls: Sequence[Call]) -> tuple[list[Result], list[Call]]:
        """Split calls into ledger hits (as results) and calls still to make."""
        hits = self.ledger.hits(c.input_hash for c in calls)
        done, todo = [], []
        for call in calls:
            if call.input_hash in hits:
                hit = hits[call.input_hash]
                done.append(Result(call, True, hit.parsed, call_id=hit.call_id, cached=True))
                self.spend.served += 1
            else:
                todo.append(call)
        return done, todo

    def run(self, calls: Sequence[Call]) -> Iterator[Result]:
        done, todo = self.cached(calls)
        yield from done
        if todo:
            yield from self._run_live(spread(todo) if self.budget is not None else todo)

    # -- live calls ------------------------------------------------------------------------------

    def _run_live(self, calls: list[Call]) -> Iterator[Result]:
        work: queue.Queue[Call] = queue.Queue()
        for call in calls:
            work.put(call)
        events: queue.Queue[Handover] = self.clock.queue()
        stop = self.clock.event()
        n_threads = max(1, min(self.limiter.cap, len(calls)))
        threads = [
            self.clock.thread(self._worker, (work, events, stop), f"toolex-llm-{i}")
            for i in range(n_threads)
        ]
        for t in threads:
            t.start()
        remaining = len(calls)
        health = Health(self.client, n_threads)
        pending_rows: list[Attempt] = []
        results: list[Result] = []
        last_flush = last_pulse = self.clock.now()
        try:
            while remaining:
                timeout = max(0.0, last_flush + self.flush_s - self.clock.now())
                try:
                    kind, item = events.get(timeout=timeout)
                except queue.Empty:
                    kind, item = "tick", None
                if kind == "attempt":
                    pending_rows.append(item.row)
                    health.see(item.row, item.sent)
                elif kind == "result":
                    if item.error != STOPPED:  # refused by the budget: the task stays pending
                        results.append(item)
                    remaining -= 1
                health.check()
                if self.clock.now() - last_pulse >= self.flush_s:
                    last_pulse = self.clock.now()
                    current().advance(0)  # a report while waiting: progress lines, Ctrl-C
                # One ledger commit per interval, not per attempt: a commit costs milliseconds
                # and the caller's thread must keep pace with every worker together.
                if remaining and self.clock.now() - last_flush < self.flush_s:
                    continue
                self.ledger.record(pending_rows)
                self.spend.add(pending_rows)
                pending_rows = []
                last_flush = self.clock.now()
                ready, results = results, []
                yield from ready
        finally:
            stop.set()
            self._drain(events, pending_rows)

    def _drain(self, events: queue.Queue[Handover], pending_rows: list[Attempt]) -> None:
        """Record the attempts not yet recorded, with those that finished while the stage was
        being closed."""
        while True:
            try:
                kind, item = events.get_nowait()
            except queue.Empty:
                break
            if kind == "attempt":
                pending_rows.append(item.row)
        self.ledger.record(pending_rows)
        self.spend.add(pending_rows)

    def _worker(
        self, work: queue.Queue[Call], events: queue.Queue[Handover], stop: threading.Event
    ) -> None:
        while not stop.is_set():
            with self._taking:
                try:
                    call = work.get_nowait()
                except queue.Empty:
                    return
                first = self._admit(call, call.correction) if self.budget is not None else None
            if self.budget is not None and first is None:
                events.put(("result", Result(call, False, error=STOPPED, attempts=0)))
                continue
            try:
                result = self._attempts(call, events, stop, first)
            except BaseException as exc:  # a bug must fail the call, not hang the stage
                result = Result(call, False, error=f"internal error: {type(exc).__name__}: {exc}")
            if result is not None:
                events.put(("result", result))

    def _admit(self, call: Call, correction: Correction | None) -> Reservation | None:
        """The budget's reservation for the next attempt of ``call`` (None: refused)."""
        assert self.budget is not None
        tokens = (correction.max_tokens if correction else None) or self.client.max_tokens
        return self.budget.admit(self.client.model, call.system, call.user, tokens)

    def _attempts(
        self,
        call: Call,
        events: queue.Queue[Handover],
        stop: threading.Event,
        first: Reservation | None = None,
    ) -> Result | None:
        """Every attempt of ``call``; ``first``: the budget's reservation of the first, taken
        with the call (:meth:`_worker`)."""
        flight = Flight(call, events, stop, Rejections(call.correction), call.correction)
        for n in range(1, self.policy.max_attempts + 1):
            if stop.is_set():
                self._unsent(first if n == 1 else None)  # taken, never sent
                return None
            request = flight.request(self.policy.timeout_s)
            reservation = None
            if self.budget is not None:
                reservation = (
                    first if n == 1 and first is not None else self._admit(call, flight.correction)
                )
                if reservation is None:
                    return Result(call, False, error=STOPPED, attempts=n - 1)
            ticket = self.limiter.acquire(stop)
            if ticket is None:
                self._unsent(reservation)
                return None
            tried = self._attempt(flight, n, request, ticket, reservation)
            row = tried.row
            if tried.ended is not None:
                return tried.ended
            if row.status == "ok":
                return Result(call, True, row.parsed, call_id=row.call_id, attempts=n)
            flight.last_error, flight.last_call = row.error or row.status, row.call_id
            if isinstance(tried.step, Stop):
                return Result(
                    call,
                    False,
                    error=f"stopped after {n} attempts: {tried.step.reason}; "
                    f"last: {flight.last_error}",
                    call_id=flight.last_call,
                    attempts=n,
                )
            if row.status == "error" and not tried.refused and n < self.policy.max_attempts:
                delay = self.policy.delay(n, tried.retry_after, self._rng)
                stop.wait(max(0.0, delay - tried.held))
        return Result(
            call,
            False,
            error=f"failed after {self.policy.max_attempts} attempts; last: {flight.last_error}",
            call_id=flight.last_call,
            attempts=self.policy.max_attempts,
        )

    def _unsent(self, reservation: Reservation | None) -> None:
        """Give back a reservation taken for an attempt never sent."""
        if reservation is not None and self.budget is not None:
            self.budget.settle(reservation, None)

    def _attempt(
        self,
        flight: Flight,
        n: int,
        request: Request,
        ticket: Ticket,
        reservation: Reservation | None,
    ) -> Tried:
        """Attempt ``n`` of the flight's call under ``ticket``, handed over as an event: the
        limiter's place and the budget's reservation are given back on every path."""
        call = flight.call
        row = Attempt(self.stage, self.judge, self.client.model, self.prompt_version,
                      call.input_hash, call.key, status="error", attempt=n)  # fmt: skip
        started = self.clock.now()
        retry_after, held, answered, refused = None, 0.0, None, False
        step: Correction | Stop | None = None
        try:
            try:
                reply = self.client.complete(request)
            except (TransientError, PermanentError) as exc:
                row.latency_ms = (self.clock.now() - started) * 1000
                row.error = storable(str(exc), ERROR_CAP)
                lower = self._lower_mode(request, exc)
                if lower is not None:
                    row.error += f" (structured output refused; next attempt: {lower})"
                    flight.probe, refused = lower, True
                elif isinstance(exc, PermanentError):
                    flight.events.put(("attempt", Timed(row, started)))
                    ended = Result(call, False, error=row.error, call_id=row.call_id, attempts=n)
                    return Tried(row, None, None, 0.0, False, ended)
                else:
                    retry_after = exc.retry_after
                    held = self._congested(ticket, exc, flight.stop)
            except Exception as exc:  # an SDK surprise is a failed attempt, not a crash
                row.error = storable(f"{type(exc).__name__}: {exc}", ERROR_CAP)
            else:
                elapsed = self.clock.now() - started
                row.latency_ms = elapsed * 1000
                rejected = self.read(row, reply, call, request)
                if rejected is not None:
                    step = flight.rejections.next(rejected)
                    flight.correction = step if isinstance(step, Correction) else None
                # a long answer's latency says nothing about queueing
                answered = None if reply.truncated else elapsed
                if flight.probe is not None:  # the server answered at the lower mode: keep it
                    self.client.adopt(flight.probe)
                    flight.probe = None
        finally:
            self.limiter.release(ticket, answered)
            if reservation is not None and self.budget is not None:
                self.budget.settle(reservation, row.cost_usd)
        if row.latency_ms is None:  # an SDK surprise; the others were timed at once
            row.latency_ms = (self.clock.now() - started) * 1000
        flight.events.put(("attempt", Timed(row, started)))
        return Tried(row, step, retry_after, held, refused, None)

    def read(self, row: Attempt, reply: Reply, call: Call, request: Request) -> Correction | None:
        """Fill ``row`` from a paid answer (its text, tokens and cost, then
        :func:`~toolex.llm.answers.parse_answer`); the correction for the next attempt when
        rejected."""
        row.response = storable(reply.text, ANSWER_CAP)
        row.prompt_tokens, row.completion_tokens = reply.prompt_tokens, reply.completion_tokens
        row.cost_usd = cost_usd(
            self.client.model, reply.prompt_tokens, reply.completion_tokens, batch=self.batch_price
        )
        return parse_answer(row, reply, call, request.max_tokens, self.client.max_tokens)

    def _lower_mode(self, request: Request, exc: Exception) -> str | None:
        """The structured-output mode to probe when ``exc`` is the server refusing the current
        one: HTTP 400/422 (or a 500 that names response_format, as some llama.cpp forks send)."""
        refused = isinstance(exc, PermanentError) and exc.status in (400, 422)
        refused |= isinstance(exc, TransientError) and "response_format" in str(exc)
        mode = self.client.mode_for(request)
        return self.client.fallback(mode) if refused and mode != "none" else None

    def _congested(self, ticket: Ticket, exc: TransientError, stop: threading.Event) -> float:
        """Cut the limit for a congestion sign; after a timeout, keep this attempt's place while
        the server may still work on the abandoned request (``Limiter.timed_out``). Returns the
        seconds held."""
        if exc.kind not in CONGESTION:
            return 0.0
        if exc.kind != "timeout":
            self.limiter.cut(ticket)
            return 0.0
        hold = self.limiter.timed_out(ticket)
        if hold:
            stop.wait(hold)
        return hold
