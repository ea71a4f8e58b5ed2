"""``toolex expand --dry-run``: the calls a run would make, stage by stage, what they would cost,
and how many to expect.

One row per stage the run would go through (decompose, candidates, verify, assemble, audit), so
the total covers every stage: retrieval and the assembly make no judge calls and cost nothing
here. Tasks that exist now (queries to decompose, candidates to verify, combinations to audit)
go to ``judge.estimate``, which knows the ledger (cached answers cost nothing) and the prices;
the verify tasks go through the run's plan first (toolex.pipeline.verify_plan): ``screened`` and
``reused`` count the tasks the pre-screen and verdict reuse answer without a call.

Tasks that only appear once earlier stages ran are counted twice:

* ``tasks_later_at_most``, an upper bound: every sub-query of an undecomposed query (one per
  ground-truth tool) times K candidates, and ``audit_cap`` combinations per query not yet
  assembled (with no cap, the per-query safety limit: 1,000, so 2,098 ToolRet queries bound the
  audit at 2.1 million);
* ``calls_expected``, the calls now plus the later tasks times the rate this expansion shows so
  far: verify calls per verify task of the candidates known now, audit tasks per assembled query.
  Where the expansion shows nothing yet (a fresh one), the rates the cost benchmark measured on
  StableToolBench and the four ToolRet tasks stand in (``PRIOR_*``); ``basis`` says which.

Costs: ``cost_usd_expected`` and ``cost_usd_at_most`` price the later calls at the known tasks'
average cost per call, or, before any such task exists (a fresh expansion), at that of stand-in
tasks built from the ground truth (toolex.pipeline.standins); the cost is unknown (said as such,
not guessed) only when neither prices a call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from toolex.judges.base import Judge, Stage
from toolex.pipeline import audit, decompose, queries, standins
from toolex.pipeline.stage import StageContext

if TYPE_CHECKING:
    from toolex.pipeline.runner import Settings

# Verify calls per retrieved candidate (the reference included) and audit calls per query of an
# LLM expansion, as benchmarks/bench_cost.py measures them over StableToolBench and the four
# ToolRet tasks (BM25, depth 20; the offline judge's P(yes) >= 0.5 standing in for the verifier's
# answers), pooled: "rates a fresh dry run expects". With verdict reuse (the default for a verifier
# that makes calls), 78,305 calls for 96,300 candidates; with reuse and the pre-screen (opt-in),
# 65,769; 3,500 audit calls for 2,863 queries (docs/figures/bench_cost.json, the run of
# 2026-12-07: the offline judge's rules have changed since the 0.691/0.828/1.339 first measured).
PRIOR_VERIFY_SHARE = {"screen": 0.683, "no screen": 0.813}
PRIOR_AUDITS_PER_QUERY = 1.222
PRIOR = "prior (benchmarks/bench_cost.py)"


def estimate(
    ctx: StageContext, judges: dict[str, Judge], settings: Settings, stages: Sequence[str]
) -> list[StageEstimate]:
    """One row per stage of ``stages``: what a run over ``ctx.query_ids`` of the expansion would
    ask ``judges`` now and later, and what it would cost."""
    rows: list[StageEstimate] = []
    work = queries.pending_work(ctx.store, ctx.params())
    if "decompose" in stages:
        tasks, _ = decompose.pending_tasks(ctx)
        rows.append(_row("decompose", judges["decompose"], tasks, _Later()))
    if "candidates" in stages:
        now, later = work.subqueries_without_candidates, work.undecomposed_slots
        rows.append(_free("candidates", settings.retriever, now, later))
    if "verify" in stages:
        rows.append(_verify_row(ctx, judges["verify"], settings, work))
    if "assemble" in stages:
        rows.append(_free("assemble", "", work.unassembled_queries, 0))
    if "audit" in stages:
        rows.append(_audit_row(ctx, judges["audit"], settings, work))
    return rows


@dataclass(frozen=True)
class StageEstimate:
    """One row of the dry run: what a stage would do now and later, and what it would cost."""

    stage: str
    judge: str
    tasks_now: int
    calls_now: int
    cached: int
    tasks_later_at_most: int
    calls_expected: int
    basis: str
    cost_usd_expected: float | None
    cost_usd_at_most: float | None
    screened: int = 0  # answered by the pre-screen (verify)
    reused: int = 0  # answered by another sub-query's verdict (verify)

    def as_row(self) -> dict[str, object]:
        """The row as the dry run prints it (its columns in the printed order)."""
        return {name: getattr(self, name) for name in COLUMNS}


COLUMNS = (
    "stage",
    "judge",
    "tasks_now",
    "calls_now",
    "cached",
    "screened",
    "reused",
    "tasks_later_at_most",
    "calls_expected",
    "basis",
    "cost_usd_expected",
    "cost_usd_at_most",
)


@dataclass(frozen=True)
class _Later:
    """The tasks of a stage that appear once earlier stages ran: at most ``bound``, of which
    ``share`` are expected to need a call (``basis`` says whence the share); with ``observed``
    tasks now, the share those show instead."""

    bound: int = 0
    share: float = 0.0
    basis: str = ""
    observed: int = 0


def _verify_row(
    ctx: StageContext, judge: Judge, settings: Settings, work: queries.PendingWork
) -> StageEstimate:
    """Verify: the candidates now through the run's plan (pre-screen, reuse), and K candidates
    per sub-query still to decompose or retrieve."""
    from toolex.pipeline import verify_plan
    from toolex.pipeline.verify import pending_tasks as verify_tasks

    pending = verify_tasks(ctx)
    options = verify_plan.VerifyOptions(settings.prescreen, settings.reuse, settings.order)
    plan = verify_plan.make(ctx, pending, judge, options)
    later_subqueries = work.undecomposed_slots + work.subqueries_without_candidates
    screen = options.resolved(judge).prescreen == "on"
    prior = PRIOR_VERIFY_SHARE["screen" if screen else "no screen"]
    row = _row(
        "verify",
        judge,
        plan.to_judge,
        _Later(later_subqueries * settings.depth, prior, PRIOR, len(pending)),
        lambda: standins.verify_tasks(standins.reference_tasks(ctx)),
    )
    reused = len(plan.reused) + plan.waiting
    return replace(row, tasks_now=len(pending), screened=len(plan.screened), reused=reused)


def _audit_row(
    ctx: StageContext, judge: Judge, settings: Settings, work: queries.PendingWork
) -> StageEstimate:
    """Audit: the combinations now, and the cap's worth per query not yet assembled at the rate
    the assembled queries show (a prior before any is)."""
    assembled = work.assembled_queries
    if assembled:
        rate = work.audit_tasks / assembled
        basis = f"{assembled} assembled queries"
    else:
        rate, basis = PRIOR_AUDITS_PER_QUERY, PRIOR
    per_query = _audits_per_query(settings)
    share = min(rate, per_query) / per_query if per_query else 0.0
    return _row(
        "audit",
        judge,
        audit.pending_tasks(ctx),
        _Later(work.unassembled_queries * per_query, share, basis),
        stand_ins=lambda: standins.audit_tasks(standins.reference_tasks(ctx)),
    )


def _row(
    stage: Stage,
    judge: Judge,
    tasks: Sequence[object],
    later: _Later,
    stand_ins: Callable[[], Sequence[object]] | None = None,
) -> StageEstimate:
    """A judged stage: its tasks now (``tasks`` go to the judge), their calls and cost, and the
    ``later`` tasks; ``stand_ins`` price a call when no task now does."""
    bound, share, basis, observed = later.bound, later.share, later.basis, later.observed
    est = judge.estimate(stage, tasks)
    if observed:
        share, basis = est.calls / observed, f"{observed} {stage} tasks now"
    per_call = (est.cost_usd / est.calls) if est.calls and est.cost_usd is not None else None
    free = not judge.makes_calls
    if per_call is None and bound and not free and stand_ins is not None:
        typical = judge.estimate(stage, stand_ins())
        if typical.calls and typical.cost_usd is not None:
            per_call = typical.cost_usd / typical.calls
    expected_later = 0 if free else round(bound * share)

    def cost(later_calls: int) -> float | None:
        if est.cost_usd is None:
            return None
        if later_calls == 0 or free:
            return round(est.cost_usd, 4)
        return None if per_call is None else round(est.cost_usd + per_call * later_calls, 4)

    return StageEstimate(
        stage=stage,
        judge=judge.spec,
        tasks_now=len(tasks),
        calls_now=est.calls,
        cached=est.cached,
        tasks_later_at_most=bound,
        calls_expected=est.calls + expected_later,
        basis=basis if expected_later else "the tasks now",
        cost_usd_expected=cost(expected_later),
        cost_usd_at_most=cost(0 if free else bound),
    )


def _free(stage: str, spec: str, now: int, later: int) -> StageEstimate:
    """A stage that makes no judge calls (retrieval, the assembly): its work, at no cost."""
    return StageEstimate(stage, spec, now, 0, 0, later, 0, "makes no judge calls", 0.0, 0.0)


def total_row(rows: Sequence[StageEstimate]) -> StageEstimate:
    """The dry run's last row: calls (now, expected) and cost (expected, at most) over every
    stage; a cost is unknown when any stage's is."""

    def cost(costs: list[float | None]) -> float | None:
        known = [c for c in costs if c is not None]
        return None if len(known) < len(costs) else round(sum(known), 4)

    return StageEstimate(
        stage="total",
        judge="",
        tasks_now=sum(r.tasks_now for r in rows),
        calls_now=sum(r.calls_now for r in rows),
        cached=sum(r.cached for r in rows),
        tasks_later_at_most=sum(r.tasks_later_at_most for r in rows),
        calls_expected=sum(r.calls_expected for r in rows),
        basis="",
        cost_usd_expected=cost([r.cost_usd_expected for r in rows]),
        cost_usd_at_most=cost([r.cost_usd_at_most for r in rows]),
        screened=sum(r.screened for r in rows),
        reused=sum(r.reused for r in rows),
    )


def _audits_per_query(settings: Settings) -> int:
    cap = settings.audit_cap
    return int(cap if cap is not None else settings.audit_safety_limit)
