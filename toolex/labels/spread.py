"""Spreading an evaluation stopped early over the labels' strata.

`judges eval --limit N` and `--max-calls N` stop before the whole label set. Labels are stored
benchmark by benchmark, so working through them in order spent a small budget on the first
benchmark alone, and the figures then said nothing of the other. :func:`spread` orders items
round-robin over their strata (benchmark, then part: ``stratum.part``, else
``stratum.category``), each stratum's items in an order shuffled by the seed: any prefix holds
every stratum in turn, and the same seed gives the same order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
Stratum = tuple[str, ...]


def spread(items: Sequence[T], stratum: Callable[[T], Stratum], seed: int) -> list[T]:
    """``items`` round-robin over their strata, each stratum's own items in an order shuffled by
    ``seed``: the first of every stratum, then the second, ... The strata take turns by their
    first part before their second (benchmark b's first part, c's first part, b's second, ...),
    so that two items already come from two benchmarks."""
    groups: dict[Stratum, list[T]] = {}
    for item in items:
        groups.setdefault(stratum(item), []).append(item)
    rng = random.Random(seed)
    turn: dict[Stratum, int] = {}
    for key in sorted(groups):
        turn[key] = sum(other[:1] == key[:1] for other in turn)
    columns = []
    for key in sorted(groups, key=lambda k: (turn[k], k)):
        members = groups[key]
        rng.shuffle(members)
        columns.append(members)
    deepest = max((len(c) for c in columns), default=0)
    return [c[i] for i in range(deepest) for c in columns if i < len(c)]


def label_stratum(benchmark: str, stratum: dict[str, object] | None) -> Stratum:
    """A label's stratum for spreading: its benchmark and part (as toolex.labels.tasks reads
    a label's part; '' when the label says none)."""
    given = stratum or {}
    return benchmark, str(given.get("part") or given.get("category") or "")
