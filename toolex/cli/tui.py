"""`toolex tui`: the terminal UI. Textual and toolex_tui are imported inside the command only, so
the headless core (and `toolex --help`) never loads them."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click
from click.core import ParameterSource

from toolex.cli.options import (
    benchmark_option,
    db_option,
    expansion_option,
    option_group,
    require_names,
)
from toolex.errors import ToolexError
from toolex.snapshot import SNAPSHOT_PREFIX
from toolex.snapshot import snapshot_copy as take_snapshot

if TYPE_CHECKING:
    from toolex.store import Store

# Textual is the optional [tui] extra: the core and every other command work without it.
TEXTUAL_MISSING = "the TUI needs Textual, which is not installed: pip install 'toolex[tui]'"


@dataclass(frozen=True)
class ReviewChoice:
    """--review, --role and --reviewer: the sample to label (None: browse), as whom."""

    sample_id: str | None
    role: str
    reviewer: str | None


review_options = option_group(
    "review",
    [
        click.option(
            "--review",
            "sample_id",
            default=None,
            metavar="SAMPLE",
            help="Label the items of this review sample (opens the store for writing; each label "
            "is stored the moment it is given).",
        ),
        click.option(
            "--role",
            type=click.Choice(["reviewer1", "reviewer2", "adjudicator"]),
            default="reviewer1",
            show_default=True,
            help="Review role (with --review).",
        ),
        click.option("--reviewer", default=None, help="Your name (with --review)."),
    ],
    ReviewChoice,
)


@click.command("tui", short_help="Browse queries, equivalents and tools, or label a sample.")
@db_option
@benchmark_option("Benchmark to browse (default: the largest).", required=False, default=None)
@expansion_option("Expansion shown (without --benchmark: on the largest benchmark holding it).")
@click.option(
    "--snapshot",
    is_flag=True,
    help="Browse a copy of the store taken now (use while a pipeline holds the lock).",
)
@review_options
def tui(
    db: str,
    benchmark: str | None,
    expansion: str | None,
    snapshot: bool,
    review: ReviewChoice,
) -> None:
    """Browse queries, their equivalents and tools, or label a review sample.

    Browsing opens the store read-only. If a pipeline holds the store's write lock, the TUI
    says so; add --snapshot to browse a copy taken now (or answer yes when asked).
    Press ? inside the TUI for every key binding.

    \b
    Examples:
      toolex tui --db toolex.duckdb
      toolex tui --snapshot                      # while `toolex expand` runs
      toolex tui --review audit1 --role reviewer1 --reviewer ann
    """
    try:
        from toolex_tui.app import Opened, ToolexApp
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] != "textual":
            raise
        raise ToolexError(TEXTUAL_MISSING) from None
    sample_id, reviewer = review.sample_id, review.reviewer
    if sample_id is not None and not reviewer:
        raise click.UsageError("--review needs --reviewer NAME")
    if sample_id is not None and snapshot:
        raise click.UsageError("--review writes labels; it cannot work on a --snapshot copy")
    store, copied_from, remove_copy = _browse_store(db, snapshot, writable=sample_id is not None)
    session = None
    if sample_id is not None and reviewer:  # (checked above: a review has a reviewer)
        session = {"sample_id": sample_id, "role": review.role, "reviewer": reviewer}
    if click.get_current_context().get_parameter_source("expansion") is ParameterSource.DEFAULT:
        expansion = None  # not named: the chosen benchmark's own (see toolex_tui.data.Browser)
    try:
        require_names(store)
        opened = Opened(benchmark, expansion, snapshot_of=copied_from)
        app = ToolexApp(store, opened=opened, review=session)
        app.run()
        if app.failure is not None:  # the store failed mid-session: one line, exit 2 (main)
            raise app.failure
        if app.return_code:  # Textual printed what went wrong
            raise click.exceptions.Exit(app.return_code)
    finally:
        store.close()
        if remove_copy:  # the copy lives in its own temporary folder
            remove_copy()


def _browse_store(
    db: str, snapshot: bool, *, writable: bool
) -> tuple[Store, str | None, Callable[[], None] | None]:
    """The store the TUI works on, the path it is a copy of (when a snapshot) and the function
    that removes that copy. A store another process holds: on a terminal, the offer of a
    snapshot copy taken now; elsewhere (or to review) the lock's error."""
    from toolex_tui.data import StoreLockedError, open_browse_store

    path, copied_from, remove_copy = db, None, None
    if snapshot:
        path, remove_copy = snapshot_for_browsing(db)
        copied_from = db
    try:
        store = open_browse_store(path, writable=writable)
    except StoreLockedError as exc:
        if writable or not sys.stdin.isatty():
            raise
        click.echo(f"error: {exc}", err=True)
        if not click.confirm("Browse a snapshot copy taken now?", default=True, err=True):
            raise click.exceptions.Exit(2) from None
        path, remove_copy = snapshot_for_browsing(db)
        copied_from = db
        store = open_browse_store(path)
    except BaseException:
        if remove_copy:
            remove_copy()
        raise
    return store, copied_from, remove_copy


def snapshot_for_browsing(db: str) -> tuple[str, Callable[[], None]]:
    """A consistent copy of ``db`` (toolex.snapshot.snapshot_copy) and the function that removes
    it, already registered for every way the TUI can end: a return or an exception (the
    caller's ``finally``), interpreter exit (atexit), and SIGTERM, SIGINT and SIGHUP (the
    handler removes the copy, then lets the signal do what it did before). SIGKILL cannot be
    caught: the copies of dead processes are swept before each new one is taken."""
    sweep_stale_snapshots()
    folder = Path(tempfile.mkdtemp(prefix=f"{SNAPSHOT_PREFIX}{os.getpid()}-"))
    done = False

    def remove() -> None:
        nonlocal done
        if not done:
            done = True
            shutil.rmtree(folder, ignore_errors=True)

    previous: dict[int, object] = {}

    def on_signal(signum: int, frame: object) -> None:
        remove()
        before = previous.get(signum)
        if callable(before):
            before(signum, frame)
            return
        if before == signal.SIG_IGN:
            return
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    atexit.register(remove)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        previous[sig] = signal.getsignal(sig)
        signal.signal(sig, on_signal)
    try:
        return str(take_snapshot(db, folder)), remove
    except BaseException:
        remove()
        raise


def sweep_stale_snapshots(root: str | Path | None = None) -> list[Path]:
    """Remove snapshot folders (``toolex-snapshot-<pid>-*``) whose process is gone; the
    removed folders."""
    removed = []
    for folder in Path(root or tempfile.gettempdir()).glob(f"{SNAPSHOT_PREFIX}*"):
        pid = folder.name.removeprefix(SNAPSHOT_PREFIX).split("-")[0]
        if not pid.isdecimal() or not folder.is_dir() or _alive(int(pid)):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, owned by someone else
        return True
    return True
