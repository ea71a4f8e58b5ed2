"""A simulated clock for the executor and its limiter: real threads taking turns, simulated time.

``SimClock`` is a ``toolex.llm.clock.Clock`` whose primitives (event, condition, queue, thread)
let exactly one of its threads run at a time: the running thread keeps the turn until it waits
on one of them (or on ``sleep``), then hands it to the next thread that is ready, in the order
they became ready; when none is, the clock jumps to the earliest timed wait and wakes it. So a
run's every decision follows from the program and the simulated times alone: the same run gives
the same result on an idle machine, under `stress --cpu 4`, or beside another pytest run, and a
minute of simulated waiting costs no wall time (issue 25: the concurrency tests compared
wall-clock durations and failed under load).

The thread that creates the clock (the test's) takes part from the start; threads made with
``thread()`` take part once started. Every wait of a taking-part thread must go through these
primitives: one that blocks elsewhere stops the simulation (waits past ``STALL_S`` real seconds
on the turn raise instead of hanging). Waiting with nothing ready and nothing timed is a
deadlock and raises at once.
"""

from __future__ import annotations

import heapq
import itertools
import queue
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from toolex.llm.clock import Clock

STALL_S = 120.0  # real seconds a thread may wait for its turn before the test fails


class Stalled(RuntimeError):
    """The simulation cannot go on: a deadlock, or a thread blocked outside the clock."""


class _Party:
    """One taking-part thread: its turn signal and what woke it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.turn = threading.Event()
        self.woken_by = ""  # "notify" or "time"
        self.wait_id = 0  # which wait a wake-up is for (older timers are stale)
        self.waiting_on: list[_Party] | None = None  # the waiter list it sits in
        self.done = False


class SimClock(Clock):
    def __init__(self) -> None:
        self.t = 0.0
        self._ready: deque[_Party] = deque()
        self._timers: list[tuple[float, int, int, _Party]] = []  # (at, seq, wait_id, party)
        self._seq = itertools.count()
        self._parties: list[_Party] = []
        self.running = self._join(threading.current_thread().name)
        self.all_done: list[_Party] = []  # waiters for every other thread to end

    # -- the Clock interface ---------------------------------------------------------------

    def now(self) -> float:
        return self.t

    def event(self) -> threading.Event:
        return _Event(self)

    def condition(self) -> threading.Condition:
        return _Condition(self)

    def queue(self) -> queue.Queue[Any]:
        return _Queue(self)

    def thread(
        self, target: Callable[..., None], args: tuple[Any, ...], name: str
    ) -> threading.Thread:
        return _Thread(self, target, args, name)

    # -- for tests and models --------------------------------------------------------------

    def sleep(self, seconds: float) -> None:
        self.wait(None, seconds)

    def finish(self) -> None:
        """Let every other thread run to its end (the executor's workers after a stage)."""
        while any(not p.done for p in self._parties if p is not self.running):
            self.wait(self.all_done, None)

    # -- scheduling ------------------------------------------------------------------------

    def _join(self, name: str) -> _Party:
        party = _Party(name)
        self._parties.append(party)
        return party

    def wait(self, waiters: list[_Party] | None, seconds: float | None) -> str:
        """The running thread waits to be woken through ``waiters`` or for ``seconds``; how it
        was woken ("notify" or "time")."""
        me = self.running
        me.wait_id += 1
        if waiters is not None:
            waiters.append(me)
            me.waiting_on = waiters
        if seconds is not None:
            at = self.t + max(0.0, seconds)
            heapq.heappush(self._timers, (at, next(self._seq), me.wait_id, me))
        self._pass_turn()
        self._await_turn(me)
        return me.woken_by

    def wake(self, waiters: list[_Party], n: int | None = None) -> None:
        """Make up to ``n`` (all) of ``waiters`` ready, in the order they began to wait."""
        while waiters and (n is None or n > 0):
            self._make_ready(waiters[0], "notify")
            n = None if n is None else n - 1

    def _make_ready(self, party: _Party, why: str) -> None:
        if party.waiting_on is not None:
            party.waiting_on.remove(party)
            party.waiting_on = None
        party.wait_id += 1  # its pending timer, if any, is stale now
        party.woken_by = why
        self._ready.append(party)

    def _pass_turn(self) -> None:
        """Give the turn to the next ready thread, jumping the time ahead when none is."""
        while not self._ready:
            if not self._timers:
                raise Stalled(
                    "deadlock: every thread waits and none for a time ("
                    + ", ".join(p.name for p in self._parties if not p.done)
                    + ")"
                )
            at, _, wait_id, party = heapq.heappop(self._timers)
            if wait_id == party.wait_id and not party.done:
                self.t = max(self.t, at)
                self._make_ready(party, "time")
        self.running = self._ready.popleft()
        self.running.turn.set()

    def _await_turn(self, me: _Party) -> None:
        if not me.turn.wait(STALL_S):
            raise Stalled(f"{me.name} waited {STALL_S} s for its turn: a thread blocked outside")
        me.turn.clear()

    def _end(self, me: _Party) -> None:
        me.done = True
        if all(p.done for p in self._parties if p is not self._parties[0]):
            self.wake(self.all_done)
        self._pass_turn()


class _Event(threading.Event):
    def __init__(self, clock: SimClock) -> None:
        super().__init__()
        self._clock, self._set = clock, False
        self._waiters: list[_Party] = []

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        self._set = True
        self._clock.wake(self._waiters)

    def clear(self) -> None:
        self._set = False

    def wait(self, timeout: float | None = None) -> bool:
        if not self._set and (timeout is None or timeout > 0):
            self._clock.wait(self._waiters, timeout)
        return self._set


class _Condition(threading.Condition):
    """Holding the turn is holding the lock: entering and leaving cost nothing."""

    def __init__(self, clock: SimClock) -> None:
        super().__init__()
        self._clock = clock
        self._waiters_sim: list[_Party] = []

    def __enter__(self) -> bool:
        return True

    def __exit__(self, *exc: object) -> None:
        return None

    def wait(self, timeout: float | None = None) -> bool:
        return self._clock.wait(self._waiters_sim, timeout) == "notify"

    def notify(self, n: int = 1) -> None:
        self._clock.wake(self._waiters_sim, n)

    def notify_all(self) -> None:
        self._clock.wake(self._waiters_sim)


class _Queue(queue.Queue[Any]):
    def __init__(self, clock: SimClock) -> None:
        super().__init__()
        self._clock = clock
        self._items: deque[Any] = deque()
        self._waiters: list[_Party] = []

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        self._items.append(item)
        self._clock.wake(self._waiters, 1)

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        if not self._items and block and (timeout is None or timeout > 0):
            self._clock.wait(self._waiters, timeout)
        if not self._items:
            raise queue.Empty
        return self._items.popleft()

    def get_nowait(self) -> Any:
        return self.get(block=False)

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)


class _Thread(threading.Thread):
    def __init__(
        self, clock: SimClock, target: Callable[..., None], args: tuple[Any, ...], name: str
    ) -> None:
        super().__init__(daemon=True, name=name)
        self._clock, self._work, self._work_args = clock, target, args
        self._party: _Party | None = None

    def start(self) -> None:
        self._party = self._clock._join(self.name)
        self._clock._ready.append(self._party)  # it runs when its turn comes
        super().start()

    def run(self) -> None:
        assert self._party is not None
        self._clock._await_turn(self._party)
        try:
            self._work(*self._work_args)
        finally:
            self._clock._end(self._party)
