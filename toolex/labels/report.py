"""A judge's measured quality as data: the labelled decisions it scored, its figures overall and
per stratum, its mistakes; the one writer of ``judge_evaluations``. (The plain-data forms
``--format json`` and ``--format csv`` print are made at the edge, in toolex.cli.judge_output.)

Mistakes are listed most confident first: false accepts by the judge's confidence descending,
false rejects ascending (a judge without a confidence: by key).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from toolex.judges.base import Stage
from toolex.labels.quality import INTERVALS, Confusion, Figures, figures
from toolex.labels.tasks import STRATA, stratum_order
from toolex.store import Store

DEFAULT_ERRORS = 10  # false accepts and false rejects listed per judge


@dataclass(frozen=True)
class Scored:
    """One labelled decision and what the judge made of it."""

    key: str
    label: bool
    judged: bool
    strata: dict[str, str]
    reason: str
    confidence: float | None
    note: str | None
    detail: dict[str, Any]  # what identifies it: query, reference, candidate / combination


@dataclass
class JudgeReport:
    judge: str
    stage: str
    screen: bool  # a pre-screen: read recall as equivalents kept, with the share discarded
    overall: Figures
    strata: list[tuple[str, str, Figures]]  # (dimension, value, figures)
    false_accepts: list[Scored]
    false_rejects: list[Scored]
    failed: list[tuple[str, str]] = field(default_factory=list)  # (key, error), not counted
    calls: dict[str, Any] = field(default_factory=dict)  # made, cached, cost_usd (LLM judges)


@dataclass
class Evaluation:
    source: str
    stage: str
    labels: int
    reports: list[JudgeReport]
    notes: list[str] = field(default_factory=list)
    intervals: str = INTERVALS


class PlanRow(NamedTuple):
    """A judge's part of a dry run (toolex.labels.evaluate.plan_row): its tasks, the calls it
    would make, the answers the ledger already holds, the estimated cost (None: no price)."""

    judge: str
    stage: Stage
    tasks: int
    calls: int
    cached: int
    cost_usd: float | None


def judge_report(
    spec: str,
    stage: str,
    scored: Sequence[Scored],
    failed: Sequence[tuple[str, str]] = (),
    *,
    screen: bool = False,
    dimensions: Sequence[str] = STRATA,
) -> JudgeReport:
    """Figures of one judge overall and per stratum, and its mistakes (most confident first)."""
    overall = figures(Confusion.of((s.judged, s.label) for s in scored))
    strata = []
    for dim in dimensions:
        for value in sorted({s.strata.get(dim, "?") for s in scored}, key=stratum_order):
            group = [s for s in scored if s.strata.get(dim, "?") == value]
            strata.append((dim, value, figures(Confusion.of((s.judged, s.label) for s in group))))
    accepts = [s for s in scored if s.judged and not s.label]
    rejects = [s for s in scored if not s.judged and s.label]
    accepts.sort(key=lambda s: (-(s.confidence if s.confidence is not None else -1), s.key))
    rejects.sort(key=lambda s: (s.confidence if s.confidence is not None else 2, s.key))
    return JudgeReport(spec, stage, screen, overall, strata, accepts, rejects, list(failed))


def save_evaluation(store: Store, evaluation: Evaluation) -> None:
    """One judge_evaluations row per judge and benchmark, and one for all ('*'); replaces."""
    with store.transaction():
        for report in evaluation.reports:
            scopes = [("*", report.overall)] + [
                (value, figs) for dim, value, figs in report.strata if dim == "benchmark"
            ]
            for bench, figs in scopes:
                row = figs.row()
                store.execute(
                    "labels/60_save_evaluation.sql",
                    {
                        "judge": report.judge,
                        "stage": report.stage,
                        "source": evaluation.source,
                        "benchmark": bench,
                        **{k: row[k] for k in ("n", "tp", "fp", "fn", "tn", "kappa")},
                        **{
                            f"{name}{end}": row[f"{name}{end}"]
                            for name in ("precision", "recall")
                            for end in ("", "_lo", "_hi")
                        },
                    },
                )
