"""Verdict-level review statistics: the judge's precision and recall as people measured them.

Final labels follow sql/review/60_verdict_final_labels.sql (shared label, else adjudicated). Per
part h (accepted, rejected, unjudged; toolex.review.verdict_sample), p_h = yes / labelled with
its 95% Wilson interval (toolex.statistics.wilson_interval). Each part's sample is
self-weighting (proportional allocation over its strata), so with N_h the part's population at
draw time (review_verdict_strata):

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
Cohen's kappa (reviewer1 vs reviewer2 on yes/no) and the failure buckets of the final no's are
as at the combination level.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import NormalDist

from toolex.review.levels import VERDICT
from toolex.review.verdict_sample import PARTS
from toolex.statistics import cohen_kappa, wilson_interval
from toolex.store import Store


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


@dataclass
class VerdictReviewStats:
    sample_id: str
    n_items: int
    n_double: int
    n_disagree: int
    n_adjudicated: int
    n_final: int
    kappa: float | None
    agreement: float | None
    parts: dict[str, PartRate]
    precision: Estimate
    judge_recall: Estimate
    recall: Estimate
    buckets: dict[str, int] = field(default_factory=dict)

    def rows(self) -> list[dict[str, object]]:
        """As (statistic, value) rows for `toolex review stats`."""
        out: list[dict[str, object]] = [
            {"statistic": k, "value": getattr(self, k)}
            for k in ("n_items", "n_double", "n_disagree", "n_adjudicated", "n_final")
        ]
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
    rows = store.rows(
        VERDICT.sql["final"],
        {"sample_id": sample_id, "query_id": None, "slot": None, "item_id": None},
    )
    strata = store.rows("review/63_verdict_strata.sql", {"sample_id": sample_id})
    double = [(r["r1_label"], r["r2_label"]) for r in rows if r["r1_label"] and r["r2_label"]]
    disagree = [r for r in rows if r["r1_label"] and r["r2_label"] and not r["agree"]]
    final = [r for r in rows if r["final_label"] in VERDICT.labels]
    counts: dict[str, tuple[int, int, int]] = {}
    for part in PARTS:
        labelled = [r for r in final if r["part"] == part]
        counts[part] = (
            sum(int(s["population"]) for s in strata if s["part"] == part),
            len(labelled),
            sum(r["final_label"] == VERDICT.positive for r in labelled),
        )
    parts = {
        h: PartRate(h, pop, n, yes, wilson_interval(yes, n)) for h, (pop, n, yes) in counts.items()
    }
    acc = parts["accepted"]
    precision = Estimate(
        acc.rate, acc.ci[0] if acc.labelled else None, acc.ci[1] if acc.labelled else None
    )
    buckets = {b: 0 for b in VERDICT.buckets}
    for r in final:
        if r["final_label"] == VERDICT.negative and r["final_bucket"] in buckets:
            buckets[r["final_bucket"]] += 1
    return VerdictReviewStats(
        sample_id=sample_id,
        n_items=len(rows),
        n_double=len(double),
        n_disagree=len(disagree),
        n_adjudicated=sum(r["adj_label"] is not None for r in disagree),
        n_final=len(final),
        kappa=cohen_kappa(double),
        agreement=sum(a == b for a, b in double) / len(double) if double else None,
        parts=parts,
        precision=precision,
        judge_recall=recall_estimate(counts, ("rejected",)),
        recall=recall_estimate(counts, ("rejected", "unjudged")),
        buckets=buckets,
    )
