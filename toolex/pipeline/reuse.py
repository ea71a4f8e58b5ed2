"""Verdict reuse across queries: when a verdict on a (reference, candidate) pair may stand for
another sub-query's verdict on the same pair, so the verifier is not asked twice.

A verdict depends on the step it was made for ("can the candidate do what this sub-query asks,
as the reference does?"), so it is carried over only where two sub-queries ask for the same
operation on the same kind of entity (``same-step``):

- the operation is the class of the sub-query's first verb (``lexicon.OPERATIONS``: fetch, get
  and list are all *retrieve*; a verb outside the classes is its own class), and both must have
  one and the same;
- the entity is the set of stemmed content words besides that verb, and the two sets must
  overlap by at least ``MIN_ENTITY_OVERLAP`` (Jaccard).

Measured with ``benchmarks/bench_cost.py``: every verdict the rule carried over on the shared
StableToolBench and ToolRet data, against the verdict the same task got fresh (the offline
judge's P(yes) at 0.5 standing in for the verifier), disagreed on 0.6% (6 of 1,018) and 0.07%
(4 of 6,061) of the tasks reuse answered (docs/figures/bench_cost.json, 2026-12-07, the pre-screen
off; none under the strict cut); the shipped labels
hold no two labels of one pair under different sub-queries, so they cannot measure it directly.
A reused verdict is stored as such: judge ``'reused'``, the call that made the original, and a
reason naming the verdict it was taken from; only verdicts a judge made fresh are ever reused
(never a reused, screened or reference one).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from toolex.judges import lexicon
from toolex.tooldoc import fields as df

REUSE_MODES = ("off", "same-step")
# The default for verifiers that make calls: on, because the measured disagreement (0.6% of the
# reused verdicts on StableToolBench, 0.07% on ToolRet; benchmarks/bench_cost.py, whose record is
# docs/figures/bench_cost.json) is within the 2% the rule was allowed.
DEFAULT_REUSE = "same-step"
# Jaccard overlap of the entity words two sub-queries need for a verdict to carry over.
MIN_ENTITY_OVERLAP = 0.5
REUSED = "reused"  # verdicts.judge of a verdict carried over from another sub-query


@dataclass(frozen=True)
class Step:
    """What a sub-query asks for: an operation class and the entity words it acts on."""

    operation: str | None
    entity: frozenset[str]


@lru_cache(maxsize=65536)
def step_of(subquery: str) -> Step:
    """The operation class of the sub-query's first verb, and its other content words' stems."""
    operation, verb_stem = None, None
    for word in df.split_words(subquery):
        verb = lexicon.base_verb(word)
        if verb is not None:
            verb_stem = df.stem(verb)
            operation = lexicon.OP_BY_STEM.get(verb_stem, verb)
            break
    entity = frozenset(t for t in df.content_tokens(subquery) if t != verb_stem)
    return Step(operation, entity)


def overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Jaccard overlap of two word sets (0 when both are empty: nothing says they agree)."""
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def same_step(a: str, b: str, min_overlap: float = MIN_ENTITY_OVERLAP) -> bool:
    """Whether a verdict made for sub-query ``a`` may stand for one on sub-query ``b``."""
    if a == b:
        return True
    sa, sb = step_of(a), step_of(b)
    return (
        sa.operation is not None
        and sa.operation == sb.operation
        and overlap(sa.entity, sb.entity) >= min_overlap
    )


def first_match(subquery: str, sources: Iterable[str]) -> str | None:
    """The first of ``sources`` (sub-queries with a verdict) that ``subquery`` may reuse."""
    return next((s for s in sources if same_step(s, subquery)), None)


def groups(subqueries: Sequence[str]) -> list[int]:
    """For each sub-query, the index of the first earlier one it may reuse (itself if none):
    the first of each group is judged, the others take its verdict."""
    leaders: list[int] = []
    out = []
    for i, text in enumerate(subqueries):
        lead = next((j for j in leaders if same_step(subqueries[j], text)), None)
        if lead is None:
            leaders.append(i)
            lead = i
        out.append(lead)
    return out
