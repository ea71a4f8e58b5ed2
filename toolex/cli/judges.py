"""`toolex judges eval`: measure judges against verdict labels (or audit verdicts against review
labels) and print precision, recall, F1, accuracy, kappa with intervals, per stratum, and the
mistakes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from toolex.cli.judge_options import (
    Asked,
    Extent,
    Measured,
    Shown,
    asked_options,
    extent_options,
    measured_options,
    shown_options,
)
from toolex.cli.options import db_option, emit_rows, open_store

if TYPE_CHECKING:  # imported when a command runs: `toolex --help` stays light
    from collections.abc import Callable

    from toolex.labels.quality import Figures, Interval
    from toolex.labels.report import Evaluation, PlanRow, Scored


@click.group("judges")
def judges() -> None:
    """Measure judges against labels.

    \b
    Examples:
      toolex judges eval --judge heuristic
      toolex judges eval --judge heuristic --judge openai:gpt-4o-mini --dry-run
      toolex judges eval --stage audit --sample audit1
    """


@judges.command("eval", short_help="Run judges on labelled verdicts and measure them.")
@measured_options
@asked_options
@extent_options
@shown_options
@db_option
def eval_cmd(measured: Measured, asked: Asked, extent: Extent, shown: Shown, db: str) -> None:
    """Run judges on labelled verdicts and measure them against the labels: n, precision,
    recall, F1, accuracy next to always answering "no", Cohen's kappa (95% intervals), the
    confusion matrix, the same per benchmark, part and rank band, and the false accepts and
    false rejects with the label's note and the judge's reason.

    Without stored labels and --labels, the shipped set is used (it needs toolret and
    stabletoolbench loaded). LLM judges go through the call ledger: cached, costed, resumable.
    Each result is saved in the table judge_evaluations (not one --max-calls stopped).

    \b
    Example:
      toolex judges eval --judge heuristic --judge heuristic:prescreen
      toolex judges eval --judge openai:gpt-4o-mini --config toolex.toml --dry-run
      toolex judges eval --judge compat:http://127.0.0.1:8080/v1#qwen2.5-1.5b \\
          --limit 40 --seed 1 --max-calls 200
      toolex judges eval --stage audit --sample audit1 --judge heuristic
    """
    from toolex.pipeline.config import load_config

    specs, stage, sample_id = measured.specs, measured.stage, measured.sample_id
    limit, max_calls, dry_run = extent.limit, extent.max_calls, extent.dry_run
    fmt, n_errors = shown.fmt, shown.n_errors
    ctx = click.get_current_context()
    seeded = ctx.get_parameter_source("seed") == click.core.ParameterSource.COMMANDLINE
    if seeded and not limit and max_calls is None:
        raise click.UsageError(
            "--seed draws the --limit sample and orders a --max-calls run: give one of them"
        )
    config = load_config(asked.config_path) if asked.config_path else None
    if stage == "audit":
        if not sample_id:
            raise click.UsageError("--stage audit needs --sample (a review sample)")
        if limit is not None or max_calls is not None:
            raise click.UsageError("--limit and --max-calls are for --stage verify")
        from toolex.review.audit_eval import evaluate_audit, plan_audit

        with open_store(db, read_only=dry_run) as store:
            if dry_run:
                rows = plan_audit(store, sample_id, specs, config=config)
                title = f"dry run: judges eval --stage audit on {sample_id}"
                emit_rows([r._asdict() for r in rows], fmt, title=title)
                click.echo(_cost_line(rows), err=True)
                return
            evaluation = evaluate_audit(store, sample_id, specs, config=config)
        _print(evaluation, fmt, n_errors)
        return
    if not specs:
        raise click.UsageError("name the judge(s) to measure with --judge")
    from toolex.labels.evaluate import chosen_labels, evaluate_verify, plan_verify, sample_labels
    from toolex.llm.budget import Budget

    with open_store(db, read_only=dry_run) as store:
        labels, name, notes = chosen_labels(
            store,
            source=measured.source,
            labels_file=measured.labels_file,
            benchmark=measured.benchmark,
        )
        labels, name, sampled = sample_labels(labels, name, limit, extent.seed)
        for note in notes + sampled:
            click.echo(f"note: {note}", err=True)
        options: dict[str, Any] = dict(
            expansion=asked.expansion, subqueries=asked.subqueries, config=config
        )
        if dry_run:
            rows, notes = plan_verify(store, specs, labels, **options)
            title = f"dry run: judges eval on {len(labels)} labels of {name}"
            emit_rows([r._asdict() for r in rows], fmt, title=title)
            for note in notes:
                click.echo(f"note: {note}", err=True)
            click.echo(_cost_line(rows), err=True)
            if max_calls is not None:
                click.echo(f"--max-calls {max_calls}: the run stops after that many", err=True)
            return
        budget = Budget(max_calls=max_calls) if max_calls is not None else None
        evaluation = evaluate_verify(
            store, specs, labels, name, **options, budget=budget, seed=extent.seed
        )
    _print(evaluation, fmt, n_errors, saved=budget is None or not budget.exhausted)
    if budget is not None and budget.exhausted:
        from toolex.cli.expand import BUDGET_EXIT

        raise click.exceptions.Exit(BUDGET_EXIT)


def _cost_line(rows: list[PlanRow]) -> str:
    calls = sum(r.calls for r in rows)
    cached = sum(r.cached for r in rows)
    known = sum(r.cost_usd for r in rows if r.cost_usd is not None)
    unpriced = [r.judge for r in rows if r.cost_usd is None]
    cost = f"estimated cost ${known:.4f}"
    if unpriced:
        cost += f" plus the calls of {', '.join(unpriced)} (no known price)"
    return (
        f"dry run: {calls} calls to make, {cached} answered by the ledger, {cost}; "
        "nothing was called"
    )


def _print(evaluation: Evaluation, fmt: str, n_errors: int, saved: bool = True) -> None:
    from toolex.cli.judge_output import as_dict, metric_rows

    if fmt == "json":
        import json

        click.echo(json.dumps(as_dict(evaluation, n_errors), indent=2, default=str))
    elif fmt == "csv":
        emit_rows(metric_rows(evaluation), fmt)
    else:
        _tables(evaluation, n_errors)
    for note in evaluation.notes:
        click.echo(f"note: {note}", err=True)
    for r in evaluation.reports:
        if r.failed:
            key, error = r.failed[0]
            click.echo(
                f"note: {r.judge}: {len(r.failed)} answer(s) failed and are not counted "
                f"(e.g. {key}: {error})",
                err=True,
            )
        if r.calls:
            click.echo(
                f"{r.judge}: {r.calls['made']} calls made, {r.calls['cached']} answers from the "
                f"ledger, ${r.calls['cost_usd']:.4f}",
                err=True,
            )
    click.echo(f"intervals: {evaluation.intervals}", err=True)
    if saved:
        click.echo(
            f"saved to judge_evaluations (stage {evaluation.stage}, source {evaluation.source})",
            err=True,
        )


def _tables(evaluation: Evaluation, n_errors: int) -> None:
    reports = evaluation.reports
    head = f"{evaluation.stage} verdicts vs {evaluation.labels} labels of {evaluation.source}"
    for screen, figures, title in (
        (False, _JUDGE_FIGURES, head),
        (True, _SCREEN_FIGURES, f"{head}: pre-screens"),
    ):
        shown = [r for r in reports if r.screen == screen]
        if shown:
            rows = [
                {"figure": name, **{r.judge: get(r.overall) for r in shown}}
                for name, get in figures
            ]
            emit_rows(rows, "table", title=title)
    for r in reports:
        figures = _SCREEN_STRATA if r.screen else _JUDGE_STRATA
        rows = [
            {"by": dim, "stratum": value, **{name: get(f) for name, get in figures}}
            for dim, value, f in r.strata
        ]
        emit_rows(rows, "table", title=f"{r.judge}: per stratum")
    for r in reports:
        kinds = [("equivalents screened out", r.false_rejects)]
        if not r.screen:
            kinds = [("false accepts", r.false_accepts), ("false rejects", r.false_rejects)]
        for title, mistakes in kinds:
            if mistakes and n_errors:
                shown_ = mistakes[:n_errors]
                click.echo(f"\n{r.judge}: {title}, {len(shown_)} of {len(mistakes)}")
                for i, m in enumerate(shown_, start=1):
                    click.echo(_mistake(i, m))


def _cells(f: Figures) -> str:
    c = f.confusion
    return f"{c.tp} / {c.fp} / {c.fn} / {c.tn}"


_JUDGE_FIGURES: list[tuple[str, Callable[[Figures], object]]] = [
    ("n", lambda f: f.confusion.n),
    ("labelled yes", lambda f: f.confusion.tp + f.confusion.fn),
    ("precision", lambda f: f.precision.show()),
    ("recall", lambda f: f.recall.show()),
    ("F1", lambda f: f.f1.show()),
    ("accuracy", lambda f: f.accuracy.show()),
    ('accuracy of always "no"', lambda f: f.baseline.show()),
    ("kappa", lambda f: f.kappa.show()),
    ("tp / fp / fn / tn", _cells),
]
_SCREEN_FIGURES: list[tuple[str, Callable[[Figures], object]]] = [
    ("n", lambda f: f.confusion.n),
    ("labelled equivalents", lambda f: f.confusion.tp + f.confusion.fn),
    ("equivalents kept (recall)", lambda f: f.recall.show()),
    ("equivalents lost", lambda f: f.confusion.fn),
    ("candidates discarded", lambda f: f.discarded.show()),
    ("precision of the kept", lambda f: f.precision.show()),
    ("tp / fp / fn / tn", _cells),
]
_JUDGE_STRATA: list[tuple[str, Callable[[Figures], object]]] = [
    ("n", lambda f: f.confusion.n),
    ("yes", lambda f: f.confusion.tp + f.confusion.fn),
    ("precision", lambda f: f.precision.show(2)),
    ("recall", lambda f: f.recall.show(2)),
    ("F1", lambda f: _point(f.f1)),
    ("accuracy", lambda f: _point(f.accuracy)),
    ("always no", lambda f: _point(f.baseline)),
    ("kappa", lambda f: _point(f.kappa)),
]
_SCREEN_STRATA: list[tuple[str, Callable[[Figures], object]]] = [
    ("n", lambda f: f.confusion.n),
    ("equivalents", lambda f: f.confusion.tp + f.confusion.fn),
    ("kept (recall)", lambda f: f.recall.show(2)),
    ("lost", lambda f: f.confusion.fn),
    ("discarded", lambda f: f.discarded.show(2)),
]


def _point(iv: Interval) -> str:
    return "" if iv.value is None else f"{iv.value:.3f}"


def _mistake(i: int, s: Scored) -> str:
    d = s.detail
    if "combo_id" in d:
        what = f"{d['benchmark']} {d['query_id']} combination {d['combo_id']}"
    else:
        what = (
            f"{d['benchmark']} {d['query_id']} slot {d['slot']}: {d['subquery']}\n"
            f"     reference {d['reference']}\n     candidate {d['candidate']}"
        )
    label = "yes" if s.label else "no"
    note = f": {s.note}" if s.note else ""
    return f"  {i}. {what}\n     label {label}{note}\n     judge {s.reason}"
