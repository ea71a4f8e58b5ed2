"""Review statistics: combination-level precision with a Wilson interval, Cohen's kappa between
the two reviewers, and the failure taxonomy.

- precision = (# items whose final label is valid) / (# items with a final label); the final
  label is the reviewers' shared label, else the adjudicator's (sql/review/30_final_labels.sql).
- its 95% Wilson score interval, and Cohen's kappa over the items both reviewers labelled, on
  valid/invalid (toolex.statistics: formulas and citations).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from toolex.review.labels import BUCKETS, LABELS
from toolex.statistics import cohen_kappa, wilson_interval
from toolex.store import Store


@dataclass
class ReviewStats:
    sample_id: str
    n_items: int
    n_double: int  # labelled by both reviewers
    n_disagree: int
    n_adjudicated: int
    n_final: int
    n_valid: int
    precision: float | None
    ci_low: float | None
    ci_high: float | None
    kappa: float | None
    agreement: float | None
    buckets: dict[str, int] = field(default_factory=dict)

    def rows(self) -> list[dict[str, object]]:
        """As (statistic, value) rows for `toolex review stats`."""
        out: list[dict[str, object]] = [
            {"statistic": k, "value": getattr(self, k)}
            for k in (
                "n_items",
                "n_double",
                "n_disagree",
                "n_adjudicated",
                "n_final",
                "n_valid",
                "precision",
                "ci_low",
                "ci_high",
                "kappa",
                "agreement",
            )
        ]
        out += [{"statistic": f"bucket:{b}", "value": n} for b, n in self.buckets.items()]
        return out


def review_stats(store: Store, sample_id: str) -> ReviewStats:
    rows = store.rows("review/30_final_labels.sql", {"sample_id": sample_id})
    double = [(r["r1_label"], r["r2_label"]) for r in rows if r["r1_label"] and r["r2_label"]]
    disagree = [r for r in rows if r["r1_label"] and r["r2_label"] and not r["agree"]]
    final = [r for r in rows if r["final_label"] in LABELS]
    n_valid = sum(r["final_label"] == "valid" for r in final)
    buckets = {b: 0 for b in BUCKETS}
    for r in final:
        if r["final_label"] == "invalid" and r["final_bucket"] in buckets:
            buckets[r["final_bucket"]] += 1
    lo, hi = wilson_interval(n_valid, len(final)) if final else (None, None)
    return ReviewStats(
        sample_id=sample_id,
        n_items=len(rows),
        n_double=len(double),
        n_disagree=len(disagree),
        n_adjudicated=sum(r["adj_label"] is not None for r in disagree),
        n_final=len(final),
        n_valid=n_valid,
        precision=n_valid / len(final) if final else None,
        ci_low=lo,
        ci_high=hi,
        kappa=cohen_kappa(double),
        agreement=sum(a == b for a, b in double) / len(double) if double else None,
        buckets=buckets,
    )
