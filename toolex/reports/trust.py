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
   on this benchmark's labelled parts, each part judged by thresholds chosen on the others
   (``operating_points.held_out``: the shipped labels drawn from the pipeline's own candidate
   lists, measured as the pipeline runs the judge); for a benchmark without labels of its own,
   ``unmeasured here``: the figures held out on every labelled part, said to be from other
   libraries, with the review that would measure it here. The figures are those of the
   embedding model the expansion's verifier read with (``judge_embedding`` of its settings;
   WordLlama when none is recorded); an embedding nobody fitted has none, and its verifier is
   ``unvalidated``, never shown WordLlama's figures as its own;
4. otherwise the verifier is ``unvalidated``, and so is its expansion; a decomposer or auditor
   that nothing measures is ``not measured``.

The offline verifier's thresholds were chosen on the shipped labels
(``operating_points.LABELS_FITTED_ON``): an evaluation of it, or its verdicts' labels, from that
source are in-sample and skipped, so its held-out figures stand instead. Its verdicts carry
their calibrated P(yes) as ``confidence``; ``heuristic`` verdicts without one were made by an
offline verifier before any fit, which neither the figures nor an evaluation of today's judge
describe: only labels of those very verdicts can measure them. Intervals are 95% Wilson
(``toolex.statistics.wilson_interval``, the one implementation; held-out ones at the labels'
effective number, since each label stands for its stratum).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from toolex.judges import JUDGE_STAGES
from toolex.judges.embedding import DEFAULT_EMBEDDING
from toolex.judges.operating_points import LABELS_FITTED_ON, HeldOut, fresh_check, held_out
from toolex.review.stats import review_stats
from toolex.statistics import wilson_interval
from toolex.store import Store

# An unmeasured verifier makes the expansion "unvalidated" (the word marks it everywhere);
# an unmeasured decomposer or auditor is only "not measured", so the word keeps one meaning.
UNVALIDATED = "unvalidated"
NOT_MEASURED = "not measured"
HELD_OUT_BASIS = "held out"
ELSEWHERE_BASIS = "unmeasured here"
OFFLINE_VERIFIERS = ("heuristic", "heuristic:prescreen")
# A verdict review that measures a verifier's precision to +-0.1 (95%): about 50 of its accepted
# verdicts labelled, a third of a sample split evenly over accepted, rejected and unjudged.
REVIEW_SIZE = 150
# The figures a judge_evaluations row carries (sql/reports/82), as JudgeTrust fields.
_EVALUATED = ("n", "tp", "fp", "fn", "tn", "kappa") + tuple(
    f"{name}{end}" for name in ("precision", "recall") for end in ("", "_lo", "_hi")
)


