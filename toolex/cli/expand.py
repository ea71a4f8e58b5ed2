"""`toolex expand`: run the annotation pipeline over a benchmark, and say what it did."""

from __future__ import annotations

from typing import Any

import click

from toolex.cli.options import (
    benchmark_option,
    db_option,
    deprecated_k,
    emit_rows,
    expansion_option,
    format_option,
    open_store,
    scope_option,
)
from toolex.pipeline.settings import (
    AUDIT_SAFETY_LIMIT,
    CANDIDATE_RETRIEVER,
    CANDIDATES_PER_SUBQUERY,
    PLATFORM_RULE,
    RENDERING,
    STAGE_GROUPS,
)


@click.command()
@db_option
@format_option
@benchmark_option()
@expansion_option(new=True)
@click.option(
    "--stage",
    type=click.Choice(list(STAGE_GROUPS)),
    default="all",
    show_default=True,
    help="Run one stage (verify = retrieve candidates and judge them).",
)
@click.option("--queries", "query_ids", multiple=True, help="Only these query ids (repeatable).")
@click.option("--task", default=None, help="Only the queries of this task.")
@click.option(
    "--limit",
    type=click.IntRange(1, 2**31 - 1),
    default=None,
    help="Only the first N queries (by id).",
)
@click.option(
    "--judge",
    default=None,
    help="Judge for every stage: heuristic | openai:<model> | anthropic:<model> | "
    "compat:<base_url>#<model>. Default: config [judges], else heuristic.",
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="toolex.toml with [judges], [llm] and [expand] settings.",
)
@click.option(
    "--retriever",
    default=None,
    help=f"Candidate retriever spec (default {CANDIDATE_RETRIEVER}).",
)
@scope_option(
    "Library the candidates come from: the whole benchmark (default, the paper's full tool "
    "library), the query's task or category, or auto (task when the items have tasks).",
)
@click.option(
    "--rendering",
    default=None,
    help=f"Documentation rendering the candidates are searched in (default {RENDERING!r} = "
    "items.text; else one loaded with `toolex load docs`, e.g. Tool-DE-style expanded docs).",
)
@click.option(
    "--depth",
    type=click.IntRange(1),
    default=None,
    help=f"Candidates retrieved per sub-query (default {CANDIDATES_PER_SUBQUERY}).",
)
@click.option("--k", "old_k", type=click.IntRange(1), default=None, hidden=True)
@click.option(
    "--audit-cap",
    type=click.IntRange(0),
    default=None,
    help="Opt-in cost control: audit only the N best combinations per query by RRF and cut the "
    f"rest. Default: audit every one, as the paper does (up to {AUDIT_SAFETY_LIMIT} per query, "
    "a safety limit reported when hit).",
)
@click.option(
    "--platform-rule",
    type=click.Choice(["strict", "feeds"]),
    default=PLATFORM_RULE,
    show_default=True,
    help="feeds: tools whose docs show an id/token hand-off must share a platform; strict: "
    "also any two GT tools that share a platform (conservative).",
)
@click.option(
    "--prescreen",
    type=click.Choice(["auto", "on", "off"]),
    default="auto",
    show_default=True,
    help="Verify: candidates the offline screen (heuristic:prescreen) discards are stored as "
    "rejected, never sent to the verifier. auto = on when the verifier makes calls; off = the "
    "paper's protocol. Applies to candidates not yet judged.",
)
@click.option(
    "--reuse",
    type=click.Choice(["off", "same-step"]),
    default=None,
    help="Verify: carry a verdict on a (reference, candidate) pair over to another sub-query "
    "asking for the same operation on the same entity (stored as judge 'reused'). Default: "
    "same-step when the verifier makes calls.",
)
@click.option(
    "--order",
    type=click.Choice(["retrieval", "uncertainty"]),
    default="retrieval",
    show_default=True,
    help="Verify order: by query and retrieval rank, or most uncertain first (offline score "
    "nearest 0.5), so a budget-capped run spends its calls where they matter.",
)
@click.option(
    "--max-cost",
    type=click.FloatRange(0),
    default=None,
    help="Stop before the run's LLM calls cost more than this many USD (calls in flight "
    "included); resumable later with a larger budget. Exit code 3 when it stops the run.",
)
@click.option(
    "--max-calls",
    type=click.IntRange(0),
    default=None,
    help="Stop before the run makes more than this many LLM calls (attempts); as --max-cost.",
)
@click.option("--retry-failed", is_flag=True, help="Retry tasks whose earlier answer failed.")
@click.option(
    "--replace",
    is_flag=True,
    help="Drop the expansion's outputs (imported rows too) and recompute them; needed to re-run "
    "an expansion with settings other than those its outputs were made with.",
)
@click.option("--dry-run", is_flag=True, help="Print the calls and cost the run would make.")
def expand(
    db: str,
    fmt: str,
    benchmark: str,
    expansion: str,
    stage: str,
    query_ids: tuple[str, ...],
    task: str | None,
    limit: int | None,
    judge: str | None,
    config_path: str | None,
    retriever: str | None,
    scope: str,
    rendering: str | None,
    depth: int | None,
    old_k: int | None,
    audit_cap: int | None,
    platform_rule: str,
    prescreen: str,
    reuse: str | None,
    order: str,
    max_cost: float | None,
    max_calls: int | None,
    retry_failed: bool,
    replace: bool,
    dry_run: bool,
) -> None:
    """Expand a benchmark's annotation: decompose, retrieve + verify, assemble + audit.

    Every outcome is stored as it completes; re-running resumes and never repeats finished work.
    The expansion records the settings and judge each stage ran with; re-running it with other
    settings is refused (use a new --expansion name, or --replace). Prints what each stage did
    (tasks, failures, calls, cost; rejected_platform = audit calls saved, cut = beyond the audit
    cap or the safety limit).

    \b
    Example:
      toolex expand --benchmark stabletoolbench --judge heuristic
      toolex expand --benchmark toolret --task apibank --config toolex.toml --stage verify
      toolex expand --benchmark toolret --expansion capped --audit-cap 20 --scope task
      toolex expand --benchmark toolret --expansion de --rendering gpt-4o-mini
      toolex expand --benchmark toolret --config toolex.toml --max-cost 5 --order uncertainty
    """
    from toolex.judges import judges_for
    from toolex.pipeline.config import expand_settings, load_config
    from toolex.pipeline.runner import check_settings, run_expansion, select_queries

    config = load_config(config_path) if config_path else None
    settings = expand_settings(
        config,
        retriever=retriever,
        depth=depth or deprecated_k(old_k),
        audit_cap=audit_cap,
        scope=scope,
        platform_rule=platform_rule,
        rendering=rendering,
    )
    settings.prescreen, settings.reuse, settings.order = prescreen, reuse, order
    if dry_run and replace:
        raise click.UsageError("--dry-run estimates the expansion as stored; drop --replace")
    store = open_store(db, read_only=dry_run)
    click.get_current_context().call_on_close(store.close)  # a refused run leaves no lock behind
    if dry_run:
        from toolex.pipeline.dryrun import estimate

        with keys_not_needed():  # a dry run makes no call: clients are built, never used
            judges = judges_for(store, judge=judge, config=config, benchmark=benchmark)
        ids = select_queries(store, benchmark, list(query_ids) or None, task, limit)
        check_settings(store, benchmark, expansion, STAGE_GROUPS[stage], settings, judges)
        rows = estimate(store, benchmark, expansion, ids, judges, settings, STAGE_GROUPS[stage])
        emit_rows(
            [*rows, total_row(rows)],
            fmt,
            title="dry run: calls the run would make (judge: the full spec of each stage's judge)",
        )
        _say_if_complete(store, benchmark, expansion, rows)
        return
    judges = judges_for(store, judge=judge, config=config, benchmark=benchmark)
    from toolex.cli.progress import interruptible

    with interruptible(
        f"interrupted; re-run to resume (every finished outcome of {benchmark} / {expansion} "
        "is stored)"
    ):
        report = run_expansion(
            store,
            benchmark,
            judges,
            expansion=expansion,
            stages=STAGE_GROUPS[stage],
            query_ids=list(query_ids) or None,
            task=task,
            limit=limit,
            settings=settings,
            retry_failed=retry_failed,
            replace=replace,
            budget=_budget(max_cost, max_calls),
        )
    emit_rows(
        report.rows(), fmt, title=f"this run of {benchmark} / {expansion}: {report.queries} queries"
    )
    for stage_counts in report.stages:
        limited = stage_counts.notes.get("queries_at_safety_limit")
        if limited:
            click.echo(
                f"warning: {limited} quer{'y' if limited == 1 else 'ies'} had more than "
                f"{settings.audit_safety_limit} combinations to audit; the rest were cut (see "
                "`toolex stats`; --audit-cap sets an explicit cap instead)",
                err=True,
            )
    for row in report.pending_failures:
        click.echo(
            f"note: {row['failed']} {row['stage']} task(s) failed and wait for "
            "--retry-failed (`toolex stats --failures` lists them with their reasons)",
            err=True,
        )
    _say_outcome(store, benchmark, expansion, fmt)
    if report.stopped:
        _say_stopped(report)
        raise click.exceptions.Exit(BUDGET_EXIT)


