"""`toolex info`: what a store holds, at a glance: tables, benchmarks, expansions and runs with
their counts (the `\\d` of psql, the `.tables` of the duckdb shell)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from toolex.cli.options import db_option, emit_rows, format_option, open_store

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import NamedTuple

    from toolex.store import Store


def _sections() -> dict[str, Callable[[Store], Sequence[NamedTuple]]]:
    """section -> the owning package's typed query (imported when a section is read)."""
    from toolex.runs import list_runs
    from toolex.store import benchmark_info, expansion_info, table_counts

    return {
        "tables": table_counts,
        "benchmarks": benchmark_info,
        "expansions": expansion_info,
        "runs": list_runs,
    }


# section -> columns printed when the section is empty (the fields of its rows)
SECTIONS: dict[str, list[str]] = {
    "tables": ["table", "rows"],
    "benchmarks": ["benchmark", "format", "items", "queries", "labels", "source"],
    "expansions": [
        "benchmark",
        "expansion",
        "subqueries",
        "valid",
        "alternatives",
        "queries_with_alternative",
        "failed",
    ],
    "runs": [
        "run",
        "benchmark",
        "level",
        "retriever",
        "source",
        "queries",
        "results",
        "created_at",
    ],
}


def section_rows(store: Store, section: str) -> list[dict[str, object]]:
    return [row._asdict() for row in _sections()[section](store)]


def table_counts(db: str) -> list[dict[str, object]]:
    """Every table of the store at ``db`` with its row count (`toolex sql --tables`)."""
    with open_store(db, read_only=True) as store:
        return section_rows(store, "tables")


@click.command("info", short_help="What the store holds: tables, benchmarks, expansions, runs.")
@db_option
@format_option
@click.option(
    "--only",
    type=click.Choice(list(SECTIONS)),
    default=None,
    help="Print one section (needed with --format csv: one table per file).",
)
def info(db: str, fmt: str, only: str | None) -> None:
    """What the store holds: its tables (rows), benchmarks (items, queries, labels), expansions
    (sub-queries, valid combinations with the originals, alternatives to the originals, queries
    with an alternative, failed tasks) and runs.

    \b
    Examples:
      toolex info
      toolex info --only runs --format csv
      toolex info --format json
    """
    if fmt == "csv" and only is None:
        raise click.UsageError("--format csv prints one table: add --only tables|benchmarks|...")
    sections = [only] if only else list(SECTIONS)
    with open_store(db, read_only=True) as store:
        data = {s: section_rows(store, s) for s in sections}
    if fmt == "json" and only is None:
        from toolex.cli.output import json_text, json_value

        click.echo(json_text({s: json_value(rows) for s, rows in data.items()}, indent=2))
        return
    for section in sections:
        emit_rows(data[section], fmt, title=section, columns=SECTIONS[section])
