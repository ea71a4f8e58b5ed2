"""`toolex stats`: the annotation table of an expansion, and what stands behind its numbers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from toolex.cli.options import (
    ExpansionRef,
    benchmark_option,
    db_option,
    emit_rows,
    expansion_option,
    expansion_ref,
    format_option,
    open_store,
    option_group,
    wide_option,
)

# The annotation table's columns a table shows by default (a few of sql/stages/expansion/06's),
# most important first: what the paper reports, within 80 columns (on a narrower terminal the
# last go first); --wide shows the rest, --format csv|json carries them all.
ANNOTATION_SHOWN = (
    "category",
    "queries",
    "queries_with_alt",
    "valid_combos",
    "subs_with_equiv",
    "subqueries",
)
# The columns of --edges (sql/stages/expansion/08), for a header over zero rows.
EDGE_COLUMNS = [
    "query_id",
    "task",
    "edges_loaded",
    "edges_imported",
    "derived_from_docs",
    "same_platform",
    "dependent_pairs",
    "dependency_unchecked",
]
EDGES_SHOWN = (  # most important first, as ANNOTATION_SHOWN
    "query_id",
    "dependent_pairs",
    "edges_loaded",
    "derived_from_docs",
    "edges_imported",
    "dependency_unchecked",
    "same_platform",
    "task",
)

if TYPE_CHECKING:
    from toolex.store import Store


@dataclass(frozen=True)
class StatsView:
    """Which table `toolex stats` prints: the annotation table by a grouping, or instead the
    dependencies, the failed queries or the rule's rejections."""

    by: str
    edges: bool
    failures: bool
    rejections: bool


view_options = option_group(
    "view",
    [
        click.option(
            "--by",
            type=click.Choice(["all", "category", "task"]),
            default="category",
            show_default=True,
            help="Group queries by category or by task, as `eval --by` does; the 'all' row is "
            "always first (--by all: only that row).",
        ),
        click.option(
            "--edges",
            is_flag=True,
            help="Instead: one row per query with dependencies, counting its explicit edges "
            "(loaded, "
            "imported) and the pairs derived from the docs.",
        ),
        click.option(
            "--failures",
            is_flag=True,
            help="Instead: every query with a failed task (stage, reason, effect).",
        ),
        click.option(
            "--rejections",
            is_flag=True,
            help="Instead: the combinations the dependency rule rejected, with its reason: every "
            "query's count, and its first (best-ranked) rejections with their members.",
        ),
    ],
    StatsView,
)


@click.command(short_help="The annotation table of an expansion, and its trust.")
@db_option
@format_option
@wide_option
@expansion_ref(benchmark_option(), expansion_option())
@view_options
def stats(db: str, fmt: str, wide: bool, ref: ExpansionRef, view: StatsView) -> None:
    """The annotation table of an expansion (queries annotated, sub-queries, verified items,
    valid combinations, shares with equivalents/alternatives; a table shows the main columns
    within 80 characters, --wide every column, --format csv|json carries them all), then on stderr
    what stands behind it: each stage judge's measured precision and recall, or
    "unvalidated", and the review's combination precision (JSON rows also carry it as
    `trust`).

    Combination counts add up: assembled = valid + rejected_platform + repeated +
    rejected_audit + cut + pending; valid combinations are distinct tool sets (repeated: one
    the query already held, never stored). Also on stderr: items with a platform per task
    (where none is known, hand-offs cannot be checked), where the dependencies came from, and
    queries the audit's safety limit cut.

    Why the dependency rule rejected combinations: --rejections lists them (each query's count,
    and its first rejections, best ranked, with members and reason).

    Queries whose decomposition failed keep new = old: every query with a failed task is
    listed after the table with its reason (--failures: that list alone, in any --format).

    \b
    Example:
      toolex stats --benchmark stabletoolbench --by category
      toolex stats --benchmark toolret --edges --format csv
      toolex stats --benchmark stabletoolbench --failures --format csv
      toolex stats --benchmark stabletoolbench --rejections
    """
    from toolex.pipeline.outcome import FAILED_COLUMNS, failed_queries

    benchmark, expansion = ref.benchmark, ref.expansion
    store = open_store(db, read_only=True)
    failed = failed_queries(store, benchmark, expansion)
    if view.failures:
        title = f"failed queries of {benchmark} / {expansion}"
        emit_rows([f._asdict() for f in failed], fmt, title=title, columns=FAILED_COLUMNS)
        return
    if view.rejections:
        _rejections(store, benchmark, expansion, fmt)
        return
    if view.edges:
        _edges(store, ref, fmt, wide)
        return
    _annotation(store, ref, view.by, fmt, wide)
    n_failed = len({f.query_id for f in failed})
    if failed and fmt == "table":
        title = f"{n_failed} queries with a failed task (`expand --retry-failed` retries them)"
        emit_rows([f._asdict() for f in failed], fmt, title=title, columns=FAILED_COLUMNS)
    elif failed:
        click.echo(
            f"note: {n_failed} queries have a failed task; `toolex stats --failures` lists them "
            "with their reasons",
            err=True,
        )