# `toolex expand` exits with this code when its budget stopped the run (2 is an error).
BUDGET_EXIT = 3


def _budget(max_cost: float | None, max_calls: int | None) -> Any:
    if max_cost is None and max_calls is None:
        return None
    from toolex.llm.budget import Budget

    return Budget(max_cost, max_calls)


def _say_stopped(report: Any) -> None:
    """Why the run stopped early, what it spent, and how to go on."""
    budget = report.budget
    stage = next(s for s in report.stages if s.stage == report.stopped)
    left = stage.tasks - stage.ok - stage.failed
    click.echo(
        f"stopped: the budget ({budget.describe()}) is spent: {budget.calls} calls, "
        f"${budget.spent:.4f} in this run; {report.stopped} stopped with {left} task(s) "
        "pending and later stages did not run. Every finished outcome is stored: re-run with a "
        "larger --max-cost/--max-calls (or none) to resume.",
        err=True,
    )


def keys_not_needed() -> Any:
    """For a dry run: an LLM judge's client insists on an API key when it is built, but a dry
    run never calls it; a placeholder stands in for a missing key while the judges are built,
    and the environment is restored right after."""
    import contextlib
    import os

    from toolex.llm.clients import KEY_ENV

    @contextlib.contextmanager
    def block() -> Any:
        missing = [env for env in KEY_ENV.values() if not os.environ.get(env)]
        for env in missing:
            os.environ[env] = "dry-run-no-key"
        try:
            yield
        finally:
            for env in missing:
                os.environ.pop(env, None)

    return block()


