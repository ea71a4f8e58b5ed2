"""Review statistics at either level: how well the two reviewers agree, and what the final
labels measure (final labels: the reviewers' shared label, else the adjudicator's;
sql/review/30_final_labels.sql).

Both levels (:class:`Agreement`): the items, those both reviewers labelled, their disagreements
and how many of those the adjudicator settled, the items with a final label; Cohen's kappa of
reviewer1 against reviewer2 over the items both labelled, on the level's two labels, and their
raw agreement; the failure buckets of the final negative labels. Intervals are 95% Wilson
intervals (toolex.statistics: formulas and citations).

Combination level (:class:`ReviewStats`): precision = (# items whose final label is valid) /
(# items with a final label), the precision of the accepted combinations.

Verdict level (:class:`VerdictReviewStats`): the judge's precision and recall. Per part h
(accepted, rejected, unjudged; toolex.review.sample), p_h = yes / labelled with its Wilson
interval. Each part's sample is self-weighting (proportional allocation over its strata), so
with N_h the part's population at draw time (review_verdict_strata):

- precision = p_accepted: the share of the judge's accepted verdicts that are equivalents;
- judge recall = N_a p_a / (N_a p_a + N_r p_r): the share of the equivalents among the judged
  candidates that the judge accepted;
- recall = N_a p_a / (N_a p_a + N_r p_r + N_u p_u): the same over every retrieved candidate,
  the unjudged ones included (equivalents the pipeline never judged), within the retriever's
  top depth + beyond of each sub-query.

A recall's interval combines the parts' Wilson intervals at the Bonferroni level 1 - 0.05/m
(m = parts with a population): recall rises with p_a and falls with the others, so the lower
bound takes p_a at its low end and the others at their high ends (and the reverse), and all m
intervals hold together with probability at least 0.95. A part with a population but no final
label yet leaves the point estimate undefined (None) and enters the bounds as [0, 1].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from statistics import NormalDist
from typing import Any

from toolex.review.finals import ReviewedItem, reviewed_items
from toolex.review.levels import COMBINATION, VERDICT, Level
from toolex.review.queries import verdict_strata
from toolex.statistics import cohen_kappa, wilson_interval
from toolex.store import Store

COUNTS = ("n_items", "n_double", "n_disagree", "n_adjudicated", "n_final")


@dataclass(frozen=True, kw_only=True)
class Agreement:
    sample_id: str
    n_items: int
    n_double: int  # labelled by both reviewers
    n_disagree: int
    n_adjudicated: int
    n_final: int
    kappa: float | None
    agreement: float | None
    buckets: dict[str, int] = field(default_factory=dict)  # of the final negative labels

    def agreement_fields(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(Agreement)}


def agreement(level: Level, sample_id: str, reviewed: Sequence[ReviewedItem]) -> Agreement:
    """What both levels count of a sample's labels (see the module docstring)."""
    labels = [r.labels for r in reviewed]
    double = [(x.r1_label, x.r2_label) for x in labels if x.r1_label and x.r2_label]
    disagree = [x for x in labels if x.disagree]
    final = [x for x in labels if x.final_label in level.labels]
    buckets = dict.fromkeys(level.buckets, 0)
    for x in final:
        if x.final_label == level.negative and x.final_bucket in buckets:
            buckets[x.final_bucket] += 1
    return Agreement(
        sample_id=sample_id,
        n_items=len(labels),
        n_double=len(double),
        n_disagree=len(disagree),
        n_adjudicated=sum(x.adj_label is not None for x in disagree),
        n_final=len(final),
        kappa=cohen_kappa(double),
        agreement=sum(a == b for a, b in double) / len(double) if double else None,
        buckets=buckets,
    )


# -- combination level ---------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ReviewStats(Agreement):
    n_valid: int
    precision: float | None
    ci_low: float | None
    ci_high: float | None

    def rows(self) -> list[dict[str, object]]:
        """As (statistic, value) rows for `toolex review stats`."""
        names = (*COUNTS, "n_valid", "precision", "ci_low", "ci_high", "kappa", "agreement")
        out: list[dict[str, object]] = [{"statistic": k, "value": getattr(self, k)} for k in names]
        out += [{"statistic": f"bucket:{b}", "value": n} for b, n in self.buckets.items()]
        return out


def review_stats(store: Store, sample_id: str) -> ReviewStats:
    reviewed = reviewed_items(store, COMBINATION, sample_id)
    common = agreement(COMBINATION, sample_id, reviewed)
    n_valid = sum(r.labels.final_label == COMBINATION.positive for r in reviewed)
    n = common.n_final
    lo, hi = wilson_interval(n_valid, n) if n else (None, None)
    return ReviewStats(
        **common.agreement_fields(),
        n_valid=n_valid,
        precision=n_valid / n if n else None,
        ci_low=lo,
        ci_high=hi,
    )


