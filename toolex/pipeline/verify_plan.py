"""Which verify tasks go to the judge, and in what order: the pre-screen, verdict reuse and the
uncertainty-first order (issue 12). ``verify.run`` and ``expand --dry-run`` share one plan, so a
dry run counts the calls a run makes.

- **Pre-screen** (``prescreen``): before an LLM verifier, the offline judge's lenient mode
  (``heuristic:prescreen``: the offline score with a low threshold, vetoes ignored) decides
  which candidates the verifier sees; the rest are stored as verdicts with ``accepted = false``,
  judge ``heuristic:prescreen``, reason ``screened out: ...`` and the screen's P(yes) as
  confidence, never sent. ``off`` (the default) is the paper's protocol: every candidate goes
  to the verifier. ``auto`` turns it on for a verifier that makes calls only while the screen
  earns it: held out on the pipeline's own candidates it must keep
  ``PRESCREEN_MIN_RECALL`` of the equivalents and discard
  ``PRESCREEN_MIN_DISCARD`` of the candidates (``screen_earns_default``; today it does
  not, toolex/data/labels/held_out.json). ``on`` forces it, and its measured loss is said beside
  the calls it saved (``screen_loss``); the offline judge is its own screen.
- **Reuse** (``reuse``, toolex.pipeline.reuse): a candidate whose (reference, candidate) pair
  already has a fresh verdict of this judge under a sub-query asking for the same step takes
  that verdict, stored with judge ``reused``, the original's call and a reason naming it. Within
  one run the first task of such a group is judged and the others wait for its verdict. Tasks
  with the very same sub-query are not reuse: their prompts are identical and the judge sends
  them once anyway.
- **Order** (``order``): ``retrieval`` keeps the stored order (query, slot, retrieval rank);
  ``uncertainty`` puts the candidates whose offline score (P(yes)) is nearest the decision
  boundary first, the prior of `review sample --order uncertainty` (distance to the boundary of
  a judge that answers by P(yes): 0.5), so a budget-capped run spends its calls where they
  matter.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import pyarrow as pa

from toolex.errors import InputError
from toolex.judges.base import Judge, Outcome, Verdict, VerifyTask
from toolex.judges.operating_points import held_out
from toolex.pipeline import reuse as reuse_rule
from toolex.pipeline.settings import PRESCREEN
from toolex.pipeline.stage import StageContext, Writer

PRESCREEN_MODES = ("auto", "on", "off")
# 'auto' turns the screen on only when, held out on the pipeline's own candidates
# (toolex.judges.operating_points.held_out), it keeps at least this share of the equivalents
# while discarding at least this share of the candidates: a screen that saves calls by losing
# equivalents is a departure from the paper's protocol, never a silent one.
PRESCREEN_MIN_RECALL = 0.97
PRESCREEN_MIN_DISCARD = 0.35
ORDERS = ("retrieval", "uncertainty")
PRESCREEN_JUDGE = "heuristic:prescreen"
# The decision boundary of a judge that answers by P(yes): the uncertainty order's centre.
BOUNDARY = 0.5

ScreenFactory = Callable[[], Judge]


@dataclass(frozen=True)
class VerifyOptions:
    prescreen: str = PRESCREEN  # off | auto | on (auto: on while the screen earns it)
    reuse: str | None = None  # off | same-step (None: same-step when the judge makes calls)
    order: str = "retrieval"  # retrieval | uncertainty

    def resolved(self, judge: Judge) -> VerifyOptions:
        """Explicit values, given the verify judge: an offline judge makes no calls to save."""
        if self.prescreen not in PRESCREEN_MODES:
            raise InputError(f"--prescreen must be one of {', '.join(PRESCREEN_MODES)}")
        if self.reuse is not None and self.reuse not in reuse_rule.REUSE_MODES:
            raise InputError(f"--reuse must be one of {', '.join(reuse_rule.REUSE_MODES)}")
        if self.order not in ORDERS:
            raise InputError(f"--order must be one of {', '.join(ORDERS)}")
        calls = judge.makes_calls
        prescreen = self.prescreen
        if prescreen == "auto":
            prescreen = "on" if calls and screen_earns_default() else "off"
        default_reuse = reuse_rule.DEFAULT_REUSE if calls else "off"
        return VerifyOptions(prescreen, self.reuse or default_reuse, self.order)


def screen_earns_default() -> bool:
    """Whether the pre-screen's held-out figures meet the bar for being on by default."""
    found = held_out(PRESCREEN_JUDGE, None)
    return bool(
        found
        and found.recall is not None
        and found.discarded is not None
        and found.recall >= PRESCREEN_MIN_RECALL
        and found.discarded >= PRESCREEN_MIN_DISCARD
    )