def total_row(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The dry run's last row: calls and estimated cost over every stage (unknown when any
    stage's price is)."""
    costs = [r["cost_usd_at_most"] for r in rows]
    return {
        "stage": "total",
        "judge": "",
        "tasks_now": sum(r["tasks_now"] for r in rows),
        "calls_now": sum(r["calls_now"] for r in rows),
        "cached": sum(r["cached"] for r in rows),
        "screened": sum(r.get("screened", 0) for r in rows),
        "reused": sum(r.get("reused", 0) for r in rows),
        "tasks_later_at_most": sum(r["tasks_later_at_most"] for r in rows),
        "cost_usd_at_most": None if any(c is None for c in costs) else round(sum(costs), 4),
    }


def _say_if_complete(store: Any, benchmark: str, expansion: str, rows: list[dict]) -> None:
    """A dry run over an expansion with nothing left to do says so, and who did the work."""
    from toolex.pipeline import record
    from toolex.pipeline.outcome import expansion_outcome

    if any(r["tasks_now"] or r["tasks_later_at_most"] for r in rows):
        return
    done = expansion_outcome(store, benchmark, expansion)
    if not done.decomposed:
        return
    judges = record.stored(store, benchmark, expansion).get("judges") or {}
    by = ", ".join(f"{stage} by {spec}" for stage, spec in judges.items()) or "judges unrecorded"
    click.echo(
        f"expansion {expansion!r} of {benchmark!r} is complete ({by}): nothing left to call; "
        f"{done.valid} valid combinations, {done.with_alternative} of {done.queries} queries "
        "with an alternative",
        err=True,
    )


def _say_outcome(store: Any, benchmark: str, expansion: str, fmt: str) -> None:
    """What the expansion now holds (the store, not this run), and loud warnings when it is
    degenerate: the last thing `expand` prints."""
    from toolex.cli.progress import say
    from toolex.pipeline.outcome import degenerate_warnings, expansion_outcome

    done = expansion_outcome(store, benchmark, expansion)
    warnings = degenerate_warnings(done)
    if fmt == "table":
        row = done.row() | {"degenerate": "yes: see the warnings" if warnings else "no"}
        emit_rows([row], fmt, title=f"outcome of {benchmark} / {expansion} (the whole expansion)")
    for warning in warnings:
        click.echo(f"warning: degenerate expansion: {warning}", err=True)
    say(
        f"outcome: {done.valid} valid combinations; "
        f"{done.equivalents_per_subquery:.2f} equivalents per sub-query; "
        f"{done.with_alternative} of {done.queries} queries with an alternative"
        + (f"; {done.failed_queries} with a failed task" if done.failed_queries else "")
    )
