"""The retry policy: how long a failed attempt waits before the next."""

from __future__ import annotations

import random

from toolex.llm.retry import Policy


def test_backoff_doubles_with_jitter_and_honours_retry_after() -> None:
    policy = Policy(backoff_base_s=1.0, backoff_max_s=60.0)
    rng = random.Random(7)
    for attempt, (lo, hi) in {1: (0.5, 1), 2: (1, 2), 3: (2, 4), 10: (30, 60)}.items():
        assert all(lo <= policy.delay(attempt, None, rng) <= hi for _ in range(50))
    assert policy.delay(1, 5.0, rng) == 5.0  # the server's wait wins when longer
    assert policy.delay(1, 1000.0, rng) == 60.0  # but never beyond the cap
