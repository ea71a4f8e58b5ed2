"""Run the expansion pipeline over a benchmark, a task, or chosen queries, resumably.

Stages in order: decompose, candidates, verify, assemble, audit. Each stage only picks up work
whose output rows do not exist yet, so running twice changes nothing, and a run interrupted
anywhere resumes where it stopped. Failed judge answers are recorded in ``stage_failures`` and
skipped until ``retry_failed=True``.

The expansion records the settings and judge of each stage that wrote outputs
(``toolex.pipeline.record``); a run asking other settings for such a stage is refused unless
``replace=True``, which drops the expansion's outputs first.

A stage whose every task failed in this run (an unreachable or refusing server, answers that
never parse) produced no outcome: the report lists it in ``empty``, with the commonest errors,
and :meth:`RunReport.require_outcome` raises ``NoOutcomeError`` (the CLI exits non-zero).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toolex.errors import InputError, NoOutcomeError
from toolex.judges.base import Judge
from toolex.llm.budget import Budget
from toolex.pipeline import assemble, audit, candidates, decompose, record, verify
from toolex.pipeline.settings import (
    AUDIT_CAP,
    AUDIT_SAFETY_LIMIT,
    CANDIDATE_RETRIEVER,
    CANDIDATES_PER_SUBQUERY,
    JUDGED_STAGES,
    ORDER,
    PLATFORM_RULE,
    PRESCREEN,
    RENDERING,
    REUSE,
    SCOPE,
    STAGE_SETTINGS,
    STAGES,
)
from toolex.pipeline.stage import StageContext, StageCounts
from toolex.pipeline.verify_plan import VerifyOptions
from toolex.progress import Progress, current
from toolex.retrieval.search import public_retriever_spec
from toolex.retrieval.texts import resolve_scope
from toolex.runs.rrf import RRF_K
from toolex.store import Store


@dataclass
class Settings:
    """What a run is configured with (recorded with the expansion); defaults: settings.py."""

    retriever: str = CANDIDATE_RETRIEVER
    depth: int = CANDIDATES_PER_SUBQUERY
    scope: str = SCOPE  # benchmark | task | category | auto (the task when items have tasks)
    rendering: str = RENDERING  # the documentation rendering the candidates are searched in
    audit_cap: int | None = AUDIT_CAP  # None = audit every combination
    audit_safety_limit: int = AUDIT_SAFETY_LIMIT  # per query, when audit_cap is None
    platform_rule: str = PLATFORM_RULE
    # What the verify stage sends to its judge (toolex.pipeline.verify_plan); not recorded with
    # the expansion: every verdict says who decided it (heuristic:prescreen, reused, a judge).
    prescreen: str = PRESCREEN  # off | auto | on
    reuse: str | None = REUSE  # off | same-step; None: same-step for a judge that makes calls
    order: str = ORDER  # retrieval | uncertainty

    def per_stage(self, judges: dict[str, Judge]) -> dict[str, dict[str, object]]:
        """stage -> the settings it runs with (judged stages: {"judge": spec})."""
        # the retriever as runs record it: an endpoint URL's credentials redacted
        values = {**vars(self), "retriever": public_retriever_spec(self.retriever), "rrf_k": RRF_K}
        if self.audit_cap is not None:  # the safety limit only applies to an uncapped audit
            values["audit_safety_limit"] = None
        out: dict[str, dict[str, object]] = {s: {"judge": judges[s].spec} for s in JUDGED_STAGES}
        # The offline verifier's scores are cosines of its embedding model's vectors: verdicts
        # read with another model would sit beside these under one record.
        embedding = judges["verify"].embedding
        if embedding is not None:
            out["verify"]["embedding"] = embedding
        for stage in ("candidates", "assemble"):
            out[stage] = {k: values[k] for k in STAGE_SETTINGS[stage]}
        return out


@dataclass
class RunReport:
    benchmark: str
    expansion: str
    queries: int
    stages: list[StageCounts] = field(default_factory=list)
    pending_failures: list[dict[str, Any]] = field(default_factory=list)
    budget: Budget | None = None  # the run's spending limit, when it had one
    stopped: str | None = None  # the stage the budget stopped the run in (later ones not run)
    empty: list[EmptyStage] = field(default_factory=list)  # stages that produced no outcome

    def rows(self) -> list[dict[str, str | int | float]]:
        return [s.as_row() for s in self.stages]

    def require_outcome(self) -> None:
        """Raise NoOutcomeError when a stage produced no outcome: a run whose every task
        failed is not a success, whatever it printed."""
        if self.empty:
            raise NoOutcomeError("; ".join(e.describe() for e in self.empty))


@dataclass(frozen=True)
class EmptyStage:
    """A stage that had work in this run and produced no outcome: every task failed."""

    stage: str
    failed: int
    reasons: tuple[tuple[str, int], ...]  # its commonest errors, with how many tasks each

    def describe(self) -> str:
        why = "; ".join(f"{n}x {_short(error)}" for error, n in self.reasons) or "no reason kept"
        return (
            f"the {self.stage} stage produced no outcome: all {self.failed} of its task(s) "
            f"failed ({why}). Fix the cause, then run again with --retry-failed "
            "(`toolex stats --failures` lists every failed task with its reason)"
        )


def _short(error: str | None, width: int = 160) -> str:
    text = " ".join((error or "no error text").split())
    return text if len(text) <= width else text[: width - 3] + "..."


def select_queries(
    store: Store,
    benchmark: str,
    query_ids: Sequence[str] | None = None,
    task: str | None = None,
    limit: int | None = None,
) -> list[str]:
    rows = store.rows(
        "stages/0_run/02_select_queries.sql",
        {
            "benchmark": benchmark,
            "query_ids": list(query_ids) if query_ids else None,
            "task": task,
            "limit": limit,
        },
    )
    ids = [r["query_id"] for r in rows]
    if query_ids:
        missing = sorted(set(query_ids) - set(ids))
        if missing:
            raise InputError(
                f"no such queries with ground truth in {benchmark!r}: {', '.join(missing[:5])}",
                field="--queries",
            )
    return ids


def run_expansion(
    store: Store,
    benchmark: str,
    judges: Judge | dict[str, Judge],
    *,
    expansion: str = "default",
    stages: Sequence[str] = STAGES,
    query_ids: Sequence[str] | None = None,
    task: str | None = None,
    limit: int | None = None,
    settings: Settings | None = None,
    retry_failed: bool = False,
    replace: bool = False,
    progress: Progress | None = None,
    search: candidates.SearchFn | None = None,
    budget: Budget | None = None,
) -> RunReport:
    """Run ``stages`` of the expansion ``expansion`` of ``benchmark``; see the module docstring.

    ``judges`` is one judge for every stage or a dict stage -> judge (decompose/verify/audit).
    ``progress`` receives each stage's task (default: the reporter installed with
    ``toolex.progress.reporting``); ``search`` replaces ``toolex.retrieval.search`` (tests).
    ``budget`` caps the calls and cost of every judge that makes calls: once spent, the stage
    stops where it is, later stages do not run, and ``report.stopped`` names the stage.
    Settings that differ from those the expansion's outputs were made with raise
    ``record.SettingsConflict`` before anything runs, unless ``replace`` drops those outputs.
    """
    judges = judges if isinstance(judges, dict) else dict.fromkeys(JUDGED_STAGES, judges)
    settings = _checked(store, benchmark, stages, settings or Settings())
    ids = select_queries(store, benchmark, query_ids, task, limit)
    settings.scope = resolve_scope(store, benchmark, settings.scope)
    plan = _Plan(stages, judges, settings, settings.per_stage(judges), search)
    ctx = StageContext(store, benchmark, expansion, ids, retry_failed, progress or current())
    if "candidates" in stages and ids:
        _check_candidate_source(ctx, settings.retriever, replace, search)
    if replace:
        record.drop_outputs(store, benchmark, expansion)
    else:
        check_settings(ctx, stages, settings, judges)
    report = RunReport(benchmark, expansion, len(ids), budget=budget)
    if budget is not None:
        spend_within(budget, judges)
    if ids:
        _run_stages(ctx, plan, report)
    report.pending_failures = store.rows(
        "stages/0_run/09_failure_counts.sql", {"benchmark": benchmark, "expansion": expansion}
    )
    return report


@dataclass(frozen=True)
class _Plan:
    """What a run resolved before any stage runs."""

    stages: Sequence[str]
    judges: dict[str, Judge]
    settings: Settings
    wanted: record.Wanted  # the settings recorded with each stage's outputs
    search: candidates.SearchFn | None


def _checked(store: Store, benchmark: str, stages: Sequence[str], given: Settings) -> Settings:
    """A copy of the caller's settings (resolved later; the caller's object stays as given),
    once the stages, the benchmark and the audit cap are known good."""
    unknown = [s for s in stages if s not in STAGES]
    if unknown:
        raise InputError(f"unknown stage(s) {unknown}; choose from {', '.join(STAGES)}")
    settings = Settings(**vars(given))
    store.require_benchmark(benchmark)
    if settings.audit_cap is not None and settings.audit_cap < 0:
        raise InputError("the audit cap must be >= 0 (or none: audit every combination)")
    return settings


def _check_candidate_source(
    ctx: StageContext, retriever: str, replace: bool, search: candidates.SearchFn | None
) -> None:
    """Before any call, and before --replace drops anything: a bad spec or a missing key, and
    candidate lists an imported source would lose or lacks."""
    if search is None:
        candidates.check_retriever(retriever)
    if replace and retriever == candidates.IMPORTED:
        raise InputError(
            f"--replace drops the candidate lists `toolex load candidates` imported, and "
            f"--retriever {candidates.IMPORTED} retrieves none: import them into a new "
            "--expansion",
            field="--replace",
        )
    if not replace:  # after --replace nothing is imported: any retriever draws every list
        candidates.check_source(ctx.store, ctx.benchmark, ctx.expansion, ctx.query_ids, retriever)


def _run_stages(ctx: StageContext, plan: _Plan, report: RunReport) -> None:
    """The plan's stages in pipeline order, each recorded with its settings, until the budget
    stops the run."""
    for stage in STAGES:
        if stage not in plan.stages or report.stopped:
            continue
        record.record(ctx.store, ctx.benchmark, ctx.expansion, plan.wanted, ran=[stage])
        counts = _run_stage(stage, ctx, plan.judges, plan.settings, plan.search)
        report.stages.append(counts)
        ran = [stage] if counts.tasks else []
        record.record(ctx.store, ctx.benchmark, ctx.expansion, plan.wanted, ran=ran)
        if report.budget is not None and report.budget.exhausted:
            report.stopped = stage
        if counts.failed and not counts.ok:
            report.empty.append(_empty_stage(ctx.store, ctx, counts))


# How many distinct errors the message of a stage without outcome names.
REASONS_SHOWN = 3


def _empty_stage(store: Store, ctx: StageContext, counts: StageCounts) -> EmptyStage:
    rows = store.rows(
        "stages/0_run/11_failure_reasons.sql",
        ctx.params(stage=counts.stage, top=REASONS_SHOWN),
    )
    return EmptyStage(counts.stage, counts.failed, tuple((r["error"], r["n"]) for r in rows))


def check_settings(
    ctx: StageContext, stages: Sequence[str], settings: Settings, judges: dict[str, Judge]
) -> None:
    """Raise ``record.SettingsConflict`` when ``stages`` would run with other settings than those
    the expansion of ``ctx`` was made with (the scope resolved as the run resolves it)."""
    resolved = Settings(**vars(settings))
    resolved.scope = resolve_scope(ctx.store, ctx.benchmark, settings.scope)
    wanted = resolved.per_stage(judges)
    chosen = [s for s in STAGES if s in stages]
    record.check(ctx.store, ctx.benchmark, ctx.expansion, chosen, wanted)


def _run_stage(
    stage: str,
    ctx: StageContext,
    judges: dict[str, Judge],
    settings: Settings,
    search: candidates.SearchFn | None,
) -> StageCounts:
    if stage == "decompose":
        return decompose.run(ctx, judges["decompose"])
    if stage == "candidates":
        retrieval = candidates.Retrieval(
            settings.retriever, settings.depth, settings.scope, settings.rendering
        )
        return candidates.run(ctx, retrieval, search)
    if stage == "verify":
        options = VerifyOptions(settings.prescreen, settings.reuse, settings.order)
        return verify.run(ctx, judges["verify"], options)
    if stage == "assemble":
        return assemble.run(
            ctx, settings.audit_cap, settings.platform_rule, settings.audit_safety_limit
        )
    return audit.run(ctx, judges["audit"])


def spend_within(budget: Budget, judges: dict[str, Judge]) -> None:
    """Give every judge that makes calls the run's budget; a cost budget needs every such
    judge's model priced (toolex/llm/pricing.py, or the config's [prices])."""
    from toolex.llm.pricing import price

    for judge in dict.fromkeys(judges.values()):
        # a judge with no client calls no model of its own: nothing to count against a budget
        if not judge.makes_calls or judge.client is None:
            continue
        model = judge.client.model
        if budget.max_cost_usd is not None and price(model) is None:
            raise InputError(
                f"--max-cost needs the price of {model!r} ({judge.spec}): add "
                f'[prices."{model}"] input = ..., output = ... (USD per million tokens) to '
                "toolex.toml, or cap the calls with --max-calls",
                field="--max-cost",
            )
        if judge.config is not None and judge.config.batch:
            raise InputError(
                "a budget caps direct calls; batch runs (llm.batch = true) are priced per batch",
                field="--max-cost",
            )
        judge.budget = budget