def screen_loss(screened: int) -> str:
    """What ``screened`` candidates kept from the verifier cost, as measured held out."""
    found = held_out(PRESCREEN_JUDGE, None)
    if found is None or found.recall is None:
        return (
            f"the pre-screen kept {screened} candidate(s) from the verifier; its loss is unmeasured"
        )
    lo, hi = found.recall_ci or (found.recall, found.recall)
    return (
        f"the pre-screen kept {screened} candidate(s) from the verifier (calls saved); held out "
        f"on {found.where} it keeps {found.recall:.1%} [{lo:.0%}, {hi:.0%}] of the equivalents, "
        f"so about {1 - found.recall:.1%} of the equivalents among the candidates are lost "
        "(--prescreen off sends every candidate, as the paper does)"
    )


@dataclass(frozen=True)
class Source:
    """A fresh verdict a reused one is taken from."""

    query_id: str
    slot: int
    accepted: bool
    reason: str | None
    confidence: float | None
    call_id: str | None

    def reused(self) -> tuple[bool, str, float | None, str | None]:
        """(accepted, reason, confidence, call_id) of a verdict taken from this one."""
        why = f"reused from {self.query_id} slot {self.slot}"
        why += f": {self.reason}" if self.reason else ""
        return self.accepted, why, self.confidence, self.call_id


@dataclass
class VerifyPlan:
    to_judge: list[VerifyTask]
    screened: list[tuple[VerifyTask, Verdict]] = field(default_factory=list)
    reused: list[tuple[VerifyTask, Source]] = field(default_factory=list)  # from stored verdicts
    followers: dict[str, list[VerifyTask]] = field(default_factory=dict)  # leader key -> tasks
    priors: dict[str, float | None] = field(default_factory=dict)  # the screen's P(yes) by key
    screen: ScreenFactory | None = None  # builds the screen for priors not computed yet
    _screen_judge: Judge | None = None

    def prior(self, task: VerifyTask) -> float | None:
        """The offline screen's P(yes) for ``task`` (the second judge of a verdict that came
        without a confidence), computed now if the plan did not need it."""
        if task.key not in self.priors and self.screen is not None:
            if self._screen_judge is None:
                self._screen_judge = self.screen()
            for o in self._screen_judge.verify([task]):
                if isinstance(o.value, Verdict):
                    self.priors[task.key] = o.value.confidence
        return self.priors.get(task.key)

    @property
    def waiting(self) -> int:
        """Tasks that take a verdict the judge gives in this run."""
        return sum(len(f) for f in self.followers.values())

    def write_free(
        self, writer: Writer, where: dict[str, tuple[str, int, str]], notes: dict[str, int]
    ) -> None:
        """Store the verdicts no call makes: screened-out candidates and stored reuse."""
        for task, verdict in self.screened:
            stored = StoredVerdict(
                verdict.accepted, verdict.reason, PRESCREEN_JUDGE, None, verdict.confidence
            )
            _write(writer, where[task.key], stored)
        for task, source in self.reused:
            _write(writer, where[task.key], _reused(source))
        if self.screened:
            notes["screened"] = notes.get("screened", 0) + len(self.screened)
        if self.reused:
            notes["reused"] = notes.get("reused", 0) + len(self.reused)

    def write_followers(
        self,
        writer: Writer,
        where: dict[str, tuple[str, int, str]],
        leader: Outcome,
        verdict: Verdict,
        notes: dict[str, int],
    ) -> None:
        """Store the verdicts that wait for ``leader``'s (its ``verdict``), now that it has one."""
        call_id = leader.call_id
        query_id, slot, _ = where[leader.key]
        source = Source(
            query_id, slot, verdict.accepted, verdict.reason, verdict.confidence, call_id
        )
        for task in self.followers.pop(leader.key, []):
            _write(writer, where[task.key], _reused(source))
            notes["reused"] = notes.get("reused", 0) + 1


