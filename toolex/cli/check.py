"""`toolex check`: run every invariant of sql/checks/ against the store; non-zero exit on any
violation."""

from __future__ import annotations

import sys

import click

from toolex.checks import run_checks
from toolex.cli.options import db_option, emit_rows, format_option, open_store


@click.command("check")
@db_option
@click.option(
    "--limit",
    type=click.IntRange(0),
    default=20,
    show_default=True,
    help="Violating rows shown per check.",
)
@format_option
def check(db: str, limit: int, fmt: str) -> None:
    """Check the store's invariants (each sql/checks/*.sql must return zero rows).

    Prints one line per check; for a failing check, the invariant it guards and the first
    violating rows. Exits 1 when any check fails, 0 when all hold.

    \b
    Example:
      toolex check --db toolex.duckdb
    """
    with open_store(db, read_only=True) as store:
        results = run_checks(store, limit)
    emit_rows(
        [
            {
                "check": r.name,
                "status": "ok" if r.ok else "FAIL",
                "violations shown": len(r.rows),
                "invariant": r.invariant,
            }
            for r in results
        ],
        fmt,
        title="invariants",
    )
    failed = [r for r in results if not r.ok]
    for r in failed:
        click.echo(f"\nFAIL {r.name}: {r.invariant}", err=True)
        emit_rows(
            [dict(zip(r.columns, row, strict=True)) for row in r.rows],
            "table" if fmt == "table" else fmt,
            title=f"{r.name}: violating rows",
        )
    if failed:
        click.echo(f"{len(failed)} of {len(results)} checks failed", err=True)
        sys.exit(1)
    click.echo(f"all {len(results)} checks hold", err=True)
