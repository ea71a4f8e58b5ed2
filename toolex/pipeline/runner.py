"""Run the expansion pipeline over a benchmark, a task, or chosen queries, resumably.

Stages in order: decompose, candidates, verify, assemble, audit. Each stage only picks up work
whose output rows do not exist yet, so running twice changes nothing, and a run interrupted
anywhere resumes where it stopped. Failed judge answers are recorded in ``stage_failures`` and
skipped until ``retry_failed=True``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toolex.errors import InputError
from toolex.judges.base import Judge
from toolex.pipeline import assemble, audit, candidates, decompose, verify
from toolex.pipeline.stage import StageContext, StageCounts
from toolex.pipeline.settings import (
    AUDIT_CAP,
    CANDIDATE_RETRIEVER,
    CANDIDATES_PER_SUBQUERY,
    PLATFORM_RULE,
    SCOPE,
    STAGES,
)
from toolex.progress import Progress, current
from toolex.retrieval.texts import resolve_scope
from toolex.runs.rrf import RRF_K
from toolex.store import Store


@dataclass
class Settings:
    """What a run is configured with (recorded with the expansion); defaults: settings.py."""

    retriever: str = CANDIDATE_RETRIEVER
    depth: int = CANDIDATES_PER_SUBQUERY
    scope: str = SCOPE  # auto = the query's task when items have tasks, else the whole library
    audit_cap: int = AUDIT_CAP
    platform_rule: str = PLATFORM_RULE

    def as_config(self, judges: dict[str, Judge]) -> dict[str, Any]:
        return {
            "judges": {s: j.spec for s, j in judges.items()},
            "retriever": self.retriever,
            "depth": self.depth,
            "scope": self.scope,
            "audit_cap": self.audit_cap,
            "platform_rule": self.platform_rule,
            "rrf_k": RRF_K,
        }


@dataclass
class RunReport:
    benchmark: str
    expansion: str
    queries: int
    stages: list[StageCounts] = field(default_factory=list)
    pending_failures: list[dict[str, Any]] = field(default_factory=list)

    def rows(self) -> list[dict[str, Any]]:
        return [s.as_row() for s in self.stages]


def select_queries(
    store: Store,
    benchmark: str,
    query_ids: Sequence[str] | None = None,
    task: str | None = None,
    limit: int | None = None,
) -> list[str]:
    rows = store.rows(
        "stages/09_select_queries.sql",
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
    progress: Progress | None = None,
    search: candidates.SearchFn | None = None,
) -> RunReport:
    """Run ``stages`` of the expansion ``expansion`` of ``benchmark``; see the module docstring.

    ``judges`` is one judge for every stage or a dict stage -> judge (decompose/verify/audit).
    ``progress`` receives each stage's task (default: the reporter installed with
    ``toolex.progress.reporting``); ``search`` replaces ``toolex.retrieval.search`` (tests).
    """
    settings = settings or Settings()
    unknown = [s for s in stages if s not in STAGES]
    if unknown:
        raise InputError(f"unknown stage(s) {unknown}; choose from {', '.join(STAGES)}")
    if not isinstance(judges, dict):
        judges = {s: judges for s in ("decompose", "verify", "audit")}
    settings = Settings(**vars(settings))  # resolved below; the caller's object stays as given
    if not store.rows("stages/45_benchmark_exists.sql", {"benchmark": benchmark}):
        raise InputError(f"no benchmark {benchmark!r} in the store {store.path}; load it first")
    ids = select_queries(store, benchmark, query_ids, task, limit)
    store.execute(
        "stages/42_upsert_expansion.sql",
        {
            "benchmark": benchmark,
            "expansion": expansion,
            "config": json.dumps(settings.as_config(judges)),
        },
    )
    settings.scope = resolve_scope(store, benchmark, settings.scope)
    ctx = StageContext(store, benchmark, expansion, ids, retry_failed, progress or current())
    report = RunReport(benchmark, expansion, len(ids))
    for stage in STAGES:
        if stage not in stages or not ids:
            continue
        if stage == "decompose":
            report.stages.append(decompose.run(ctx, judges["decompose"]))
        elif stage == "candidates":
            report.stages.append(
                candidates.run(ctx, settings.retriever, settings.depth, settings.scope, search)
            )
        elif stage == "verify":
            report.stages.append(verify.run(ctx, judges["verify"]))
        elif stage == "assemble":
            report.stages.append(assemble.run(ctx, settings.audit_cap, settings.platform_rule))
        else:
            report.stages.append(audit.run(ctx, judges["audit"]))
    report.pending_failures = store.rows(
        "stages/14_failure_counts.sql", {"benchmark": benchmark, "expansion": expansion}
    )
    return report
