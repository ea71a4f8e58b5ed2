"""A run's spending limit: at most N calls, at most $X (`toolex expand --max-calls/--max-cost`).

The executor asks the budget before every attempt (:meth:`Budget.admit`) and settles it after
(:meth:`Budget.settle`). An attempt is admitted only if, counting every attempt still in flight
at its reserved cost, the limits hold afterwards: the calls admitted never exceed ``max_calls``,
and ``spent + reserved + this call's reservation <= max_cost``. A call's reservation is its
estimated prompt (characters / 4) plus the whole answer budget (``max_tokens``) at the model's
price, an upper bound unless the prompt estimate is low; so a capped run exceeds ``max_cost``
by no more than what the calls in flight cost beyond their reservations.

Once an attempt is refused the budget is spent for the run: nothing more is admitted, the
tasks not answered stay pending (never recorded as failures), and a later run with a larger
budget resumes them. One budget is shared by every judge and stage of a run; it is
thread-safe (worker threads admit, the caller's thread reads).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from toolex.llm.pricing import cost_usd, estimate_tokens

STOPPED = "stopped: the run's budget is spent"  # Result.error of a call the budget refused


@dataclass(frozen=True)
class Reservation:
    cost: float


class Budget:
    def __init__(self, max_cost_usd: float | None = None, max_calls: int | None = None) -> None:
        if max_cost_usd is not None and max_cost_usd < 0:
            raise ValueError("a cost budget must be >= 0")
        if max_calls is not None and max_calls < 0:
            raise ValueError("a call budget must be >= 0")
        self.max_cost_usd, self.max_calls = max_cost_usd, max_calls
        self.calls = 0  # attempts admitted
        self.spent = 0.0  # cost of the attempts settled (where priced)
        self.reserved = 0.0  # reservations of the attempts in flight
        self.in_flight = 0
        self.most_in_flight = 0
        self.exhausted = False  # an attempt was refused: nothing more is admitted
        self._lock = threading.Lock()

    def admit(
        self, model: str | None, system: str, user: str, max_tokens: int
    ) -> Reservation | None:
        """A reservation for one attempt, or None when it would break a limit."""
        cost = 0.0
        if self.max_cost_usd is not None:
            prompt = estimate_tokens(system) + estimate_tokens(user)
            priced = cost_usd(model, prompt, max_tokens)
            if priced is None:  # checked before the run (require_prices); never guess
                raise ValueError(f"no price for model {model!r}: cannot keep a cost budget")
            cost = priced
        with self._lock:
            over_calls = self.max_calls is not None and self.calls + 1 > self.max_calls
            over_cost = (
                self.max_cost_usd is not None
                and self.spent + self.reserved + cost > self.max_cost_usd
            )
            if self.exhausted or over_calls or over_cost:
                self.exhausted = True
                return None
            self.calls += 1
            self.reserved += cost
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
            return Reservation(cost)

    def settle(self, reservation: Reservation, cost: float | None) -> None:
        """The attempt is over: release its reservation, count what it cost (None: nothing
        priced, e.g. a failed request that returned no tokens)."""
        with self._lock:
            self.reserved -= reservation.cost
            self.in_flight -= 1
            self.spent += cost or 0.0

    def describe(self) -> str:
        limits = []
        if self.max_calls is not None:
            limits.append(f"{self.max_calls} call{'' if self.max_calls == 1 else 's'}")
        if self.max_cost_usd is not None:
            limits.append(f"${self.max_cost_usd:g}")
        return " / ".join(limits)
