"""`toolex ledger`: what the LLM calls cost and what they answered, from the call ledger."""

from __future__ import annotations

import click

from toolex.cli.options import db_option, emit_rows, format_option, open_store
from toolex.llm.usage import GROUPS

USAGE_COLUMNS = [
    *GROUPS,
    "attempts",
    "ok",
    "failed",
    "pending",
    "tokens_in",
    "tokens_out",
    "cost_usd",
    "unpriced",
    "tasks",
    "served",
    "reused",
]


@click.command("ledger", short_help="LLM calls, tokens, cost and cache hits by stage and judge.")
@db_option
@format_option
@click.option(
    "--by",
    "by",
    type=click.Choice(list(GROUPS)),
    multiple=True,
    help="Group by these columns (repeatable; default: stage, judge and model).",
)
@click.option(
    "--uncalled",
    is_flag=True,
    help="Instead: the outputs no call made, by stage and who decided them (reference, "
    "heuristic, heuristic:prescreen, platform_rule, audit_cap, ...).",
)
def ledger(db: str, fmt: str, by: tuple[str, ...], uncalled: bool) -> None:
    """Calls, tokens, cost, cache hits and reuse by stage, judge and model.

    attempts counts every HTTP attempt (failed ones too: they are paid); tasks are the pipeline
    outputs the calls answered (for the embedding calls of an endpoint retriever, stage embed:
    the texts embedded); served those answered without paying again (an identical prompt, a
    ledger hit from an earlier run); reused the verdicts carried over from another sub-query's
    verdict on the same pair (`expand --reuse`). cost_usd is what each call cost when it was
    made (unpriced: calls whose model had no price). On stderr: the outputs no call made, which
    --uncalled prints as rows.

    \b
    Example:
      toolex ledger
      toolex ledger --by stage --format csv
      toolex ledger --uncalled
    """
    from toolex.llm import usage

    groups = [g for g in GROUPS if g in by] if by else list(GROUPS)
    with open_store(db, read_only=True) as store:
        if uncalled:
            emit_rows(
                [r._asdict() for r in usage.uncalled(store)],
                fmt,
                title="outputs no call made",
                columns=["stage", "decided_by", "tasks"],
            )
            return
        rows = usage.usage(store, groups)
        free = usage.uncalled(store)
    columns = [c for c in USAGE_COLUMNS if c not in GROUPS or c in groups]
    # On an 80-column screen what a call cost comes before how it was served.
    first = [*groups, "attempts", "ok", "failed", "cost_usd", "tokens_in", "tokens_out"]
    shown = [*first, *(c for c in columns if c not in first)]
    printed = [r._asdict() for r in rows]  # the columns of --by alone: ``columns`` picks them
    emit_rows(printed, fmt, title="LLM calls by " + ", ".join(groups), columns=columns, shown=shown)
    if free:
        click.echo(
            "answered without a call: "
            + "; ".join(f"{r.stage} {r.decided_by} {r.tasks}" for r in free)
            + " (--uncalled lists them)",
            err=True,
        )
