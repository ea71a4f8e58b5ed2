"""The report's "How far to trust this" table: each stage judge's measured quality per
benchmark (toolex.reports.trust), and the combination precision of the latest finished review."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolex.judges.operating_points import LABELS_FITTED_ON
from toolex.reports.inputs import ReportContext, Table
from toolex.reports.trust import (
    EXPECTED_BASIS,
    HELD_OUT_BASIS,
    NOT_MEASURED,
    UNVALIDATED,
    ExpansionTrust,
    JudgeTrust,
    ReviewTrust,
    expansion_trust,
)


def report_trust(ctx: ReportContext) -> list[ExpansionTrust]:
    """The trust of the report's expansion for each reported benchmark that holds it."""
    found = (expansion_trust(ctx.store, b, ctx.expansion) for b in ctx.benchmarks)
    return [t for t in found if t is not None]


def trust_table(trusts: Sequence[ExpansionTrust]) -> Table:
    """The report's "How far to trust this": each stage judge's measured quality per
    benchmark, and the combination precision of the latest finished review."""
    rows: list[dict[str, Any]] = []
    for trust in trusts:
        benchmark = trust.benchmark
        for j in trust.judges:
            rows.append(
                {
                    "benchmark": benchmark,
                    "stage": j.stage,
                    "judge": j.named,
                    "measured_on": _measured_on(j),
                    "n": j.n,
                    "precision": j.precision,
                    "precision_lo": j.precision_lo,
                    "precision_hi": j.precision_hi,
                    "recall": j.recall,
                    "recall_lo": j.recall_lo,
                    "recall_hi": j.recall_hi,
                }
            )
        rows.append(_review_row(benchmark, trust.review))
    return Table(
        "trust",
        "How far to trust this",
        rows,
        note=(
            "new is only as true as the verdicts behind it. Per stage judge: its precision and "
            "recall with 95% Wilson intervals, measured by `toolex judges eval` on this "
            "benchmark's labels (or a whole label source), else on the stored verdict labels "
            "that cover this expansion's verdicts (those the labels happen to cover, not a "
            "random sample of them), else, for the offline verifier, held out on the shipped "
            f"labels drawn from the pipeline's own candidate lists ({', '.join(LABELS_FITTED_ON)}"
            f"; each labelled library judged by the cut chosen on the other libraries; "
            f"'{EXPECTED_BASIS}' when this benchmark has no labels of its own: what a library "
            f"nobody tuned on can expect, never a measurement here); '{UNVALIDATED}' "
            f"where nothing measures the verifier, '{NOT_MEASURED}' for another stage's judge. "
            "'combinations': the share of sampled valid combinations that "
            "reviewers judged valid (the latest finished review sample)."
        ),
    )


def _measured_on(j: JudgeTrust) -> str:
    if j.basis == "evaluation":
        return f"evaluation {j.source}" + ("" if j.scope == "*" else f" ({j.scope})")
    if j.basis == "labels":
        return f"labels {j.source}"
    if j.basis == HELD_OUT_BASIS:
        return f"held out {j.source} ({j.scope}), leave one library out"
    if j.basis == EXPECTED_BASIS:
        return (
            f"{EXPECTED_BASIS} on a library nobody tuned on: {j.source} labels of other "
            "libraries, leave one library out; not measured here"
        )
    return f"{j.basis}: {j.note}" if j.note else j.basis


def _review_row(benchmark: str, review: ReviewTrust | None) -> dict[str, object]:
    row: dict[str, Any] = {"benchmark": benchmark, "stage": "combinations"}
    row |= {"judge": "human review", "measured_on": "no review yet", "n": None}
    row |= dict.fromkeys(("precision", "precision_lo", "precision_hi"))
    row |= dict.fromkeys(("recall", "recall_lo", "recall_hi"))
    if review is not None and review.finished:
        row |= {"measured_on": f"review {review.sample_id}", "n": review.n_final}
        row |= {"precision": review.precision, "precision_lo": review.ci_low}
        row["precision_hi"] = review.ci_high
    elif review is not None:
        row["measured_on"] += f" (sample {review.sample_id}: {review.n_final} of {review.n_items})"
    return row