@dataclass
class JudgeTrust:
    """The measured quality of one judge of one stage of an expansion."""

    stage: str
    judge: str | None  # None: no judge recorded for the stage
    basis: str  # evaluation | labels | held out | unmeasured here | unvalidated | not measured
    source: str | None = None  # label source(s) of the measurement
    scope: str | None = None  # the benchmark, or '*' (every benchmark of the source)
    n: int | None = None
    tp: int | None = None
    fp: int | None = None
    fn: int | None = None
    tn: int | None = None
    precision: float | None = None
    precision_lo: float | None = None
    precision_hi: float | None = None
    recall: float | None = None
    recall_lo: float | None = None
    recall_hi: float | None = None
    kappa: float | None = None
    accepted: int | None = None  # labelled verdicts the judge accepted (held-out figures)
    rows: int = 0  # rows of the stage this judge wrote in the expansion
    note: str | None = None  # why nothing measures it
    embedding: str | None = None  # the offline verifier's embedding model
    checked: str | None = None  # a fresh blind check of the same figure, said beside it

    @property
    def named(self) -> str:
        """The judge as lines and tables name it: an embedding other than the default said."""
        name = self.judge or "(none recorded)"
        if self.embedding and self.embedding != DEFAULT_EMBEDDING:
            return f"{name} (embedding {self.embedding})"
        return name

    @property
    def measured(self) -> bool:
        return self.basis not in (UNVALIDATED, NOT_MEASURED)

    def text(self) -> str:
        """One line's worth: 'precision 0.96 [0.79, 0.99], recall 0.18 [0.12, 0.26] (...)'."""
        if not self.measured:
            return f"{self.basis}: {self.note or 'nothing has measured this judge'}"
        parts = []
        for name in ("precision", "recall"):
            value = getattr(self, name)
            if value is not None:
                lo, hi = getattr(self, f"{name}_lo"), getattr(self, f"{name}_hi")
                ci = f" [{lo:.2f}, {hi:.2f}]" if lo is not None and hi is not None else ""
                parts.append(f"{name} {value:.3f}{ci}")
        where = {
            "evaluation": f"`judges eval` on {self.source}"
            + ("" if self.scope == "*" else f" ({self.scope})"),
            "labels": f"labels of {self.scope} ({self.source})",
            HELD_OUT_BASIS: f"{self.source} labels of {self.scope}, each part held out",
            ELSEWHERE_BASIS: f"{self.source} labels of other libraries, each part held out",
        }[self.basis]
        accepted = self.accepted
        if accepted is None and self.tp is not None and self.fp is not None:
            accepted = self.tp + self.fp
        shown = f", {accepted} accepted" if accepted is not None else ""
        line = f"{', '.join(parts) or 'no precision or recall'} on {where}, n={self.n}{shown}"
        if self.checked:
            line = f"{line}; {self.checked}"
        return f"{self.note}; {line}" if self.basis == ELSEWHERE_BASIS and self.note else line


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

    @property
    def unvalidated(self) -> bool:
        """True when the verify stage has a judge (or rows) that nothing measures."""
        return any(j.stage == "verify" and not j.measured for j in self.judges)

    def verify_precision(self) -> dict[str, float | None]:
        """verify judge -> measured precision (None: unmeasured); '' = the stage's first judge,
        for equivalents no verdict covers (sql/reports/85)."""
        verify = [j for j in self.judges if j.stage == "verify"]
        out = {j.judge: j.precision for j in verify if j.judge}
        out[""] = verify[0].precision if verify else None
        return out

    def lines(self) -> list[str]:
        """Human lines, one per stage judge and one for the review (stderr of the CLI)."""
        head = f"trust {self.benchmark}/{self.expansion}"
        out = [f"{head} {j.stage} {j.named}: {j.text()}" for j in self.judges]
        review = self.review.text() if self.review else "no review yet"
        out.append(f"{head} combinations: {review}")
        if self.unvalidated:
            out.append(
                f"{head}: {UNVALIDATED} — its new scores rest on verdicts nobody has measured; "
                "measure the verifier with `toolex judges eval` or label some of its verdicts"
            )
        return out

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape (the `trust` field of `toolex eval`/`stats` JSON rows)."""
        return {
            "benchmark": self.benchmark,
            "expansion": self.expansion,
            "unvalidated": self.unvalidated,
            "judges": [asdict(j) for j in self.judges],
            "review": asdict(self.review) if self.review else None,
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
    specs = sorted({_norm(j) for rows in stages.values() for j, _, _ in rows if j})
    evaluations = store.rows(
        "reports/82_trust_evaluations.sql", {"benchmark": benchmark, "judges": specs}
    )
    overlap = {
        _norm(r["judge"]): r
        for r in store.rows(
            "reports/83_trust_label_overlap.sql", {**params, "fitted_on": list(LABELS_FITTED_ON)}
        )
    }
    trust = ExpansionTrust(benchmark, expansion)
    for stage, rows in stages.items():
        for judge, n, unscored in rows:
            spec = _norm(judge) if judge else None
            before_fit = stage == "verify" and unscored > 0 and (spec or "").startswith("heuristic")
            found = _measure(benchmark, stage, spec, evaluations, overlap, before_fit, embedding)
            found.rows = n
            if stage == "verify" and spec in OFFLINE_VERIFIERS:
                found.embedding = embedding
            trust.judges.append(found)
    trust.review = _review(store, params)
    return trust


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


def _embedding(rows: list[dict[str, Any]]) -> str:
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


def _in_sample(judge: str, source: str | None) -> bool:
    return judge.startswith("heuristic") and source in LABELS_FITTED_ON


def _measure(
    benchmark: str,
    stage: str,
    judge: str | None,
    evaluations: list[dict[str, Any]],
    overlap: dict[str, dict[str, Any]],
    before_fit: bool = False,
    embedding: str = DEFAULT_EMBEDDING,
) -> JudgeTrust:
    unmeasured = UNVALIDATED if stage == "verify" else NOT_MEASURED
    if judge is None:
        return JudgeTrust(stage, None, unmeasured, note="no judge recorded for this stage")
    for ev in evaluations:
        if before_fit or ev["judge"] != judge or ev["stage"] != stage:
            continue
        if not _in_sample(judge, ev["source"]):
            figures = {k: ev[k] for k in _EVALUATED}
            return JudgeTrust(stage, judge, "evaluation", ev["source"], ev["benchmark"], **figures)
    if stage == "verify" and judge in overlap and overlap[judge]["n"]:
        row = overlap[judge]
        counts = {k: int(row[k]) for k in ("n", "tp", "fp", "fn", "tn")}
        return _from_counts(stage, judge, "labels", row["sources"], benchmark, counts)
    if before_fit:
        note = (
            "its verdicts carry no confidence, so the offline verifier made them before its fit "
            f"and the {HELD_OUT_BASIS} figures do not apply; label some of them, or expand "
            "again into a new --expansion"
        )
        return JudgeTrust(stage, judge, UNVALIDATED, note=note)
    if stage == "verify" and judge in OFFLINE_VERIFIERS:
        if held_out(judge, None, embedding) is None:
            note = (
                f"unmeasured with the embedding {embedding}: its thresholds are WordLlama's and "
                "nothing measured them on its scores; `python benchmarks/fit_offline_judge.py "
                "--db STORE --embedding SPEC` does"
            )
            return JudgeTrust(stage, judge, UNVALIDATED, note=note)
        found = held_out(judge, benchmark, embedding)
        if found is not None:
            out = _from_held_out(stage, judge, HELD_OUT_BASIS, benchmark, found)
            fresh = fresh_check(judge, benchmark, embedding)  # held out proved optimistic there
            out.checked = fresh.text() if fresh else None
            return out
        elsewhere = held_out(judge, None, embedding)
        if elsewhere is not None:
            note = (
                f"unmeasured on {benchmark} (no labels of its own); to measure it here to "
                f"+-0.1: `toolex review sample <id> --level verdict --benchmark {benchmark} "
                f"--size {REVIEW_SIZE} --seed 1`, then label it (TUI or sheets)"
            )
            out = _from_held_out(stage, judge, ELSEWHERE_BASIS, "*", elsewhere)
            out.note = note
            return out
    return JudgeTrust(stage, judge, unmeasured, note="nothing has measured this judge")


def _from_held_out(stage: str, judge: str, basis: str, scope: str, found: HeldOut) -> JudgeTrust:
    out = JudgeTrust(stage, judge, basis, ",".join(LABELS_FITTED_ON), scope)
    out.n, out.accepted = found.labels, found.accepted_labels
    out.precision, out.recall = found.precision, found.recall
    if found.precision_ci:
        out.precision_lo, out.precision_hi = found.precision_ci
    if found.recall_ci:
        out.recall_lo, out.recall_hi = found.recall_ci
    return out


def _from_counts(
    stage: str,
    judge: str,
    basis: str,
    source: str | None,
    scope: str | None,
    counts: dict[str, int],
) -> JudgeTrust:
    tp, fp, fn = counts["tp"], counts["fp"], counts["fn"]
    out = JudgeTrust(stage, judge, basis, source, scope)
    out.n, out.tp, out.fp, out.fn, out.tn = (counts[k] for k in ("n", "tp", "fp", "fn", "tn"))
    if tp + fp:
        out.precision = tp / (tp + fp)
        out.precision_lo, out.precision_hi = wilson_interval(tp, tp + fp)
    if tp + fn:
        out.recall = tp / (tp + fn)
        out.recall_lo, out.recall_hi = wilson_interval(tp, tp + fn)
    return out


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
