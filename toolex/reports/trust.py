"""How far to trust an expansion: the measured quality of the judge of each stage, and the
combination precision of its latest finished review (issue 16, section 6).

For each stage (decompose, verify, audit) the judges are those that wrote the stage's rows
(sql/reports/81), else the one the expansion's settings record (``config.judges`` or, in older
stores, ``config.judge``). Each judge's precision and recall come from the first of:

1. ``evaluation``: what `toolex judges eval` stored in ``judge_evaluations`` for this benchmark's
   labels, else for a whole label source (benchmark ``'*'``; sql/reports/82);
2. ``labels``: the stored verdict labels of this benchmark that cover the expansion's own
   verdicts (sql/reports/83; verify only);
3. ``held out``: for the offline verifier (``heuristic``, ``heuristic:prescreen``), its figures
   on this benchmark's own labelled libraries, each judged by the cut chosen on the other
   libraries (``operating_points.held_out``: the shipped labels drawn from the pipeline's own
   candidate lists, measured as the pipeline runs the judge); for a benchmark without labels of
   its own, ``expected``: what a library nobody tuned the cut on can expect (every labelled
   library judged so, pooled), named as such, with the review that would measure it here, and
   never used to thin. The figures are those of the embedding model the expansion's verifier
   read with (``judge_embedding`` of its settings; WordLlama when none is recorded); an
   embedding nobody fitted has none, and its verifier is ``unvalidated``, never shown
   WordLlama's figures as its own;
4. otherwise the verifier is ``unvalidated``, and so is its expansion; a decomposer or auditor
   that nothing measures is ``not measured``.

The offline verifier's cut was chosen on the shipped labels
(``operating_points.LABELS_FITTED_ON``): an evaluation of it, or its verdicts' labels, from that
source are in-sample and skipped, so its held-out figures stand instead. Another label set (an
evaluation, or labels covering the verdicts) replaces the offline verifier's held-out or
expected figure only when it says more: its precision interval is narrower (the Tour's four
example labels, precision 1.000 [0.21, 1.00], do not replace 400 labels held out); the line then
says what it left aside. Its verdicts carry
their calibrated P(yes) as ``confidence``; ``heuristic`` verdicts without one were made by an
offline verifier before any fit, which neither the figures nor an evaluation of today's judge
describe: only labels of those very verdicts can measure them. Intervals are 95% Wilson
(``toolex.statistics.wilson_interval``, the one implementation; held-out ones at the labels'
effective number, since each label stands for its stratum).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from toolex.judges import JUDGE_STAGES
from toolex.judges.embedding import DEFAULT_EMBEDDING
from toolex.judges.operating_points import LABELS_FITTED_ON
from toolex.reports.queries import trust_evaluations, trust_label_overlap
from toolex.reports.trust_measure import (
    EXPECTED_BASIS,
    HELD_OUT_BASIS,
    NOT_MEASURED,
    OFFLINE_VERIFIERS,
    REVIEW_SIZE,
    UNVALIDATED,
    JudgeTrust,
    measure,
)
from toolex.review.stats import review_stats
from toolex.store import Store

__all__ = [
    "EXPECTED_BASIS",
    "HELD_OUT_BASIS",
    "NOT_MEASURED",
    "REVIEW_SIZE",
    "UNVALIDATED",
    "ExpansionTrust",
    "JudgeTrust",
    "ReviewTrust",
    "expansion_trust",
    "trust_of_runs",
]


@dataclass
class ReviewTrust:
    """Combination precision from the latest finished review sample (or one under way)."""

    sample_id: str
    n_items: int
    n_final: int
    n_valid: int
    precision: float | None
    ci_low: float | None
    ci_high: float | None

    @property
    def finished(self) -> bool:
        return self.n_items > 0 and self.n_final == self.n_items

    def text(self) -> str:
        if not self.finished:
            return (
                f"no finished review yet (sample {self.sample_id}: {self.n_final} of "
                f"{self.n_items} combinations have a final label)"
            )
        assert self.precision is not None and self.ci_low is not None
        return (
            f"precision {self.precision:.3f} [{self.ci_low:.2f}, {self.ci_high:.2f}] "
            f"({self.n_valid} of {self.n_final} valid, review {self.sample_id})"
        )


@dataclass
class ExpansionTrust:
    benchmark: str
    expansion: str
    judges: list[JudgeTrust] = field(default_factory=list)
    review: ReviewTrust | None = None
    nothing_accepted: str | None = None  # why the verifier accepted none of its candidates

    @property
    def unvalidated(self) -> bool:
        """True when the verify stage has a judge (or rows) that nothing measures."""
        return any(j.stage == "verify" and not j.measured for j in self.judges)

    def verify_precision(self) -> dict[str, float | None]:
        """verify judge -> the precision measured on this benchmark's labels (None: unmeasured
        here, even where a library nobody tuned on has an expectation); '' = the stage's first
        judge, for equivalents no verdict covers (sql/reports/85)."""
        verify = [j for j in self.judges if j.stage == "verify"]
        out = {j.judge: j.measured_here for j in verify if j.judge}
        out[""] = verify[0].measured_here if verify else None
        return out

    def unthinned(self) -> dict[str, str]:
        """verify judge -> why the report does not thin its equivalents (no precision measured
        on this benchmark)."""
        out = {}
        for j in self.judges:
            if j.stage != "verify" or not j.judge or j.measured_here is not None:
                continue
            if j.basis == EXPECTED_BASIS:
                out[j.judge] = (
                    f"not thinned: no precision measured on {self.benchmark} (the "
                    f"{j.precision:.3f} a library nobody tuned on can expect is no measurement "
                    f"here); {j.hint}"
                )
            else:
                out[j.judge] = j.basis
        return out

    def lines(self) -> list[str]:
        """Human lines, one per stage judge and one for the review (stderr of the CLI)."""
        head = f"trust {self.benchmark}/{self.expansion}"
        out = [f"{head} {j.stage} {j.named}: {j.text()}" for j in self.judges]
        review = self.review.text() if self.review else "no review yet"
        out.append(f"{head} combinations: {review}")
        if self.nothing_accepted:
            out.append(f"{head} verify: {self.nothing_accepted}")
        if self.unvalidated:
            out.append(
                f"{head}: {UNVALIDATED} — its new scores rest on verdicts nobody has measured; "
                "measure the verifier with `toolex judges eval` or label some of its verdicts"
            )
        return out

    def as_dict(self) -> dict[str, object]:
        """The JSON shape (the `trust` field of `toolex eval`/`stats` JSON rows)."""
        return {
            "benchmark": self.benchmark,
            "expansion": self.expansion,
            "unvalidated": self.unvalidated,
            "judges": [asdict(j) for j in self.judges],
            "review": asdict(self.review) if self.review else None,
            "nothing_accepted": self.nothing_accepted,
        }


def expansion_trust(store: Store, benchmark: str, expansion: str) -> ExpansionTrust | None:
    """The trust of ``expansion`` of ``benchmark``; None when it holds nothing (no settings, no
    rows: new equals old and there is nothing to trust)."""
    params = {"benchmark": benchmark, "expansion": expansion}
    recorded = store.rows("reports/80_trust_config.sql", params)
    config = _config(recorded)
    embedding = _embedding(recorded)
    written = store.rows("reports/81_trust_stage_judges.sql", params)
    if config is None and not written:
        return None
    stages: dict[str, list[tuple[str | None, int, int]]] = {}
    for stage in JUDGE_STAGES:
        rows = [
            (r["judge"], int(r["n"]), int(r["unscored"])) for r in written if r["stage"] == stage
        ]
        stages[stage] = rows or [((config or {}).get(stage), 0, 0)]
    accepted = {r["judge"]: int(r["accepted"]) for r in written if r["stage"] == "verify"}
    specs = sorted({_norm(j) for rows in stages.values() for j, _, _ in rows if j})
    evaluations = trust_evaluations(store, benchmark, specs)
    overlap = {
        _norm(r.judge): r
        for r in trust_label_overlap(store, benchmark, expansion, LABELS_FITTED_ON)
    }
    trust = ExpansionTrust(benchmark, expansion)
    for stage, rows in stages.items():
        for judge, n, unscored in rows:
            spec = _norm(judge) if judge else None
            before_fit = stage == "verify" and unscored > 0 and (spec or "").startswith("heuristic")
            found = measure(benchmark, stage, spec, evaluations, overlap, before_fit, embedding)
            found.rows = n
            if stage == "verify" and spec in OFFLINE_VERIFIERS:
                found.embedding = embedding
            if stage == "verify" and judge in accepted:
                found.accepted_rows = accepted[judge]
            trust.judges.append(found)
    trust.nothing_accepted = _nothing_accepted(store, params, stages["verify"], accepted)
    trust.review = _review(store, params)
    return trust


# What a verdict's failed point most likely says of a library where nothing was accepted.
_LIKELY_CAUSE = {
    "platform": (
        "its tools answer from their own platforms (a plugin library whose tools overlap by "
        "design is the usual case): no candidate is shown to serve the reference's platform, "
        "which is the right answer there, not a defect"
    ),
    "unlike documents": (
        "its tools' documents are too unlike one another to show one act on one object (a "
        "plugin library whose tools each serve one site and overlap by design is the usual "
        "case: there accepting nothing is the right answer, not a defect; an LLM verifier reads "
        "what words cannot)"
    ),
    "operation": "its candidates do other acts than the references",
    "outputs": "its candidates do not document what the steps ask for",
    "inputs": "its candidates need inputs the requests do not give",
    "scope": "its candidates serve other entities, places or languages",
    "constraints": "its candidates have no parameter for values the requests give",
}


def _nothing_accepted(
    store: Store,
    params: dict[str, str],
    verify: list[tuple[str | None, int, int]],
    accepted: dict[str, int],
) -> str | None:
    """When the offline verifier judged candidates and accepted none: how many, the points its
    reasons name most, and the likely cause."""
    for judge, n, _ in verify:
        if judge not in OFFLINE_VERIFIERS or not n or accepted.get(judge, 0):
            continue
        points = store.rows("reports/86_trust_failed_points.sql", {**params, "judge": judge})
        if not points:
            return f"{judge} accepted none of {n:,} candidates"
        top = ", ".join(f"{p['point']} {int(p['n']):,}" for p in points[:3])
        cause = _LIKELY_CAUSE.get(points[0]["point"], "no candidate gave evidence for every point")
        return (
            f"{judge} accepted none of {n:,} candidates (it says yes only where the documents "
            f"give evidence for all six points; the points that failed most: {top}); likely "
            f"cause: {cause}"
        )
    return None


def trust_of_runs(
    store: Store, run_ids: Sequence[str], expansion: str
) -> dict[str, ExpansionTrust | None]:
    """run id -> the trust of ``expansion`` of the run's benchmark (one lookup per benchmark)."""
    bench = {r["run_id"]: r["benchmark"] for r in store.rows("reports/01_run_benchmarks.sql")}
    found: dict[str, ExpansionTrust | None] = {}
    out = {}
    for run_id in run_ids:
        benchmark = bench[run_id]
        if benchmark not in found:
            found[benchmark] = expansion_trust(store, benchmark, expansion)
        out[run_id] = found[benchmark]
    return out