# -- verdict level -------------------------------------------------------------------------


@dataclass(frozen=True)
class PartRate:
    part: str
    population: int
    labelled: int
    yes: int
    ci: tuple[float, float]  # 95% Wilson

    @property
    def rate(self) -> float | None:
        return self.yes / self.labelled if self.labelled else None


@dataclass(frozen=True)
class Estimate:
    value: float | None
    low: float | None
    high: float | None


@dataclass(frozen=True, kw_only=True)
class VerdictReviewStats(Agreement):
    parts: dict[str, PartRate]
    precision: Estimate
    judge_recall: Estimate
    recall: Estimate

    def rows(self) -> list[dict[str, object]]:
        """As (statistic, value) rows for `toolex review stats`."""
        out: list[dict[str, object]] = [{"statistic": k, "value": getattr(self, k)} for k in COUNTS]
        for name, est in (
            ("precision", self.precision),
            ("judge_recall", self.judge_recall),
            ("recall", self.recall),
        ):
            out += [
                {"statistic": name, "value": est.value},
                {"statistic": f"{name}_low", "value": est.low},
                {"statistic": f"{name}_high", "value": est.high},
            ]
        out += [
            {"statistic": "kappa", "value": self.kappa},
            {"statistic": "agreement", "value": self.agreement},
        ]
        for p in self.parts.values():
            out += [
                {"statistic": f"{p.part}:population", "value": p.population},
                {"statistic": f"{p.part}:labelled", "value": p.labelled},
                {"statistic": f"{p.part}:yes", "value": p.yes},
                {"statistic": f"{p.part}:yes_rate", "value": p.rate},
                {"statistic": f"{p.part}:ci_low", "value": p.ci[0] if p.labelled else None},
                {"statistic": f"{p.part}:ci_high", "value": p.ci[1] if p.labelled else None},
            ]
        out += [{"statistic": f"bucket:{b}", "value": n} for b, n in self.buckets.items()]
        return out


def recall_estimate(parts: dict[str, tuple[int, int, int]], missed: tuple[str, ...]) -> Estimate:
    """Recall of the accepted part against the ``missed`` parts; ``parts`` maps a part to
    (population, labelled, yes). See the module docstring for the interval."""
    used = [h for h in ("accepted", *missed) if parts[h][0] > 0]
    if not used:
        return Estimate(None, None, None)
    z = NormalDist().inv_cdf(1 - 0.05 / (2 * len(used)))
    ci = {h: wilson_interval(parts[h][2], parts[h][1], z) for h in used}

    def recall(p: dict[str, float]) -> float | None:
        tp = parts["accepted"][0] * p.get("accepted", 0.0)
        fn = sum(parts[h][0] * p[h] for h in used if h != "accepted")
        return tp / (tp + fn) if tp + fn > 0 else None

    value = None
    if all(parts[h][1] for h in used):
        value = recall({h: parts[h][2] / parts[h][1] for h in used})
    low = recall({h: ci[h][0] if h == "accepted" else ci[h][1] for h in used})
    high = recall({h: ci[h][1] if h == "accepted" else ci[h][0] for h in used})
    return Estimate(value, low, high)


def verdict_stats(store: Store, sample_id: str) -> VerdictReviewStats:
    reviewed = reviewed_items(store, VERDICT, sample_id)
    strata = verdict_strata(store, sample_id)
    final = [r for r in reviewed if r.labels.final_label in VERDICT.labels]
    counts: dict[str, tuple[int, int, int]] = {}
    for part in VERDICT.parts:
        labelled = [r for r in final if r.item["part"] == part]
        counts[part] = (
            sum(int(s.population) for s in strata if s.part == part),
            len(labelled),
            sum(r.labels.final_label == VERDICT.positive for r in labelled),
        )
    parts = {
        h: PartRate(h, pop, n, yes, wilson_interval(yes, n)) for h, (pop, n, yes) in counts.items()
    }
    acc = parts["accepted"]
    precision = Estimate(
        acc.rate, acc.ci[0] if acc.labelled else None, acc.ci[1] if acc.labelled else None
    )
    return VerdictReviewStats(
        **agreement(VERDICT, sample_id, reviewed).agreement_fields(),
        parts=parts,
        precision=precision,
        judge_recall=recall_estimate(counts, ("rejected",)),
        recall=recall_estimate(counts, ("rejected", "unjudged")),
    )
