"""When an attempt is tried again, and when a stage stops trying.

``Policy``: how many attempts a call gets, how long to wait after a failed one (exponential
backoff with jitter, or the server's Retry-After when that is longer) and the per-attempt
timeout. ``Health``: the breaker that stops a stage which cannot succeed (a refused API key, an
endpoint nobody answers, a server that takes connections and never answers) instead of failing
every task slowly. The executor (toolex.llm.executor) consults both.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from toolex.errors import ModelUnavailableError
from toolex.llm.clients import KEY_ENV, ChatClient
from toolex.llm.ledger import Attempt

# Timeouts in a row, with no answer between them, after which a stage stops: each costs a whole
# timeout (300 s on a local server), and a server that answered none of three calls in a row,
# one at a time after the first cut, is stuck or far too slow for the timeout.
TIMEOUTS_IN_A_ROW = 3


@dataclass
class Policy:
    """A judge's call settings as the executor applies them (from toolex.llm.config)."""

    max_in_flight: int = 16
    max_attempts: int = 5
    backoff_base_s: float = 1.0
    backoff_max_s: float = 60.0
    timeout_s: float | None = None  # per attempt (None: the client's)

    def delay(self, attempt: int, retry_after: float | None, rng: random.Random) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based):
        ``min(backoff_max, base * 2**(attempt-1)) * U(0.5, 1)``, or the server's Retry-After
        (capped at ``backoff_max``) when that is longer."""
        wait: float = min(self.backoff_max_s, self.backoff_base_s * 2 ** (attempt - 1))
        wait *= rng.uniform(0.5, 1.0)
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.backoff_max_s))
        return wait


class Health:
    """Stops a stage that cannot succeed instead of failing every task slowly: a refused API
    key (401/403), an endpoint that never answered while the first attempts of every worker
    (and then some) all failed to connect, or ``TIMEOUTS_IN_A_ROW`` timeouts with no answer
    between them. Timeouts of calls that were in flight together count once: a burst of them is
    one sign of one stuck episode, as the limiter counts it (toolex.llm.limiter). Times are the
    executor's clock's (toolex.llm.clock): when an attempt was sent, and its latency."""

    def __init__(self, client: ChatClient, n_threads: int) -> None:
        self.client, self.limit = client, n_threads + 2
        self.answered, self.unreachable = False, 0
        self.refused: str | None = None
        self.timeouts = 0  # episodes of timeouts since the last answer
        self._episode_end: float | None = None  # when the last counted timeout ended

    def see(self, row: Attempt, sent: float) -> None:
        """Take in an attempt's row; ``sent``: the clock's time the attempt went out."""
        error = row.error or ""
        if row.status in ("ok", "malformed") or error.startswith("HTTP"):
            self.answered = True
            self.timeouts, self._episode_end = 0, None
        if error.startswith(("HTTP 401", "HTTP 403")):
            self.refused = error
        elif error.startswith("connection error"):
            self.unreachable += 1
        elif error.startswith("timeout") and self._new_episode(sent):
            self.timeouts += 1
            self._episode_end = sent + (row.latency_ms or 0) / 1000

    def _new_episode(self, sent: float) -> bool:
        """A timeout of a call sent after the last counted one ended (not in flight with it)."""
        return self._episode_end is None or sent >= self._episode_end

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
        if self.timeouts >= TIMEOUTS_IN_A_ROW:
            raise ModelUnavailableError(
                f"{where} takes connections but does not answer: {self.timeouts} calls in a row "
                "timed out with no answer between them; is the server stuck, or the timeout "
                "(compat_timeout_s, timeout_s) too short for this model?"
            )
