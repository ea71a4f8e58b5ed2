"""``toolex expand --dry-run``: how many judge calls a run would make and what they would cost.

Tasks that exist now (queries to decompose, candidates to verify, combinations to audit) go to
``judge.estimate``, which knows the ledger (cached answers cost nothing) and the prices. Tasks
that only appear once earlier stages ran are bounded from above: every sub-query of an
undecomposed query (one per ground-truth label) times K candidates, and ``audit_cap``
combinations per query not yet assembled (with no cap, every combination is audited: the bound
is then the per-query safety limit); their cost is extrapolated at the known tasks' average
cost per call, or, before any such task exists (a fresh expansion), at that of stand-in tasks
built from the ground truth (toolex.pipeline.standins). The verify tasks go through the run's
plan first (toolex.pipeline.verify_plan): ``screened`` and ``reused`` count the tasks the
pre-screen and verdict reuse answer without a call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from toolex.judges.base import Judge
from toolex.pipeline import audit, decompose, standins
from toolex.pipeline.stage import StageContext

if TYPE_CHECKING:
    from toolex.store import Store


def estimate(
    store: Store,
    benchmark: str,
    expansion: str,
    ids: list[str],
    judges: dict[str, Judge],
    settings: Any,
    stages: Any,
) -> list[dict[str, Any]]:
    ctx = StageContext(store, benchmark, expansion, ids)
    rows = []
    labels = store.rows("stages/expansion/03_pending_work.sql", ctx.params())[0]
    if "decompose" in stages:
        tasks, _ = decompose.pending_tasks(ctx)
        rows.append(_row("decompose", judges["decompose"], tasks, 0))
    if "verify" in stages:
        from toolex.pipeline import verify_plan
        from toolex.pipeline.verify import pending_tasks as verify_tasks

        later = int(labels["undecomposed_slots"] + labels["subqueries_without_candidates"])
        pending = verify_tasks(ctx)
        options = verify_plan.VerifyOptions(
            getattr(settings, "prescreen", "auto"),
            getattr(settings, "reuse", None),
            getattr(settings, "order", "retrieval"),
        )
        plan = verify_plan.make(ctx, pending, judges["verify"], options)
        row = _row(
            "verify",
            judges["verify"],
            plan.to_judge,
            later * settings.depth,
            lambda: standins.verify_tasks(standins.ground_truth(ctx)),
        )
        row["tasks_now"] = len(pending)
        row["screened"] = len(plan.screened)
        row["reused"] = len(plan.reused) + plan.waiting
        rows.append(row)
    if "audit" in stages:
        rows.append(
            _row(
                "audit",
                judges["audit"],
                audit.pending_tasks(ctx),
                int(labels["unassembled_queries"]) * _audits_per_query(settings),
                lambda: standins.audit_tasks(standins.ground_truth(ctx)),
            )
        )
    return rows


def _row(
    stage: str,
    judge: Judge,
    tasks: list[Any],
    bound: int,
    stand_ins: Callable[[], list[Any]] | None = None,
) -> dict[str, Any]:
    est = judge.estimate(stage, tasks)  # type: ignore[arg-type]
    per_call = (est.cost_usd / est.calls) if est.calls and est.cost_usd is not None else None
    free = not getattr(judge, "makes_calls", True)
    if per_call is None and bound and not free and stand_ins is not None:
        typical = judge.estimate(stage, stand_ins())  # type: ignore[arg-type]
        if typical.calls and typical.cost_usd is not None:
            per_call = typical.cost_usd / typical.calls
    later_cost = per_call * bound if per_call is not None else (0.0 if bound == 0 or free else None)
    total = None if est.cost_usd is None or later_cost is None else est.cost_usd + later_cost
    return {
        "stage": stage,
        "judge": judge.spec,
        "tasks_now": len(tasks),
        "calls_now": est.calls,
        "cached": est.cached,
        "screened": 0,  # answered by the pre-screen (verify)
        "reused": 0,  # answered by another sub-query's verdict (verify)
        "tasks_later_at_most": bound,
        "cost_usd_at_most": None if total is None else round(total, 4),
    }


def _audits_per_query(settings: Any) -> int:
    cap = settings.audit_cap
    return int(cap if cap is not None else settings.audit_safety_limit)
