"""Review statistics: combination-level precision with a Wilson interval, Cohen's kappa between
the two reviewers, and the failure taxonomy.

- precision = (# items whose final label is valid) / (# items with a final label); the final
  label is the reviewers' shared label, else the adjudicator's (sql/review/30_final_labels.sql).
- Wilson score interval (Wilson, 1927; Brown, Cai & DasGupta, 2001), z = 1.96 for 95%:
  centre = (p + z²/2n) / (1 + z²/n), half = z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²).
- Cohen's kappa (Cohen, 1960) over items both reviewers labelled, on valid/invalid:
  kappa = (p_o - p_e) / (1 - p_e), p_o = observed agreement,
  p_e = Σ_c p1(c) p2(c) (each reviewer's marginal rate of label c). When p_e = 1 (both reviewers
  gave one same label to everything) kappa is undefined and reported as None.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from toolex.review.labels import BUCKETS, LABELS
from toolex.store import Store

Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def cohen_kappa(pairs: Sequence[tuple[str, str]]) -> float | None:
    """Kappa of two raters' labels, one (rater1, rater2) pair per item."""
    return kappa_of_table(Counter(pairs))


def kappa_of_table(table: Mapping[tuple[str, str], int]) -> float | None:
    """Kappa from a contingency table: (rater1's label, rater2's label) -> number of items.

    The one kappa of toolex: review agreement and ``toolex judges eval`` (judge vs labels)."""
    n = sum(table.values())
    if n == 0:
        return None
    p_o = sum(count for (a, b), count in table.items() if a == b) / n
    c1: Counter[str] = Counter()
    c2: Counter[str] = Counter()
    for (a, b), count in table.items():
        c1[a] += count
        c2[b] += count
    p_e = sum(c1[c] * c2[c] for c in set(c1) | set(c2)) / (n * n)
    if p_e == 1:
        return None
    return (p_o - p_e) / (1 - p_e)


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