def _config(rows: list[dict[str, Any]]) -> dict[str, str] | None:
    """stage -> judge spec from the recorded settings (``judges`` mapping or ``judge``)."""
    if not rows:
        return None
    raw = rows[0]["config"]
    config = json.loads(raw) if isinstance(raw, str) else (raw or {})
    judges = config.get("judges", config.get("judge"))
    if isinstance(judges, str):
        return dict.fromkeys(JUDGE_STAGES, judges)
    if isinstance(judges, dict):
        return {s: str(j) for s, j in judges.items() if j}
    return {}


def _embedding(rows: Sequence[Mapping[str, object]]) -> str:
    """The embedding model the expansion's offline verifier read with (toolex.pipeline.record):
    WordLlama when none is recorded, the only one before a user could choose."""
    raw = rows[0]["config"] if rows else None
    config = json.loads(raw) if isinstance(raw, str) else (raw or {})
    found = config.get("judge_embedding") if isinstance(config, dict) else None
    return str(found) if found else DEFAULT_EMBEDDING


def _norm(spec: str) -> str:
    """One spelling per judge: 'heuristic:strict' is the judge 'heuristic'."""
    spec = spec.strip()
    return "heuristic" if spec == "heuristic:strict" else spec


def _review(store: Store, params: dict[str, str]) -> ReviewTrust | None:
    """The newest finished review sample, else the newest one under way, else None."""
    first: ReviewTrust | None = None
    for sample in store.rows("reports/84_trust_reviews.sql", params):
        stats = review_stats(store, sample["sample_id"])
        found = ReviewTrust(
            stats.sample_id, stats.n_items, stats.n_final, stats.n_valid, None, None, None
        )
        if found.finished:
            found.precision, found.ci_low, found.ci_high = (
                stats.precision,
                stats.ci_low,
                stats.ci_high,
            )
            return found
        first = first or found  # under way: its share so far is no precision of the expansion
    return first
