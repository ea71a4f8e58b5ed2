"""`toolex expand` (run the annotation pipeline) and `toolex stats` (the annotation table)."""

from __future__ import annotations

import click

from toolex.cli.options import (
    benchmark_option,
    deprecated_k,
    db_option,
    emit_rows,
    expansion_option,
    format_option,
    open_store,
    scope_option,
)
from toolex.pipeline.settings import (
    AUDIT_CAP,
    CANDIDATE_RETRIEVER,
    CANDIDATES_PER_SUBQUERY,
    PLATFORM_RULE,
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
@click.option("--limit", type=int, default=None, help="Only the first N queries (by id).")
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
    "Library the candidates come from (auto: the query's task when the items "
    "have tasks, else the whole benchmark).",
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
    type=int,
    default=None,
    help=f"Combinations audited per query, best RRF first (default {AUDIT_CAP}); the rest are cut.",
)
@click.option(
    "--platform-rule",
    type=click.Choice(["strict", "feeds"]),
    default=PLATFORM_RULE,
    show_default=True,
    help="feeds: tools whose docs show an id/token hand-off must share a platform; strict: "
    "also any two GT tools that share a platform (conservative).",
)
@click.option("--retry-failed", is_flag=True, help="Retry tasks whose earlier answer failed.")
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
    depth: int | None,
    old_k: int | None,
    audit_cap: int | None,
    platform_rule: str,
    retry_failed: bool,
    dry_run: bool,
) -> None:
    """Expand a benchmark's annotation: decompose, retrieve + verify, assemble + audit.

    Every outcome is stored as it completes; re-running resumes and never repeats finished work.
    Prints what each stage did (tasks, failures, calls, cost; rejected_platform = audit calls
    saved, cut = beyond the audit cap).

    \b
    Example:
      toolex expand --benchmark stabletoolbench --judge heuristic
      toolex expand --benchmark toolret --task apibank --config toolex.toml --stage verify
    """
    from toolex.judges import judges_for
    from toolex.pipeline.config import expand_settings, load_config
    from toolex.pipeline.runner import run_expansion, select_queries

    config = load_config(config_path) if config_path else None
    settings = expand_settings(
        config,
        retriever=retriever,
        depth=depth or deprecated_k(old_k),
        audit_cap=audit_cap,
        scope=scope,
        platform_rule=platform_rule,
    )
    store = open_store(db, read_only=dry_run)
    judges = judges_for(store, judge=judge, config=config, benchmark=benchmark)
    if dry_run:
        from toolex.pipeline.dryrun import estimate

        ids = select_queries(store, benchmark, list(query_ids) or None, task, limit)
        emit_rows(
            estimate(store, benchmark, expansion, ids, judges, settings, STAGE_GROUPS[stage]),
            fmt,
            title="dry run: calls the run would make",
        )
        return
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
    )
    emit_rows(
        report.rows(), fmt, title=f"expand {benchmark} / {expansion}: {report.queries} queries"
    )
    for row in report.pending_failures:
        click.echo(
            f"note: {row['failed']} {row['stage']} task(s) failed and wait for "
            "--retry-failed (see the stage_failures table and the llm_calls ledger)",
            err=True,
        )


@click.command()
@db_option
@format_option
@benchmark_option()
@expansion_option()
@click.option(
    "--by",
    type=click.Choice(["all", "category", "task"]),
    default="all",
    show_default=True,
    help="One row for all queries, or also one per category/task.",
)
def stats(db: str, fmt: str, benchmark: str, expansion: str, by: str) -> None:
    """The annotation table of an expansion (queries annotated, sub-queries, verified items,
    valid combinations, shares with equivalents/alternatives).

    \b
    Example:
      toolex stats --benchmark stabletoolbench --by category
    """
    from toolex.pipeline.stats import annotation_table, combination_counts

    store = open_store(db, read_only=True)
    emit_rows(
        annotation_table(store, benchmark, expansion, by),
        fmt,
        title=f"annotation of {benchmark} / {expansion}",
    )
    counts = combination_counts(store, benchmark, expansion)
    if counts:
        click.echo(
            "combinations by status: " + ", ".join(f"{k} {v}" for k, v in counts.items()), err=True
        )
