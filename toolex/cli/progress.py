"""How the CLI draws the core's progress (toolex.progress) on stderr, so stdout keeps only data.

On a terminal: rich bars, one row per open task (a stage and the search inside it), with
done/total, elapsed time, ETA, the rate and the task's fields (``12 calls  $0.0310``); a finished
outer task's row stays on screen, a finished inner one's goes. Anywhere else (a log file, CI, a
pipe): plain lines, one when an outer task finishes and one every ``LINE_EVERY_S`` seconds while
a task runs, so a log shows what a long run is doing without a line per item.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING

import click

from toolex.cli.decorating import FC
from toolex.progress import Field, NullProgress, Progress, reporting

if TYPE_CHECKING:
    from types import FrameType

    from rich.console import Console
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID

LINE_EVERY_S = 10.0


# Loggers of the HTTP clients under the LLM SDKs (httpx2 under openai/anthropic, httpx,
# httpcore) and the SDKs themselves: at INFO they write one line per request ("HTTP Request: POST
# ... 200 OK"), thousands in a run, between the progress lines. Only their warnings are kept.
CHATTY_LOGGERS = ("httpx", "httpx2", "httpcore", "openai", "anthropic")


def quiet_library_logs() -> None:
    """Keep libraries' INFO logs off stderr for the length of a command: the root logger gets a
    WARNING handler before any library sets one up (wordllama calls ``logging.basicConfig(level=
    INFO)`` when imported, which then does nothing), and the HTTP clients' loggers say only
    warnings whoever configured the root. Done when ``logging`` is first imported
    (toolex.cli.logs): a command that never logs does not load it."""
    from toolex.cli.logs import when_imported

    when_imported(_quiet_library_logs)


def _quiet_library_logs() -> None:
    import logging

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    for name in CHATTY_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


def stderr_progress() -> Progress:
    """Rich bars when stderr is a terminal, plain lines otherwise; nothing under ``-q``."""
    if is_quiet():
        return NullProgress()
    if sys.stderr.isatty():
        return BarProgress()
    return LineProgress()


def is_quiet() -> bool:
    """``-q/--quiet`` was given to the running command (or to ``toolex`` itself)."""
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.meta.get(_QUIET))


def quiet_option(f: FC) -> FC:
    """``-q/--quiet``: no progress (bars, lines, spinners) and no summaries on stderr; warnings
    and errors still print. Every command has it (see toolex.cli.LazyGroup)."""
    return click.option(
        "-q",
        "--quiet",
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=_quiet,
        help="No progress and no summaries on stderr (warnings and errors still print).",
    )(f)


_QUIET = "toolex.quiet"  # key in click's ctx.meta, which a command shares with its parents


def _quiet(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta[_QUIET] = True
        ctx.with_resource(reporting(NullProgress()))


def add_quiet(command: click.Command) -> click.Command:
    """Give ``command`` (and, for a group, each of its commands) the ``-q/--quiet`` option."""
    if not any(p.name == "quiet" for p in command.params):
        quiet_option(command)
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            add_quiet(sub)
    return command


class Interrupted(Exception):  # noqa: N818 - it is what the user did, not an error of ours
    """Ctrl-C or SIGTERM, stopped cleanly: the message says what was kept (`toolex` exits 130
    after Ctrl-C, 143 after SIGTERM)."""

    def __init__(self, message: str, terminated: bool = False) -> None:
        super().__init__(message)
        self.terminated = terminated


@contextlib.contextmanager
def interruptible(message: str) -> Iterator[None]:
    """Ctrl-C or SIGTERM inside the block stops it cleanly and ends in :class:`Interrupted`
    (``message``).

    The first signal only asks to stop: the work stops at its next safe point, the next time
    it reports progress (between two outcomes, between stages, while waiting for a server),
    where every finished outcome is already buffered and the stages' ``finally`` stores it.
    Raising at the signal itself could land inside a DuckDB statement, abort the open
    transaction and make that store fail. A second one stops at once (the open transaction is
    then rolled back; finished, flushed work stays). SIGTERM is handled as Ctrl-C: a process
    manager's stop keeps what was paid for, as a user's Ctrl-C does.
    """
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    asked: list[int] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        if asked:
            raise KeyboardInterrupt
        asked.append(signum)
        again = "Ctrl-C" if signum == signal.SIGINT else "SIGTERM"
        click.echo(f"\nstopping at the next safe point ({again} again: at once) …", err=True)

    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    for sig, before in previous.items():
        if before != signal.SIG_IGN:  # a signal ignored from the start stays ignored
            signal.signal(sig, stop)

    def terminated() -> bool:
        return bool(asked) and asked[0] == signal.SIGTERM

    try:
        with reporting(_StopAtSafePoint(current_reporter(), asked)):
            yield
    except KeyboardInterrupt:
        raise Interrupted(message, terminated()) from None
    except Exception as exc:
        if asked or type(exc).__name__ == "InterruptException":
            raise Interrupted(message, terminated()) from exc
        raise
    finally:
        for sig, before in previous.items():
            signal.signal(sig, before)


def current_reporter() -> Progress:
    from toolex.progress import current

    return current()


class _StopAtSafePoint:
    """The installed reporter, plus: once a stop was asked, the next report raises
    KeyboardInterrupt (once), from a point between two pieces of work."""

    def __init__(self, inner: Progress, asked: list[int]) -> None:
        self.inner, self.asked, self.raised = inner, asked, False

    def _check(self) -> None:
        if self.asked and not self.raised:
            self.raised = True
            raise KeyboardInterrupt

    def start(self, label: str, total: int, *, unit: str = "items") -> None:
        self._check()
        self.inner.start(label, total, unit=unit)

    def advance(self, n: int = 1, **fields: Field) -> None:
        self.inner.advance(n, **fields)
        self._check()

    def finish(self) -> None:
        self.inner.finish()


def say(message: str) -> None:
    """An informational line on stderr (a summary, a note), unless ``-q``."""
    if not is_quiet():
        click.echo(message, err=True)


@contextlib.contextmanager
def status(label: str) -> Iterator[None]:
    """Work of unknown length that takes seconds (reading a benchmark, scoring runs): a spinner
    on a terminal; elsewhere one line with its time when it ends (as LineProgress ends a task:
    a log stays free of lines for work that failed, whose error is then the first line)."""
    if is_quiet():
        yield
        return
    if sys.stderr.isatty():
        from rich.console import Console

        with Console(stderr=True).status(label):
            yield
        return
    started = time.monotonic()
    yield
    click.echo(f"{label}: done in {time.monotonic() - started:.1f} s", err=True)


def describe(fields: Mapping[str, Field]) -> str:
    """``calls=12, cost_usd=0.031, step="metrics"`` -> ``12 calls  $0.0310  metrics``."""
    parts = []
    for key, value in fields.items():
        if value is None:
            continue
        if key.endswith("_usd"):
            parts.append(f"${value:.4f}")
        elif isinstance(value, int) and not isinstance(value, bool):
            parts.append(f"{value} {key}")
        elif isinstance(value, float):
            parts.append(f"{key} {value:.4g}")
        else:
            parts.append(str(value))
    return "  ".join(parts)


class BarProgress:
    """Rich progress bars on stderr; nested tasks are rows of one display.

    The counts stay whole at any width: done/total, the times and the calls and cost are never
    cut, the label and the bar share what is left (the label cut with an ellipsis), and below
    ``RATE_WIDTH`` columns the rate is left out. (Rich squeezes every column of a row that is
    too wide, and on 80 columns a long label left "0… ETA -:-…".)"""

    RATE_WIDTH = 100

    def __init__(self, console: Console | None = None) -> None:
        self.console = console  # a rich Console (None: stderr's)
        self.bar: RichProgress | None = None  # while a task is open (rich loads on first use)
        self.open: list[TaskID | None] = []  # task ids, innermost last; None for an empty task
        self.fields: dict[TaskID, dict[str, Field]] = {}

    def start(self, label: str, total: int, *, unit: str = "items") -> None:
        if total <= 0:
            self.open.append(None)
            return
        if self.bar is None:
            self.bar = self._new_bar()
            self.bar.start()
        task = self.bar.add_task(label, total=total, unit=unit, rate="", extra="")
        self.open.append(task)
        self.fields[task] = {}

    def advance(self, n: int = 1, **fields: Field) -> None:
        task = self.open[-1] if self.open else None
        if task is None or self.bar is None:  # the bar is open while a task is
            return
        self.fields[task].update(fields)
        self.bar.advance(task, n)
        state = next(t for t in self.bar.tasks if t.id == task)
        rate = f"{state.speed:,.1f} {state.fields['unit']}/s" if state.speed else ""
        self.bar.update(task, rate=rate, extra=describe(self.fields[task]))

    def finish(self) -> None:
        if not self.open:
            return
        task = self.open.pop()
        if task is not None:
            self.fields.pop(task, None)
        if self.bar is None:
            return
        if any(t is not None for t in self.open):
            if task is not None:  # a search inside a stage: its row goes, the stage's stays
                self.bar.remove_task(task)
            return
        self.bar.stop()
        self.bar = None

    def _new_bar(self) -> RichProgress:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            ProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as RichProgress
        from rich.table import Column

        console = self.console or Console(stderr=True)

        def whole() -> Column:  # a column of counts: never wrapped, never squeezed
            return Column(no_wrap=True)

        columns: list[ProgressColumn] = [
            TextColumn(
                "{task.description}",
                table_column=Column(ratio=3, no_wrap=True, overflow="ellipsis", min_width=8),
            ),
            BarColumn(bar_width=None, table_column=Column(ratio=1, min_width=3)),
            MofNCompleteColumn(table_column=whole()),
            TimeElapsedColumn(table_column=whole()),
            TextColumn("ETA", table_column=whole()),
            TimeRemainingColumn(table_column=whole()),
            TextColumn("{task.fields[extra]}", table_column=whole()),
        ]
        if console.width >= self.RATE_WIDTH:
            columns.insert(6, TextColumn("{task.fields[rate]}", table_column=whole()))
        return RichProgress(*columns, console=console, transient=False, expand=True)


@dataclass
class _Task:
    label: str
    total: int
    unit: str
    started: float = field(default_factory=time.monotonic)
    done: int = 0
    fields: dict[str, Field] = field(default_factory=dict)
    said: float = field(default_factory=time.monotonic)


class LineProgress:
    """Plain progress lines for a stderr that is not a terminal."""

    def __init__(self, stream: IO[str] | None = None, every_s: float = LINE_EVERY_S) -> None:
        self.stream = stream
        self.every_s = every_s
        self.open: list[_Task] = []

    def start(self, label: str, total: int, *, unit: str = "items") -> None:
        self.open.append(_Task(label, total, unit))

    def advance(self, n: int = 1, **fields: Field) -> None:
        if not self.open:
            return
        task = self.open[-1]
        task.done += n
        task.fields.update(fields)
        if task.total > 0 and time.monotonic() - task.said >= self.every_s:
            self._say(task, "")

    def finish(self) -> None:
        if not self.open:
            return
        task = self.open.pop()
        took = time.monotonic() - task.started
        # A task inside another (a search inside a stage) gets a line only when it was long.
        if task.total > 0 and (not self.open or took >= self.every_s):
            self._say(task, f" in {took:.1f} s")

    def _say(self, task: _Task, took: str) -> None:
        task.said = time.monotonic()
        extra = describe(task.fields)
        unit = "" if task.unit == "items" else f" {task.unit}"
        line = f"{task.label}: {task.done}/{task.total}{unit}{took}"
        click.echo(line + (f"  {extra}" if extra else ""), err=True, file=self.stream)
