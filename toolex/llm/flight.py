"""One LLM call on its way through its attempts (toolex/llm/executor.py): what each attempt
hands on to the next, and what the workers hand the caller's thread."""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass
from typing import Any, NamedTuple

from toolex.llm.calls import Call, Result, seed_of
from toolex.llm.clients import Request
from toolex.llm.corrections import Correction, Rejections, Stop
from toolex.llm.ledger import Attempt

# What a worker hands the caller's thread: ("attempt", a Timed row) or ("result", a Result).
Handover = tuple[str, Any]


class Timed(NamedTuple):
    row: Attempt
    sent: float  # the clock's time the attempt went out: the breaker's episodes (Health)


@dataclass
class Flight:
    """One call through its attempts: what each attempt hands on to the next."""

    call: Call
    events: queue.Queue[Handover]
    stop: threading.Event
    rejections: Rejections
    correction: Correction | None
    probe: str | None = None  # a lower structured-output mode to try
    last_error: str = "not attempted"
    last_call: str | None = None

    def request(self, timeout_s: float | None) -> Request:
        """The next attempt's request: the call with its correction turns and probed mode."""
        c, call = self.correction, self.call
        return Request(
            call.system,
            call.user,
            c.turns() if c else None,
            call.schema,
            c.max_tokens if c else None,
            timeout_s,
            self.probe,
            call.logprobs,
            c.temperature if c else None,
            seed_of(call, c),
        )


class Tried(NamedTuple):
    """One attempt's outcome, for the loop over a call's attempts."""

    row: Attempt
    step: Correction | Stop | None  # after a rejected answer: the retry's correction, or a stop
    retry_after: float | None
    held: float  # seconds the attempt's place was kept after a timeout (subtracted from backoff)
    refused: bool  # a refused structured mode: retried at once, one mode lower
    ended: Result | None  # a permanent error ends the call here
