"""A typed base for the stand-in judges of the pipeline tests.

``FakeJudge`` has every attribute of the ``Judge`` protocol (toolex/judges/base.py), the defaults
from ``JudgeParts``, so the type checker holds a stand-in to what the pipeline reads, as it holds
the real judges. A stand-in overrides the stages it answers; a stage it does not answer, or an
estimate, fails the test that asks for it, as the missing method did before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NoReturn

from toolex.judges.base import (
    AuditTask,
    DecomposeTask,
    Estimate,
    JudgeParts,
    Outcomes,
    Stage,
    VerifyTask,
)


class FakeJudge(JudgeParts):
    spec = "fake"

    def decompose(self, tasks: Sequence[DecomposeTask]) -> Outcomes:
        self._unasked("decompose tasks")

    def verify(self, tasks: Sequence[VerifyTask]) -> Outcomes:
        self._unasked("verify tasks")

    def audit(self, tasks: Sequence[AuditTask]) -> Outcomes:
        self._unasked("audit tasks")

    def estimate(self, stage: Stage, tasks: Iterable[object]) -> Estimate:
        self._unasked(f"an estimate of {stage}")

    def _unasked(self, what: str) -> NoReturn:
        raise AssertionError(f"{type(self).__name__} was asked for {what}: it answers none")
