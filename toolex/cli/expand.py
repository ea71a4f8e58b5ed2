"""`toolex expand` (run the annotation pipeline) and `toolex stats` (the annotation table)."""

from __future__ import annotations

from typing import Any

import click

from toolex.cli.options import (
    benchmark_option,
    db_option,
    emit_rows,
    expansion_option,
    format_option,
    open_store,
    scope_option,
)

STAGE_CHOICES = ("all", "decompose", "candidates", "verify", "assemble", "audit")


class RichProgress:
    """One rich progress bar per stage on stderr: done/total, ETA, calls and cost so far."""

    def __init__(self) -> None:
        from rich.console import Console

        self.console = Console(stderr=True)
        self.bar: Any = None
        self.task: Any = None
        self.calls = 0
        self.cost = 0.0

    def start(self, stage: str, total: int) -> None:
        from rich.progress import TextColumn, TimeElapsedColumn, TimeRemainingColumn

        from toolex.progress import counting_bar

        if total <= 0:
            return
        self.bar = counting_bar(
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[calls]} calls  ${task.fields[cost]:.4f}"),
            console=self.console,
            label="{task.description:<10}",
        )
        self.bar.start()
        self.task = self.bar.add_task(stage, total=total, calls=self.calls, cost=self.cost)

    def advance(self, n: int = 1, calls: int = 0, cost_usd: float = 0.0) -> None:
        self.calls, self.cost = calls, cost_usd
        if self.bar is not None:
            self.bar.update(self.task, advance=n, calls=calls, cost=cost_usd)

    def finish(self) -> None:
        if self.bar is not None:
            self.bar.stop()
        self.bar = None


def build_judges(spec: str | None, config: Any, store: Any, benchmark: str) -> dict[str, Any]:
    """Judges per stage: ``--judge`` for all stages, else the config file's [judges], else
    heuristic. One judge object per distinct spec (they may hold clients and caches). The
    heuristic judge takes its IDF from this benchmark's library only, so its verdicts do not
    depend on what else the store holds."""
    from toolex.judges import make_judge

    specs = dict(config.judges) if config is not None else {}
    stages = ("decompose", "verify", "audit")
    chosen = {s: spec or specs.get(s, "heuristic") for s in stages}
    built: dict[str, Any] = {}
    for s in set(chosen.values()):
        built[s] = (
            make_judge(s, store=store, config=config)
            if s != "heuristic"
            else make_judge(s, store=store, benchmark=benchmark)
        )
    return {stage: built[chosen[stage]] for stage in stages}


@click.command()
@db_option
@format_option
@benchmark_option()
@expansion_option()
@click.option(
    "--stage",
    type=click.Choice(STAGE_CHOICES),
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
@click.option("--retriever", default=None, help="Candidate retriever spec (default bm25).")
@scope_option(
    "Library the candidates come from (auto: the query's task when the items "
    "have tasks, else the whole benchmark).",
)
@click.option("--k", type=int, default=None, help="Candidates per sub-query (default 20).")
@click.option(
    "--audit-cap",
    type=int,
    default=None,
    help="Combinations audited per query, best RRF first (default 20); the rest are cut.",
)
@click.option(
    "--platform-rule",
    type=click.Choice(["strict", "feeds"]),
    default="feeds",
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
    k: int | None,
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
    from toolex.pipeline.runner import STAGE_GROUPS, Settings, run_expansion, select_queries

    config = None
    if config_path:
        from toolex.llm.config import load_config

        config = load_config(config_path)
    exp_cfg = getattr(config, "expand", None)
    settings = Settings(
        retriever=retriever or getattr(exp_cfg, "retriever", None) or "bm25",
        k=k or getattr(exp_cfg, "k", None) or 20,
        scope=scope,
        audit_cap=audit_cap if audit_cap is not None else getattr(exp_cfg, "audit_cap", 20),
        platform_rule=platform_rule,
    )
    store = open_store(db, read_only=dry_run)
    judges = build_judges(judge, config, store, benchmark)
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
        progress=RichProgress(),
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
