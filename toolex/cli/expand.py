"""`toolex expand`: run the annotation pipeline over a benchmark, and say what it did."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from toolex.cli.expand_options import (
    PipelineOptions,
    RunControl,
    Selection,
    pipeline_options,
    run_control_options,
    selection_options,
)
from toolex.cli.options import db_option, emit_rows, format_option, open_store

if TYPE_CHECKING:
    import contextlib
    from collections.abc import Iterator, Sequence

    from toolex.pipeline.dryrun import StageEstimate
    from toolex.pipeline.runner import RunReport
    from toolex.store import Store


@click.command(short_help="Expand a benchmark's labels: decompose, verify, audit.")
@db_option
@format_option
@selection_options
@pipeline_options
@run_control_options
def expand(
    db: str, fmt: str, selection: Selection, pipeline: PipelineOptions, control: RunControl
) -> None:
    """Expand a benchmark's annotation: decompose, retrieve + verify, assemble + audit.

    Every outcome is stored as it completes; re-running resumes and never repeats finished work.
    The expansion records the settings and judge each stage ran with; re-running it with other
    settings is refused (use a new --expansion name, or --replace). Prints what each stage did
    (tasks, failures, calls, cost; rejected_platform = audit calls saved, repeated = a tool set
    the query already holds, cut = beyond the audit cap or the safety limit).

    \b
    Example:
      toolex expand --benchmark stabletoolbench --judge heuristic
      toolex expand --benchmark toolret --task apibank --config toolex.toml \\
          --stage verify
      toolex expand --benchmark toolret --expansion capped --audit-cap 20 \\
          --scope task
      toolex expand --benchmark toolret --expansion de --rendering gpt-4o-mini
      toolex expand --benchmark toolret --config toolex.toml --max-cost 5 \\
          --order uncertainty
    """
    setup = pipeline.setup()
    settings = setup.settings
    benchmark, expansion = selection.benchmark, selection.expansion
    if control.dry_run and control.replace:
        raise click.UsageError("--dry-run estimates the expansion as stored; drop --replace")
    store = open_store(db, read_only=control.dry_run)
    click.get_current_context().call_on_close(store.close)  # a refused run leaves no lock behind
    if control.dry_run:
        from toolex.pipeline.dryrun import estimate, total_row
        from toolex.pipeline.runner import check_settings, select_queries
        from toolex.pipeline.stage import StageContext

        with keys_not_needed():  # a dry run makes no call: clients are built, never used
            judges = setup.judges(store, benchmark)
        ids = select_queries(store, benchmark, selection.queries, selection.task, selection.limit)
        ctx = StageContext(store, benchmark, expansion, ids)
        check_settings(ctx, selection.stages, settings, judges)
        if "candidates" in selection.stages and ids:  # the run would refuse: so does its estimate
            from toolex.pipeline.candidates import check_source

            check_source(store, benchmark, expansion, ids, settings.retriever)
        rows = estimate(ctx, judges, settings, selection.stages)
        emit_rows(
            [r.as_row() for r in [*rows, total_row(rows)]],
            fmt,
            title="dry run: calls the run would make, and expects (judge: each stage's full spec)",
            shown=DRY_RUN_SHOWN,  # on an 80-column screen: the calls and their cost first
        )
        _say_if_complete(store, benchmark, expansion, rows)
        _say_screen_loss(sum(r.screened for r in rows))
        return
    _refuse_missing_stage(store, selection)
    from toolex.api.expand import expand as run_expansion
    from toolex.cli.progress import interruptible

    with interruptible(
        f"interrupted; re-run to resume (every finished outcome of {benchmark} / {expansion} "
        "is stored)"
    ):
        report = run_expansion(
            store,
            benchmark,
            expansion=expansion,
            judge=setup.judge,
            config=setup.config,
            settings=settings,
            stages=selection.stages,
            queries=selection.queries,
            task=selection.task,
            limit=selection.limit,
            retry_failed=control.retry_failed,
            replace=control.replace,
            budget=control.budget(),
        )
    emit_rows(
        report.rows(), fmt, title=f"this run of {benchmark} / {expansion}: {report.queries} queries"
    )
    _say_screen_loss(sum(int(s.notes.get("screened") or 0) for s in report.stages))
    for stage_counts in report.stages:
        limited = stage_counts.notes.get("queries_at_safety_limit")
        if limited:
            click.echo(
                f"warning: {limited} quer{'y' if limited == 1 else 'ies'} had more than "
                f"{settings.audit_safety_limit} combinations to audit; the rest were cut (see "
                "`toolex stats`; --audit-cap sets an explicit cap instead)",
                err=True,
            )
    for stage_counts in report.stages:
        if stage_counts.hint:  # calls timed out only because the server is slow
            click.echo(f"note: {stage_counts.hint}", err=True)
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
    report.require_outcome()  # every task of a stage failed: an error, not a success


DRY_RUN_SHOWN = [
    "stage",
    "judge",
    "calls_now",
    "calls_expected",
    "cost_usd_expected",
    "cost_usd_at_most",
    "tasks_now",
    "cached",
    "screened",
    "reused",
    "tasks_later_at_most",
    "basis",
]


def _say_screen_loss(screened: int) -> None:
    """Beside the calls the pre-screen saves, what it measured to lose (it is on by choice)."""
    if screened:
        from toolex.pipeline.verify_plan import screen_loss

        click.echo(f"note: {screen_loss(screened)}", err=True)


def _refuse_missing_stage(store: Store, selection: Selection) -> None:
    """A stage whose input no earlier stage made stops here with the stage to run first."""
    from toolex.pipeline.outcome import missing_stage
    from toolex.pipeline.runner import select_queries

    benchmark = selection.benchmark
    store.require_benchmark(benchmark)
    ids = select_queries(store, benchmark, selection.queries, selection.task, selection.limit)
    why = missing_stage(store, benchmark, selection.expansion, ids, selection.stages)
    if why:
        raise click.UsageError(why)


# `toolex expand` exits with this code when its budget stopped the run (2 is an error).
BUDGET_EXIT = 3


def _say_stopped(report: RunReport) -> None:
    """Why the run stopped early, what it spent, and how to go on."""
    budget = report.budget
    assert budget is not None, "a run stops early only at its budget"
    stage = next(s for s in report.stages if s.stage == report.stopped)
    left = stage.tasks - stage.ok - stage.failed
    click.echo(
        f"stopped: the budget ({budget.describe()}) is spent: {budget.calls} calls, "
        f"${budget.spent:.4f} in this run; {report.stopped} stopped with {left} task(s) "
        "pending and later stages did not run. Every finished outcome is stored: re-run with a "
        "larger --max-cost/--max-calls (or none) to resume.",
        err=True,
    )


def keys_not_needed() -> contextlib.AbstractContextManager[None]:
    """For a dry run: an LLM judge's client insists on an API key when it is built, but a dry
    run never calls it; a placeholder stands in for a missing key while the judges are built,
    and the environment is restored right after."""
    import contextlib
    import os

    from toolex.llm.clients import KEY_ENV

    @contextlib.contextmanager
    def block() -> Iterator[None]:
        missing = [env for env in KEY_ENV.values() if not os.environ.get(env)]
        for env in missing:
            os.environ[env] = "dry-run-no-key"
        try:
            yield
        finally:
            for env in missing:
                os.environ.pop(env, None)

    return block()


def _say_if_complete(
    store: Store, benchmark: str, expansion: str, rows: Sequence[StageEstimate]
) -> None:
    """A dry run over an expansion with nothing left to do says so, and who did the work."""
    from toolex.pipeline.outcome import expansion_outcome
    from toolex.pipeline.record import recorded_judges

    if any(r.tasks_now or r.tasks_later_at_most for r in rows):
        return
    done = expansion_outcome(store, benchmark, expansion)
    if not done.decomposed:
        return
    judges = recorded_judges(store, benchmark, expansion)
    by = ", ".join(f"{stage} by {spec}" for stage, spec in judges.items()) or "judges unrecorded"
    click.echo(
        f"expansion {expansion!r} of {benchmark!r} is complete ({by}): nothing left to call; "
        f"{done.valid} valid combinations ({done.alternatives} alternatives to the originals), "
        f"{done.with_alternative} of {done.queries} queries with an alternative",
        err=True,
    )


def _say_outcome(store: Store, benchmark: str, expansion: str, fmt: str) -> None:
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
        f"outcome: {done.valid} valid combinations ({done.alternatives} alternatives to the "
        "originals); "
        f"{done.equivalents_per_subquery:.2f} equivalents per sub-query; "
        f"{done.with_alternative} of {done.queries} queries with an alternative"
        + (f"; {done.failed_queries} with a failed task" if done.failed_queries else "")
    )
