"""The time and the waiting the in-flight limiter and the executor use: the system's by default.

A limiter (toolex.llm.limiter) holds one ``Clock`` and its executor (toolex.llm.executor) uses
the same: every reading of the time and every wait of the two (a call's latency, a backoff, a
worker waiting for room, the caller waiting for answers) goes through it. The system clock is
``time.monotonic`` and the threading primitives as they are. A test hands the limiter a
simulated clock whose primitives wait in simulated time, so what the adaptive concurrency does
against a modelled server follows from the model alone, never from how a loaded machine
schedules threads (issue 25; tests/llm/simulated_clock.py).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any


class Clock:
    def now(self) -> float:
        """Seconds on a clock that never goes back."""
        return time.monotonic()

    def event(self) -> threading.Event:
        return threading.Event()

    def condition(self) -> threading.Condition:
        return threading.Condition()

    def queue(self) -> queue.Queue[Any]:
        return queue.Queue()

    def thread(
        self, target: Callable[..., None], args: tuple[Any, ...], name: str
    ) -> threading.Thread:
        return threading.Thread(target=target, args=args, daemon=True, name=name)


SYSTEM_CLOCK = Clock()
