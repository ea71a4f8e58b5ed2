"""How one stage judge of an expansion is measured (toolex.reports.trust): the figures, where
they come from, and the line that says them. The first of: an evaluation (`toolex judges eval`),
labels covering the expansion's verdicts, the offline verifier's figures held out by library (or,
on a library without labels of its own, what a library nobody tuned on can expect); a label set
replaces the offline verifier's figure only when it says more (a narrower interval).
"""

from __future__ import annotations

from dataclasses import dataclass

from toolex.judges.embedding import DEFAULT_EMBEDDING
from toolex.judges.operating_points import (
    LABELS_FITTED_ON,
    HeldOut,
    fresh_check,
    fresh_checks,
    held_out,
)
from toolex.reports.queries import Evaluation, LabelOverlap
from toolex.statistics import wilson_interval

# An unmeasured verifier makes the expansion "unvalidated" (the word marks it everywhere);
# an unmeasured decomposer or auditor is only "not measured", so the word keeps one meaning.
UNVALIDATED = "unvalidated"
NOT_MEASURED = "not measured"
HELD_OUT_BASIS = "held out"
EXPECTED_BASIS = "expected"  # no labels of its own: what a library nobody tuned on can expect
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
    basis: str  # evaluation | labels | held out | expected | unvalidated | not measured
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
    accepted_rows: int | None = None  # verdicts of the expansion it accepted (verify)
    left_aside: str | None = None  # a smaller label set that did not replace the figure
    benchmark: str = ""  # the expansion's benchmark (the review command names it)

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

    @property
    def measured_here(self) -> float | None:
        """The precision measured on this benchmark's own labels (None: none, or only the
        expectation of a library nobody tuned on): the one precision a report thins at."""
        return None if self.basis == EXPECTED_BASIS else self.precision

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
            HELD_OUT_BASIS: (
                f"{self.source} labels of {self.scope}, its cut chosen on the other labelled "
                "libraries"
            ),
        }
        accepted = self.accepted
        if accepted is None and self.tp is not None and self.fp is not None:
            accepted = self.tp + self.fp
        shown = f", {accepted} accepted" if accepted is not None else ""
        figures = ", ".join(parts) or "no precision or recall"
        if self.basis == EXPECTED_BASIS:
            line = (
                f"{self.note}; what a library nobody tuned on can expect (leave one library "
                f"out, {self.source} labels of {self.scope}): {figures}, n={self.n}{shown}; "
                f"{self.hint}"
            )
        else:
            line = f"{figures} on {where[self.basis]}, n={self.n}{shown}"
        if self.checked:
            line = f"{line}; {self.checked}"
        if self.left_aside:
            line = f"{line}; {self.left_aside}"
        return line

    @property
    def hint(self) -> str:
        return (
            f"to measure it here to +-0.1: `toolex review sample <id> --level verdict "
            f"--benchmark {self.benchmark} --size {REVIEW_SIZE} --seed 1`, then label it (TUI or "
            "sheets)"
        )


def _in_sample(judge: str, source: str | None) -> bool:
    return judge.startswith("heuristic") and source in LABELS_FITTED_ON


def measure(
    benchmark: str,
    stage: str,
    judge: str | None,
    evaluations: list[Evaluation],
    overlap: dict[str, LabelOverlap],
    before_fit: bool = False,
    embedding: str = DEFAULT_EMBEDDING,
) -> JudgeTrust:
    unmeasured = UNVALIDATED if stage == "verify" else NOT_MEASURED
    if judge is None:
        return JudgeTrust(stage, None, unmeasured, note="no judge recorded for this stage")
    # label sets that measure this judge, best first
    measured = [] if before_fit else _evaluated(stage, judge, evaluations)
    measured += _labelled(benchmark, stage, judge, overlap)
    offline = None
    if stage == "verify" and judge in OFFLINE_VERIFIERS and not before_fit:
        offline = _offline(benchmark, judge, embedding)
    if offline is not None and offline.basis != UNVALIDATED:
        return _beside_offline(offline, measured)
    if measured:
        return measured[0]
    if before_fit:
        note = (
            "its verdicts carry no confidence, so the offline verifier made them before "
            f"its fit and the {HELD_OUT_BASIS} figures do not apply; label some of them, or "
            "expand again into a new --expansion"
        )
        return JudgeTrust(stage, judge, UNVALIDATED, note=note)
    return offline or JudgeTrust(stage, judge, unmeasured, note="nothing has measured this judge")


