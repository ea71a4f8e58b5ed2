"""Expanding a benchmark's qrels: the settings `toolex expand` builds from its options and
config file (:func:`expand_settings`), and the run itself (:func:`expand`), which the command
calls with them."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from toolex.errors import ToolexError
from toolex.progress import reporting

if TYPE_CHECKING:
    from toolex.llm.budget import Budget
    from toolex.pipeline.config import ToolexConfig
    from toolex.pipeline.runner import RunReport, Settings
    from toolex.progress import Field, Progress
    from toolex.store import Store

# A progress callback: (task label, units done, units in all), called as work advances.
ProgressCallback = Callable[[str, int, int], None]


def expand_settings(
    config: str | Path | ToolexConfig | None = None,
    *,
    retriever: str | None = None,
    depth: int | None = None,
    audit_cap: int | None = None,
    scope: str | None = None,
    platform_rule: str | None = None,
    rendering: str | None = None,
    prescreen: str | None = None,
    reuse: str | None = None,
    order: str | None = None,
) -> Settings:
    """The pipeline's settings, resolved as `toolex expand` resolves its options.

    Each value given (not None) wins over the config file's ``[expand]`` table, which wins
    over the pipeline's defaults (``toolex.pipeline.settings``): the offline defaults are BM25
    candidates, 20 per sub-query, the whole library, every combination audited.

    Args:
        config: A ``toolex.toml`` path (or one already read); None: no file.
        retriever: The candidate retriever spec (any of `toolex retrieve --retriever`).
        depth: Candidates retrieved per sub-query.
        audit_cap: Audit only the N best combinations per query (None: every one).
        scope: ``benchmark``, ``task``, ``category`` or ``auto``.
        platform_rule: ``feeds`` or ``strict``.
        rendering: The documentation rendering searched.
        prescreen: ``auto``, ``on`` or ``off``.
        reuse: ``off`` or ``same-step``.
        order: ``retrieval`` or ``uncertainty``.

    Returns:
        The ``Settings`` object :func:`expand` takes.

    Raises:
        InputError: A bad config file, named with the setting.
    """
    from toolex.pipeline import settings as defaults
    from toolex.pipeline.config import Overrides, load_config
    from toolex.pipeline.config import expand_settings as resolve

    read = load_config(config) if isinstance(config, str | Path) else config
    given = Overrides(
        retriever=retriever,
        depth=depth,
        audit_cap=audit_cap,
        scope=scope or defaults.SCOPE,
        platform_rule=platform_rule or defaults.PLATFORM_RULE,
        rendering=rendering,
        prescreen=prescreen or defaults.PRESCREEN,
        reuse=reuse if reuse is not None else defaults.REUSE,
        order=order or defaults.ORDER,
    )
    return resolve(read, given)


def expand(
    store: Store,
    benchmark: str,
    *,
    expansion: str = "default",
    judge: str | None = None,
    config: str | Path | ToolexConfig | None = None,
    settings: Settings | None = None,
    stages: Sequence[str] | str = "all",
    queries: Sequence[str] | None = None,
    task: str | None = None,
    limit: int | None = None,
    retry_failed: bool = False,
    replace: bool = False,
    budget: Budget | None = None,
    progress: ProgressCallback | Progress | None = None,
) -> RunReport:
    """Expand ``benchmark``'s qrels: decompose, retrieve and verify candidates, assemble and
    audit combinations; every outcome is stored as it completes, and a re-run resumes.

    Args:
        store: A store opened for writing.
        benchmark: The benchmark to expand.
        expansion: The expansion's name (``toolex eval --expansion`` scores against it).
        judge: The judge of every stage (``heuristic``, ``openai:<model>``, ...); None: the
            config file's ``[judges]``, else the offline heuristic judge.
        config: A ``toolex.toml`` path (or one read) for ``[judges]`` and ``[llm]``.
        settings: From :func:`expand_settings`; None: the config's, else the defaults.
        stages: A stage group of `toolex expand --stage` (``all``, ``decompose``,
            ``verify``, ...) or the stages themselves.
        queries: Only these query ids.
        task: Only the queries of this task.
        limit: Only the first N queries (by id).
        retry_failed: Retry tasks whose earlier answer failed.
        replace: Drop the expansion's outputs and recompute them.
        budget: A spending limit (``toolex.llm.budget.Budget``); None: none.
        progress: Called as ``progress(label, done, total)`` as work advances, or a
            ``toolex.progress.Progress`` reporter; None: the one installed, if any.

    Returns:
        The run's report: per-stage counts (``rows()``), failures waiting for a retry,
        whether the budget stopped it.

    Raises:
        NotFoundError: An unknown benchmark.
        ToolexError: Settings other than those the expansion was made with (use another
            expansion name, or ``replace``); a stage whose input no earlier stage made.
        NoOutcomeError: Every task of a stage failed.
    """
    from toolex.judges import judges_for
    from toolex.pipeline.config import load_config
    from toolex.pipeline.outcome import missing_stage
    from toolex.pipeline.runner import run_expansion, select_queries
    from toolex.pipeline.settings import STAGE_GROUPS

    read = load_config(config) if isinstance(config, str | Path) else config
    if settings is None:
        settings = expand_settings(read)
    if isinstance(stages, str):
        if stages not in STAGE_GROUPS:
            raise ToolexError(f"unknown stage {stages!r}; choose one of {', '.join(STAGE_GROUPS)}")
        stages = STAGE_GROUPS[stages]
    stages = tuple(stages)
    store.require_benchmark(benchmark)
    ids = select_queries(store, benchmark, list(queries) if queries else None, task, limit)
    why = missing_stage(store, benchmark, expansion, ids, stages)
    if why:
        raise ToolexError(why)
    judges = judges_for(store, judge=judge, config=read, benchmark=benchmark)
    # Installed for the whole run: the searches inside a stage report to it too.
    reporter = contextlib.nullcontext() if progress is None else reporting(_reporter(progress))
    with reporter:
        report: RunReport = run_expansion(
            store,
            benchmark,
            judges,
            expansion=expansion,
            stages=stages,
            query_ids=list(queries) if queries else None,
            task=task,
            limit=limit,
            settings=settings,
            retry_failed=retry_failed,
            replace=replace,
            budget=budget,
        )
    return report


class _Callback:
    """A ``Progress`` reporter that calls ``fn(label, done, total)``; nested tasks each report
    under their own label."""

    def __init__(self, fn: ProgressCallback) -> None:
        self.fn = fn
        self.open: list[list[Any]] = []  # [label, done, total] of each open task

    def start(self, label: str, total: int, *, unit: str = "items") -> None:
        self.open.append([label, 0, total])
        self.fn(label, 0, total)

    def advance(self, n: int = 1, **fields: Field) -> None:
        if self.open:
            task = self.open[-1]
            task[1] += n
            self.fn(task[0], task[1], task[2])

    def finish(self) -> None:
        if self.open:
            self.open.pop()


def _reporter(progress: ProgressCallback | Progress) -> Progress:
    if hasattr(progress, "advance"):
        return cast("Progress", progress)
    return _Callback(progress)
