"""`toolex tui`: the terminal UI. Textual and toolex_tui are imported inside the command only, so
the headless core (and `toolex --help`) never loads them."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import click
from click.core import ParameterSource

from toolex.cli.options import benchmark_option, db_option, expansion_option, require_names
from toolex.errors import ToolexError

# Textual is the optional [tui] extra: the core and every other command work without it.
TEXTUAL_MISSING = "the TUI needs Textual, which is not installed: pip install 'toolex[tui]'"


@click.command("tui")
@db_option
@benchmark_option("Benchmark to browse (default: the largest).", required=False, default=None)
@expansion_option("Expansion shown (without --benchmark: on the largest benchmark holding it).")
@click.option(
    "--snapshot",
    is_flag=True,
    help="Browse a copy of the store taken now (use while a pipeline holds the lock).",
)
@click.option(
    "--review",
    "sample_id",
    default=None,
    metavar="SAMPLE",
    help="Label the items of this review sample (opens the store for writing).",
)
@click.option(
    "--role",
    type=click.Choice(["reviewer1", "reviewer2", "adjudicator"]),
    default="reviewer1",
    show_default=True,
    help="Review role (with --review).",
)
@click.option("--reviewer", default=None, help="Your name (with --review).")
def tui(
    db: str,
    benchmark: str | None,
    expansion: str | None,
    snapshot: bool,
    sample_id: str | None,
    role: str,
    reviewer: str | None,
) -> None:
    """Browse queries, their equivalents and tools, or label a review sample.

    Browsing opens the store read-only. If a pipeline holds the store's write lock, the TUI
    says so; add --snapshot to browse a copy taken now (or answer yes when asked).
    Press ? inside the TUI for every key binding.

    \b
    Examples:
      toolex tui --db toolex.duckdb
      toolex tui --snapshot                      # while `toolex expand` is running
      toolex tui --review audit1 --role reviewer1 --reviewer ann
    """
    try:
        from toolex_tui.app import ToolexApp
        from toolex_tui.data import StoreLockedError, open_browse_store, snapshot_copy
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] != "textual":
            raise
        raise ToolexError(TEXTUAL_MISSING) from None

    if sample_id is not None and not reviewer:
        raise click.UsageError("--review needs --reviewer NAME")
    if sample_id is not None and snapshot:
        raise click.UsageError("--review writes labels; it cannot work on a --snapshot copy")
    path, copied_from = db, None
    if snapshot:
        path, copied_from = str(snapshot_copy(db)), db
    try:
        store = open_browse_store(path, writable=sample_id is not None)
    except StoreLockedError as exc:
        if sample_id is not None or not sys.stdin.isatty():
            raise
        click.echo(f"error: {exc}", err=True)
        if not click.confirm("Browse a snapshot copy taken now?", default=True, err=True):
            raise click.exceptions.Exit(2) from None
        path, copied_from = str(snapshot_copy(db)), db
        store = open_browse_store(path)
    review = None
    if sample_id is not None:
        review = {"sample_id": sample_id, "role": role, "reviewer": reviewer}
    if click.get_current_context().get_parameter_source("expansion") is ParameterSource.DEFAULT:
        expansion = None  # not named: the chosen benchmark's own (see toolex_tui.data.Browser)
    try:
        require_names(store)
        app = ToolexApp(
            store, benchmark=benchmark, expansion=expansion, review=review, snapshot_of=copied_from
        )
        app.run()
    finally:
        store.close()
        if copied_from:  # the copy lives in its own temporary folder
            shutil.rmtree(Path(path).parent, ignore_errors=True)