def make(
    ctx: StageContext,
    tasks: Sequence[VerifyTask],
    judge: Judge,
    options: VerifyOptions | None = None,
    screen: ScreenFactory | None = None,
) -> VerifyPlan:
    """Split ``tasks`` (pending, references excluded, in stored order) into the screened-out,
    the reused and those ``judge`` answers, in the order asked. ``screen`` builds the pre-screen
    (default: ``heuristic:prescreen`` over the benchmark's library)."""
    options = (options or VerifyOptions()).resolved(judge)
    if screen is None:
        screen = _screen(ctx)
    tasks = list(tasks)
    screen_verdicts: dict[str, Verdict] = {}
    if tasks and (options.prescreen == "on" or options.order == "uncertainty"):
        screen_verdicts = {
            o.key: o.value for o in screen().verify(tasks) if isinstance(o.value, Verdict)
        }
    out = VerifyPlan([], screen=screen)
    out.priors = {k: v.confidence for k, v in screen_verdicts.items()}
    kept = []
    for task in tasks:
        verdict = screen_verdicts.get(task.key)
        if options.prescreen == "on" and verdict is not None and _screened_out(verdict):
            out.screened.append((task, verdict))
        else:
            kept.append(task)
    if options.reuse == "same-step":
        kept = _reuse(ctx, kept, judge.spec, out)
    if options.order == "uncertainty":
        kept.sort(key=lambda t: _uncertainty(screen_verdicts.get(t.key)))
    out.to_judge = kept
    return out


def _screen(ctx: StageContext) -> ScreenFactory:
    def build() -> Judge:
        from toolex.judges import make_judge

        return make_judge(PRESCREEN_JUDGE, ctx.store, benchmark=ctx.benchmark)

    return build


def _reuse(
    ctx: StageContext, tasks: list[VerifyTask], judge_spec: str, out: VerifyPlan
) -> list[VerifyTask]:
    """Tasks left for the judge after stored and in-run reuse (out.reused, out.followers)."""
    pairs = sorted({(t.reference.item_id, t.candidate.item_id) for t in tasks})
    stored: dict[tuple[str, str], list[tuple[str, Source]]] = {}
    if pairs:
        table = pa.table({"reference": [p[0] for p in pairs], "candidate": [p[1] for p in pairs]})
        with ctx.store.registered("reuse_pairs", table):
            rows = ctx.store.rows(
                "stages/3_verify/03_reuse_sources.sql", ctx.base(judge=judge_spec)
            )
        for r in rows:
            made = Source(
                r["query_id"], r["slot"], r["accepted"], r["reason"], r["confidence"], r["call_id"]
            )
            stored.setdefault((r["reference"], r["candidate"]), []).append((r["subquery"], made))
    leaders: dict[tuple[str, str], list[VerifyTask]] = {}
    left: list[VerifyTask] = []
    for task in tasks:
        pair = (task.reference.item_id, task.candidate.item_id)
        text = task.subquery
        source = next(
            (
                s
                for sub, s in stored.get(pair, [])
                if sub != text and reuse_rule.same_step(sub, text)
            ),
            None,
        )
        if source is not None:
            out.reused.append((task, source))
            continue
        lead = next(
            (
                t
                for t in leaders.get(pair, [])
                if t.subquery != text and reuse_rule.same_step(t.subquery, text)
            ),
            None,
        )
        if lead is not None:
            out.followers.setdefault(lead.key, []).append(task)
            continue
        leaders.setdefault(pair, []).append(task)
        left.append(task)
    return left


def _screened_out(verdict: Verdict) -> bool:
    """The screen discards only on a score it could compute: NaN evidence keeps the candidate."""
    score = verdict.confidence
    return not verdict.accepted and not (score is not None and math.isnan(score))


def _uncertainty(verdict: Verdict | None) -> float:
    """Distance of the prior to the boundary; unknown priors go last."""
    score = verdict.confidence if verdict is not None else None
    if score is None or math.isnan(score):
        return math.inf
    return abs(score - BOUNDARY)


class StoredVerdict(NamedTuple):
    """A verdict as the verdicts table stores it, for a candidate no call of this run judges."""

    accepted: bool
    reason: str | None
    judge: str  # who decided: the pre-screen, or reuse
    call_id: str | None
    confidence: float | None


def _reused(source: Source) -> StoredVerdict:
    accepted, reason, confidence, call_id = source.reused()
    return StoredVerdict(accepted, reason, reuse_rule.REUSED, call_id, confidence)


def _write(writer: Writer, at: tuple[str, int, str], verdict: StoredVerdict) -> None:
    query_id, slot, item_id = at
    accepted, reason, judge, call_id, confidence = verdict
    writer.add(
        "stages/3_verify/04_insert_verdict.sql",
        dict(
            query_id=query_id,
            slot=slot,
            item_id=item_id,
            accepted=accepted,
            reason=reason,
            judge=judge,
            call_id=call_id,
            confidence=None if confidence is not None and math.isnan(confidence) else confidence,
        ),
    )