def _evaluated(stage: str, judge: str, evaluations: list[Evaluation]) -> list[JudgeTrust]:
    """The first stored evaluation of ``judge`` at ``stage`` on labels it was not fitted on."""
    for ev in evaluations:
        if ev.judge == judge and ev.stage == stage and not _in_sample(judge, ev.source):
            figures = {k: v for k, v in ev._asdict().items() if k in _EVALUATED}
            return [JudgeTrust(stage, judge, "evaluation", ev.source, ev.benchmark, **figures)]
    return []


def _labelled(
    benchmark: str, stage: str, judge: str, overlap: dict[str, LabelOverlap]
) -> list[JudgeTrust]:
    """The verifier's figures on the labelled items its verdicts overlap, if any."""
    if stage != "verify" or judge not in overlap or not overlap[judge].n:
        return []
    row = overlap[judge]
    counts = {"n": row.n, "tp": row.tp, "fp": row.fp, "fn": row.fn, "tn": row.tn}
    return [_from_counts(stage, judge, "labels", row.sources, benchmark, counts)]


def _beside_offline(offline: JudgeTrust, measured: list[JudgeTrust]) -> JudgeTrust:
    """The offline verifier's figure, unless a label set says more (a narrower interval)."""
    for found in measured:
        if _width(found) < _width(offline):
            return found
    if measured:
        small = measured[0]
        offline.left_aside = (
            f"{small.text()} too: too few to replace it (a narrower interval would)"
        )
    return offline


def _width(found: JudgeTrust) -> float:
    """How little a measurement says of the precision: its interval's width (1: nothing)."""
    if found.precision_lo is None or found.precision_hi is None:
        return 1.0
    return found.precision_hi - found.precision_lo


def _offline(benchmark: str, judge: str, embedding: str) -> JudgeTrust:
    """The offline verifier's figures: held out on this benchmark's own labelled libraries, or
    what a library nobody tuned on can expect, or unvalidated with an embedding nobody fitted."""
    if held_out(judge, None, embedding) is None:
        note = (
            f"unmeasured with the embedding {embedding}: its cut is WordLlama's and nothing "
            "measured it on its scores; `python benchmarks/fit_offline_judge.py --db STORE "
            "--embedding SPEC` does"
        )
        return JudgeTrust(stage="verify", judge=judge, basis=UNVALIDATED, note=note)
    found = held_out(judge, benchmark, embedding)
    if found is not None:
        out = _from_held_out("verify", judge, HELD_OUT_BASIS, benchmark, found)
        fresh = fresh_check(judge, benchmark, embedding)
        out.checked = fresh.text() if fresh else None
        return out
    expected = held_out(judge, None, embedding)
    assert expected is not None
    out = _from_held_out("verify", judge, EXPECTED_BASIS, expected.where, expected)
    out.note = f"no labels of {benchmark} measure it"
    out.benchmark = benchmark
    # Leave-one-library-out is drawn from the labelled sets; a fresh blind draw of the labelled
    # libraries' own expansions has come out lower (docs/labels/fresh), so both are said.
    drawn = sorted(fresh_checks(judge, embedding).items(), key=lambda kv: kv[1].precision)
    if drawn:
        out.checked = "fresh blind draws of labelled benchmarks found " + ", ".join(
            f"{f.precision:.3f} [{f.precision_ci[0]:.2f}, {f.precision_ci[1]:.2f}] ({b}, "
            f"{f.accepted} labelled)"
            for b, f in drawn
        )
    return out


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
