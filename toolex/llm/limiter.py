"""How many calls a judge keeps in flight: additive increase, multiplicative decrease (AIMD).

The limit starts at the judge's start value (``LLMConfig.start_for``), never exceeds the cap
(``max_in_flight``, or ``slots`` when set) and never falls below one. It is cut in half when the
server shows it has more work than it can take: a timeout, a 429, a 503/529, or (``watch_latency``,
for local servers) an answer that took more than ``QUEUE_RATIO`` times the fastest recent answer
while other calls were in flight, which is how a server that serves one request at a time looks
from outside: each queued request waits for the ones ahead of it. It grows by one with every
answer that came back without such a sign while the limit was in use (and sent after the last
cut, which answered for it), up to the level of the
last cut (TCP's slow-start threshold); beyond that level, where the server was overrun before,
by one per round of answers (1/limit per answer). A cut counts once per episode: calls sent
before the last cut saw the old congestion and do not cut again. On a watched (local) server the
limit does not grow past what a serial server could answer within ``HEADROOM`` of the timeout
(the fastest answer times the calls in flight): stacking calls that take most of the timeout
only makes the last of them time out. ``slots`` is trusted as given: it is the start value and
the floor (``floor``), since a server that decodes N requests at once has N slots whatever one
slow request did; cutting below it leaves a slot idle.

After a timeout (``timed_out``) the call gives its place back at once: llama.cpp, vLLM and Ollama
drop a request whose client closed the connection, and one that held its place for the server's
"remaining work" left a 2-slot llama.cpp server idle for 299 s (issue 28). A server may instead
work the abandoned request to its end; that shows in the first answers sent after the timeout
(within the fastest answer's time of it): when one of them waited more than ``QUEUE_RATIO`` times
the fastest answer, the limiter learns ``keeps_abandoned`` and from then on a timed-out call
keeps its place for the fastest answer's time, so its retry does not queue behind the abandoned
copy; an answer that did not wait unlearns it.

Time (a ticket's sending, the last cut, the last timeout) is read from the limiter's clock
(toolex.llm.clock), which its executor shares.
"""

from __future__ import annotations

import math
import threading
from collections import deque
from dataclasses import dataclass

from toolex.llm.clock import SYSTEM_CLOCK, Clock

QUEUE_RATIO = 2.5  # slower than this times the fastest recent answer: more than one call queued
WINDOW = 50  # answers over which "the fastest recent answer" is taken
HEADROOM = 0.8  # share of the timeout a serial server's queue may fill before growth stops


@dataclass(frozen=True)
class Ticket:
    sent: float  # the clock's time when the call went out
    in_flight: int  # calls in flight with it, itself included
    limit: int  # the limit when it was sent


class Limiter:
    def __init__(
        self,
        cap: int,
        start: int | None = None,
        *,
        watch_latency: bool = False,
        timeout_s: float | None = None,
        floor: int = 1,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.clock = clock
        self.cap, self.timeout_s = max(1, cap), timeout_s
        self.floor = min(self.cap, max(1, floor))  # no cut goes below it (``slots``)
        self.limit = float(min(self.cap, max(self.floor, start or self.cap)))
        self.watch_latency = watch_latency
        self.keeps_abandoned: bool | None = None  # does the server work timed-out requests on?
        self._last_timeout = -math.inf
        self.in_flight = self.peak = self.cuts = 0
        self.lowest = self.allowed  # the lowest limit it came to (tests, reports)
        self.threshold = float(self.cap)  # growth slows above the limit of the last cut
        self._last_cut = -math.inf
        self._latencies: deque[float] = deque(maxlen=WINDOW)
        self._cond = clock.condition()

    @property
    def allowed(self) -> int:
        return max(1, int(self.limit))

    def fastest(self) -> float | None:
        """The fastest recent answer, in seconds (a guess at the server's own work per call)."""
        with self._cond:
            return min(self._latencies) if self._latencies else None

    def acquire(self, stop: threading.Event) -> Ticket | None:
        """Wait for room under the limit; None when ``stop`` is set first."""
        with self._cond:
            while self.in_flight >= self.allowed and not stop.is_set():
                self._cond.wait(0.1)
            if stop.is_set():
                return None
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            return Ticket(self.clock.now(), self.in_flight, self.allowed)

    def cut(self, ticket: Ticket) -> None:
        """Halve the limit for a congestion sign seen by the call of ``ticket``."""
        with self._cond:
            self._cut(ticket)

    def timed_out(self, ticket: Ticket) -> float:
        """The call of ``ticket`` timed out: halve the limit; returns how long the call should
        keep its place (0 unless the server is known to keep working on abandoned requests)."""
        with self._cond:
            self._cut(ticket)
            self._last_timeout = self.clock.now()
            fastest = min(self._latencies) if self._latencies else 0.0
            hold = fastest if self.keeps_abandoned else 0.0
            return min(hold, self.timeout_s or hold)

    def release(self, ticket: Ticket, latency: float | None = None) -> None:
        """The call of ``ticket`` is over; ``latency`` (seconds) when the server answered."""
        with self._cond:
            self.in_flight -= 1
            if latency is not None:
                self._learn(ticket, latency)
                if self._queued(ticket, latency):
                    self._cut(ticket)
                elif ticket.in_flight >= ticket.limit and ticket.sent >= self._last_cut:
                    # the limit was in use, and not before the last cut: try more
                    step = 1.0 if self.limit < self.threshold else 1.0 / self.limit
                    if self._fits(latency, self.limit + step):
                        self.limit = min(float(self.cap), self.limit + step)
                self._latencies.append(latency)
            self._cond.notify_all()

    def _fits(self, latency: float, limit: float) -> bool:
        if not self.watch_latency or not self.timeout_s:
            return True
        fastest = min([latency, *self._latencies])
        return fastest * int(limit) <= HEADROOM * self.timeout_s

    def _learn(self, ticket: Ticket, latency: float) -> None:
        """Whether the server keeps working on abandoned requests, from an answer sent soon
        after a timeout (while an abandoned copy would still be at work)."""
        if not self.watch_latency or not self._latencies:
            return
        fastest = min(self._latencies)
        if self._last_timeout <= ticket.sent < self._last_timeout + fastest:
            self.keeps_abandoned = latency > QUEUE_RATIO * fastest

    def _queued(self, ticket: Ticket, latency: float) -> bool:
        if not self.watch_latency or ticket.in_flight < 2 or not self._latencies:
            return False
        return latency > QUEUE_RATIO * min(self._latencies)

    def _cut(self, ticket: Ticket) -> None:
        if ticket.sent < self._last_cut:
            return  # sent before the last cut: part of the episode that cut already answered
        self.limit = self.threshold = max(float(self.floor), self.limit / 2)
        self.lowest = min(self.lowest, self.allowed)
        self._last_cut = self.clock.now()
        self.cuts += 1
        self._cond.notify_all()
