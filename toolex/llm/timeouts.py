"""Timeouts that only say the server is slow: when calls time out while the answered ones took a
good part of the timeout themselves, the setting is too short for this server, not the server
stuck, and the user is told which setting to raise (issue 35.14).

On a loaded machine a local model answered in 85-140 s and 6 of 47 calls (13%) timed out at the
300 s ``compat_timeout_s``; each was retried from the start and the run said nothing about it.
:func:`slow_server_note` gives one line for such a stage, with the numbers; timeouts of a server
that answers in seconds (a hang now and then) give none: raising the timeout would not help.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

NEAR = 1 / 3  # the slowest answer took at least this share of the timeout: timeouts are near
MIN_TIMEOUTS = 2  # one timeout alone is no pattern


def setting_for(provider: str) -> str:
    """The ``[llm]`` setting that times a provider's calls (toolex.llm.config.LLMConfig)."""
    return "compat_timeout_s" if provider == "compat" else "timeout_s"


def slow_server_note(
    stage: str, answered_s: Sequence[float], timeouts: int, timeout_s: float, setting: str
) -> str | None:
    """One line when ``timeouts`` of a stage's calls timed out at ``timeout_s`` while its
    answered calls (``answered_s``: their latencies) came close to it; else None."""
    if timeouts < MIN_TIMEOUTS or not answered_s or timeout_s <= 0:
        return None
    slowest = max(answered_s)
    if slowest < NEAR * timeout_s:
        return None
    calls = len(answered_s) + timeouts
    raise_to = 60 * math.ceil(max(2 * timeout_s, 3 * slowest) / 60)
    return (
        f"{timeouts} of {calls} {stage} calls ({timeouts / calls:.0%}) timed out at {setting} "
        f"= {timeout_s:g} s, while the answered ones took {min(answered_s):.0f}-{slowest:.0f} s "
        f"(median {statistics.median(answered_s):.0f} s): the server is slow, not stuck, and "
        f"each timeout cost {timeout_s:g} s and a new try. Raise {setting} in the config's [llm] "
        f"(e.g. to {raise_to})"
    )
