"""A query's combinations best-first by RRF, without building their Cartesian product.

A combination takes one accepted item per slot; its score is RRF (Cormack et al., SIGIR 2009)::

    rrf = sum over slots of 1 / (rrf_k + rank),   rank = the member's retrieval rank

summed left to right in slot order from 0.0, as DuckDB's ``sum()`` over ``unnest(ranks)`` did when
the product was built in SQL: the terms come from ``sql/stages/4_assemble/02_rrf_rank.sql`` and
the float sums are bit-identical to the ones stored before (float addition is not associative, so
the order is part of the definition). Order: rrf DESC, then the item list DESC (trec_eval's tie
rule applied to the list); ranks count from 1.

:func:`best_first` is a k-best merge over the slots' sorted lists. A combination is an index
vector, 0 the best item of each slot. Raising one index never raises the score (terms fall with
rank, and IEEE addition is monotone in each operand, so the rounded sum keeps that order), so a
max-heap that pushes each vector once, from its one parent (its last nonzero index lowered by
one), pops vectors in non-increasing score. A successor can tie its parent and still sort above it
by items, so each group of equal scores is drained from the heap whole, then sorted. Memory: at
most k heap entries per combination yielded, never the product.

:func:`count_before` gives the rank of one combination (the original, when the enumeration
stopped above it) by counting without enumerating.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Iterator, Sequence

import numpy as np

# (term, item_id) pairs of one slot, best term (lowest rank) first
Slot = Sequence[tuple[float, str]]
# Partial sums count_before carries from one slot to the next at most (~100 MB of arrays, about
# a second); every product of up to 5 slots of 21 items stays far below it.
MAX_BAND = 4_000_000


def score(terms: Iterable[float]) -> float:
    """RRF of one combination: its terms added left to right, as the SQL's sum() adds them."""
    total = 0.0
    for term in terms:
        total += term
    return total


def product_size(slots: Sequence[Slot]) -> int:
    """How many combinations the slots make (every item of every slot, repeats across slots
    included: one tool may serve two steps)."""
    return math.prod(len(s) for s in slots) if slots else 0


def best_first(slots: Sequence[Slot]) -> Iterator[tuple[float, tuple[str, ...]]]:
    """Yield (rrf, items) for every combination of ``slots``, best first (rrf DESC, items DESC).

    Lazy: the caller takes what it needs and the rest is never computed."""
    k = len(slots)
    if not k or not all(slots):
        return
    terms = [[t for t, _ in s] for s in slots]
    names = [[item for _, item in s] for s in slots]
    sizes = [len(s) for s in slots]
    heap: list[tuple[float, tuple[int, ...]]] = []

    def push(vector: tuple[int, ...]) -> None:
        rrf = 0.0  # left to right, as score(): never sum(), which compensates from Python 3.12
        for j, i in enumerate(vector):
            rrf += terms[j][i]
        heapq.heappush(heap, (-rrf, vector))

    push((0,) * k)
    while heap:
        top = heap[0][0]
        group = []
        while heap and heap[0][0] == top:
            _, vector = heapq.heappop(heap)
            group.append(tuple([names[j][i] for j, i in enumerate(vector)]))
            last = k - 1  # successors raise the last nonzero index or one after it
            while last and not vector[last]:
                last -= 1
            for j in range(last, k):
                if vector[j] + 1 < sizes[j]:
                    push((*vector[:j], vector[j] + 1, *vector[j + 1 :]))
        group.sort(reverse=True)
        for items in group:
            yield -top, items


def count_before(
    slots: Sequence[Slot], target: Sequence[str], limit: int | None = None
) -> int | None:
    """How many combinations of ``slots`` rank before ``target`` (one of them): a higher rrf, or
    the same rrf and a greater item list; None once the count passes ``limit``, or when the
    undecided band outgrows ``MAX_BAND`` partial sums (products of 10^10 and more with the
    target in their middle: the rank is then left unknown rather than the machine tied up).

    A dynamic programme over the slots on the exact partial sums (the left-to-right float sum
    depends on its prefix only through the prefix's value), each sum with how many prefixes
    reach it and how many of those already compare greater than the target's prefix by items.
    A partial sum whose worst completion still beats the target's rrf counts all its completions
    at once; one whose best completion falls short is dropped; only the undecided band near the
    target's score is carried to the next slot."""
    k = len(slots)
    index = [[item for _, item in s].index(t) for s, t in zip(slots, target, strict=True)]
    goal = score(slots[j][index[j]][0] for j in range(k))
    terms = [np.array([t for t, _ in s], dtype=np.float64) for s in slots]
    sizes = [len(s) for s in slots]
    # counts beyond int64 (a product over 2**62) fall back to Python integers
    dtype = np.int64 if product_size(slots) < 2**62 else object
    sums = np.zeros(0, dtype=np.float64)  # prefixes that left the target's items already
    n_all = np.zeros(0, dtype=dtype)
    n_greater = np.zeros(0, dtype=dtype)  # ... by a greater item at their first difference
    on_target = 0.0  # the prefix that follows the target's own items
    before = 0
    for j in range(k):
        if len(sums) * sizes[j] > MAX_BAND or (limit is not None and before > limit):
            return None
        sums = (sums[:, None] + terms[j][None, :]).ravel()
        n_all = np.repeat(n_all, sizes[j])
        n_greater = np.repeat(n_greater, sizes[j])
        leave = [i for i in range(sizes[j]) if i != index[j]]
        sums = np.concatenate([sums, on_target + terms[j][leave]])
        n_all = np.concatenate([n_all, np.ones(len(leave), dtype=dtype)])
        greater = [int(slots[j][i][1] > target[j]) for i in leave]
        n_greater = np.concatenate([n_greater, np.array(greater, dtype=dtype)])
        on_target += terms[j][index[j]]
        sums, n_all, n_greater = _merge(sums, n_all, n_greater)
        rest = range(j + 1, k)
        if not len(rest):
            break
        best, worst = sums.copy(), sums.copy()
        for r in rest:
            best += terms[r][0]
            worst += terms[r][-1]
        decided = worst > goal
        before += int(n_all[decided].sum()) * math.prod(sizes[r] for r in rest)
        keep = ~decided & (best >= goal)
        sums, n_all, n_greater = sums[keep], n_all[keep], n_greater[keep]
    before += int(n_all[sums > goal].sum()) + int(n_greater[sums == goal].sum())
    return None if limit is not None and before > limit else before


def _merge(
    sums: np.ndarray, n_all: np.ndarray, n_greater: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One entry per distinct partial sum, counts added (exactly: no float weights)."""
    if not len(sums):
        return sums, n_all, n_greater
    order = np.argsort(sums, kind="stable")
    sums, n_all, n_greater = sums[order], n_all[order], n_greater[order]
    starts = np.flatnonzero(np.concatenate([[True], sums[1:] != sums[:-1]]))
    return sums[starts], np.add.reduceat(n_all, starts), np.add.reduceat(n_greater, starts)
