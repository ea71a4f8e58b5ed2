"""The reports package's reads of its own SQL (sql/reports/), each returning typed rows: a
renamed column fails here, beside the SQL that changed, not in the code that reads the row."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from toolex.store import Store


class Evaluation(NamedTuple):
    """What `toolex judges eval` stored for one judge and stage on a label source
    (``judge_evaluations``; benchmark '*': every benchmark of the source)."""

    judge: str
    stage: str
    source: str
    benchmark: str
    n: int | None
    tp: int | None
    fp: int | None
    fn: int | None
    tn: int | None
    precision: float | None
    precision_lo: float | None
    precision_hi: float | None
    recall: float | None
    recall_lo: float | None
    recall_hi: float | None
    kappa: float | None
    evaluated_at: datetime | None


class LabelOverlap(NamedTuple):
    """One verify judge of an expansion scored on the verdict labels covering its verdicts."""

    judge: str
    n: int
    tp: int
    fp: int
    fn: int
    tn: int
    sources: str | None  # the label sources used, comma-separated


def trust_evaluations(store: Store, benchmark: str, judges: Sequence[str]) -> list[Evaluation]:
    """Every evaluation of ``judges`` on ``benchmark``'s labels or a whole label source, best
    first (the benchmark's own before '*', then the newest)."""
    params = {"benchmark": benchmark, "judges": list(judges)}
    return store.typed("reports/82_trust_evaluations.sql", Evaluation, params)


def trust_label_overlap(
    store: Store, benchmark: str, expansion: str, fitted_on: Sequence[str]
) -> list[LabelOverlap]:
    """Per verify judge of the expansion, its confusion counts on the labels its verdicts meet
    (labels of ``fitted_on`` skipped for the offline verifier's scored verdicts)."""
    params = {"benchmark": benchmark, "expansion": expansion, "fitted_on": list(fitted_on)}
    return store.typed("reports/83_trust_label_overlap.sql", LabelOverlap, params)
