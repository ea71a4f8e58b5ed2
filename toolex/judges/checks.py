"""The offline verifier's six points: a candidate stands in for the reference on a step only
when the documents give positive evidence for each, and a failed point is the verdict's reason.

1. **operation**: the same act on the same object, the same way round (toolex.judges.operations);
2. **outputs**: what the step asks to get is documented in the candidate's output or description
   (toolex.judges.outputs);
3. **inputs**: every required input of the candidate can be filled from the request, the step,
   or what the reference also needs (toolex.judges.inputs);
4. **scope**: the same entity at the same granularity (toolex.judges.scope);
5. **constraints**: a value the request gives the reference has a parameter of the candidate to
   go into (toolex.judges.constraints);
6. **platform**: an operation over one platform's own catalogue or records stays on that
   platform; a provider-neutral fact travels (toolex.judges.platform).

Each point is a list of small rules, each a function ``(step, candidate, reference) -> reason or
None`` read off the documents by general API conventions (operation classes, read/write verbs,
parameters, response fields), never a library's names. A point fails with the first rule's
reason; ``findings`` gives the failed points in this order. Documents are untrusted: they only
ever become words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from toolex.judges import (
    constraints,
    coverage,
    inputs,
    operations,
    outputs,
    platform,
    scope,
    specifics,
)
from toolex.judges.base import ToolDoc
from toolex.judges.step import Step, step_of

POINTS = ("operation", "outputs", "inputs", "scope", "constraints", "platform")

Rule = Callable[[Step, ToolDoc, ToolDoc], str | None]


@dataclass(frozen=True)
class Finding:
    """One point the candidate fails, and why (said in the verdict as ``point: why``)."""

    point: str
    why: str

    def __str__(self) -> str:
        return f"{self.point}: {self.why}"


RULES: dict[str, tuple[Rule, ...]] = {
    "operation": operations.RULES + specifics.OPERATION_RULES,
    "outputs": outputs.RULES + specifics.OUTPUT_RULES,
    "inputs": inputs.RULES,
    "scope": scope.RULES + coverage.RULES + specifics.SCOPE_RULES,
    "constraints": constraints.RULES,
    "platform": platform.RULES + specifics.PLATFORM_RULES,
}

_IN_ORDER = tuple((point, rule) for point in POINTS for rule in RULES[point])


def findings(
    subquery: str,
    cand: ToolDoc,
    ref: ToolDoc,
    request: str | None = None,
    *,
    every: bool = False,
) -> tuple[Finding, ...]:
    """The points the candidate fails on this step, in the order above: the first only (what a
    verdict needs), or with ``every`` each failed point's first reason."""
    step = step_of(subquery, request or "")
    if not every:  # the first failed rule, in the order of RULES (one flat loop: every pair)
        for point, rule in _IN_ORDER:
            why = rule(step, cand, ref)
            if why:
                return (Finding(point, why),)
        return ()
    out = []
    for point in POINTS:
        for rule in RULES[point]:
            why = rule(step, cand, ref)
            if why:
                out.append(Finding(point, why))
                break
        if out and not every:
            break
    return tuple(out)