def _edges(store: Store, ref: ExpansionRef, fmt: str, wide: bool) -> None:
    """--edges: one row per query with dependencies, and why there may be none."""
    from toolex.pipeline.stats import combination_counts, edges_per_query

    benchmark, expansion = ref.benchmark, ref.expansion
    rows = edges_per_query(store, benchmark, expansion)
    title = f"dependencies per query of {benchmark} / {expansion}"
    printed = [r._asdict() for r in rows]
    emit_rows(printed, fmt, title=title, columns=EDGE_COLUMNS, shown=EDGES_SHOWN, wide=wide)
    if not combination_counts(store, benchmark, expansion):
        click.echo(
            f"note: expansion {expansion!r} of {benchmark} is not assembled yet (`toolex "
            "expand`), so only the explicit edges (loaded, imported) are known: "
            "derived_from_docs, same_platform, dependent_pairs and dependency_unchecked "
            "are counted by the assembly, and read 0 until it has run",
            err=True,
        )
    elif not rows:
        click.echo(
            f"note: no query of {benchmark} has a dependency: no edge was loaded or "
            "imported, and the assembly derived none from the docs",
            err=True,
        )


def _annotation(store: Store, ref: ExpansionRef, by: str, fmt: str, wide: bool) -> None:
    """The annotation table, then on stderr the combinations by status, the notes and the
    trust behind it."""
    from toolex.api.reports import trust as expansion_trust
    from toolex.cli.trust import echo_trust
    from toolex.pipeline.stats import annotation_rows, combination_counts, notes

    benchmark, expansion = ref.benchmark, ref.expansion
    rows: list[dict[str, object]] = [
        r._asdict() for r in annotation_rows(store, benchmark, expansion, by)
    ]
    trust = expansion_trust(store, benchmark, expansion)
    if fmt == "json":  # csv stays one plain table; every format gets the lines on stderr
        rows = [{**r, "trust": trust.as_dict() if trust else None} for r in rows]
    emit_rows(
        rows,
        fmt,
        title=f"annotation of {benchmark} / {expansion}",
        shown=ANNOTATION_SHOWN,
        wide=wide,
    )
    counts = combination_counts(store, benchmark, expansion)
    if counts:
        click.echo(
            "combinations by status: " + ", ".join(f"{k} {v}" for k, v in counts.items()), err=True
        )
    for line in notes(store, benchmark, expansion):
        click.echo(line, err=True)
    echo_trust([trust])


def _rejections(store: Store, benchmark: str, expansion: str, fmt: str) -> None:
    from toolex.pipeline.assemble import REASONS_KEPT
    from toolex.pipeline.stats import rule_rejections

    rows = rule_rejections(store, benchmark, expansion)
    emit_rows(
        [r._asdict() for r in rows],
        fmt,
        title=f"combinations the dependency rule rejected in {benchmark} / {expansion}",
        columns=["query_id", "rejected", "rrf_rank", "members", "reason"],
    )
    counts = {r.query_id: r.rejected for r in rows}
    shown = sum(1 for r in rows if r.rrf_rank is not None)
    click.echo(
        f"{sum(counts.values())} combination(s) rejected in {len(counts)} quer"
        f"{'y' if len(counts) == 1 else 'ies'}; {shown} listed with their reason (the first "
        f"{REASONS_KEPT} of each query, best ranked: the rest are counted, not stored)",
        err=True,
    )
