"""`toolex check`: run every invariant of sql/checks/ against the store; non-zero exit on any
violation."""

from __future__ import annotations

import sys
import textwrap
from typing import TYPE_CHECKING

import click

from toolex.checks import run_checks
from toolex.cli.options import db_option, emit_rows, format_option, open_store
from toolex.cli.output import json_text, json_value
from toolex.cli.tables import print_table, terminal_width

if TYPE_CHECKING:
    from toolex.checks import CheckResult

INDENT = " " * 6  # under the name, past the status column


@click.command("check", short_help="Check the store's invariants (each check must return no row).")
@db_option
@click.option(
    "--limit",
    type=click.IntRange(0),
    default=20,
    show_default=True,
    help="Violating rows shown per failing check.",
)
@click.option(
    "-v", "--verbose", is_flag=True, help="Say what every check guards, not only the failing."
)
@format_option
def check(db: str, limit: int, verbose: bool, fmt: str) -> None:
    """Check the store's invariants (each sql/checks/*.sql must return zero rows).

    Prints one line per check: ok or FAIL, its name and, when it fails, how many rows break it.
    Under a failing check (every check with -v) follows the invariant it guards; after the
    list, the first violating rows of each failing check (--limit). Exits 1 when any check
    fails, 0 when all hold. JSON and CSV give one row per check, the violating rows included
    (in CSV as JSON text).

    \b
    Examples:
      toolex check --db toolex.duckdb
      toolex check -v
      toolex check --format json --limit 5
    """
    with open_store(db, read_only=True) as store:
        # One row past the limit tells "20 rows" from "more than 20" (and a failure at --limit 0).
        results = run_checks(store, limit + 1)
    failed = [r for r in results if not r.ok]
    if fmt == "table":
        _print_list(results, limit, verbose)
    else:
        emit_rows([_row(r, limit, fmt) for r in results], fmt, columns=COLUMNS)
    for r in failed:
        click.echo(f"FAIL {r.name}: {_count(r, limit)}", err=True)
    if failed:
        click.echo(f"{len(failed)} of {len(results)} checks failed", err=True)
        sys.exit(1)
    click.echo(f"all {len(results)} checks hold", err=True)


COLUMNS = ["check", "status", "violations", "invariant", "violating_rows"]


def _count(r: CheckResult, limit: int) -> str:
    n = len(r.rows)
    if n > limit:
        return f"more than {limit} violating rows"
    return f"{n} violating row{'s' if n != 1 else ''}"


def _row(r: CheckResult, limit: int, fmt: str) -> dict[str, object]:
    """One check as a JSON or CSV row: its violating rows as objects (in CSV, as JSON text)."""
    shown = [
        {c: json_value(v) for c, v in zip(r.columns, row, strict=True)} for row in r.rows[:limit]
    ]
    return {
        "check": r.name,
        "status": "ok" if r.ok else "FAIL",
        "violations": len(r.rows) if len(r.rows) <= limit else f"more than {limit}",
        "invariant": r.invariant,
        "violating_rows": shown if fmt == "json" else json_text(shown),
    }


def _print_list(results: list[CheckResult], limit: int, verbose: bool) -> None:
    """One line per check; the invariant under a failing one (every one with -v); then the
    violating rows of each failing check."""
    width = max(terminal_width(), 40)
    for r in results:
        line = f"{'ok' if r.ok else 'FAIL':<6}{r.name}"
        click.echo(line if r.ok else f"{line}  ({_count(r, limit)})")
        if verbose or not r.ok:
            click.echo(
                textwrap.fill(r.invariant, width, initial_indent=INDENT, subsequent_indent=INDENT)
            )
    for r in results:
        if not r.ok and limit:
            click.echo()
            rows = [list(row) for row in r.rows[:limit]]
            print_table(r.columns, rows, title=f"{r.name}: violating rows")
