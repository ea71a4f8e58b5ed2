"""How the CLI draws the core's progress (toolex.progress) on stderr, so stdout keeps only data.

On a terminal: rich bars, one row per open task (a stage and the search inside it), with
done/total, elapsed time, ETA, the rate and the task's fields (``12 calls  $0.0310``); a finished
outer task's row stays on screen, a finished inner one's goes. Anywhere else (a log file, CI, a
pipe): plain lines, one when an outer task finishes and one every ``LINE_EVERY_S`` seconds while
a task runs, so a log shows what a long run is doing without a line per item.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import IO, Any

import click

from toolex.progress import Progress

LINE_EVERY_S = 10.0


def stderr_progress() -> Progress:
    """Rich bars when stderr is a terminal, plain lines otherwise."""
    if sys.stderr.isatty():
        return BarProgress()
    return LineProgress()


def describe(fields: dict[str, Any]) -> str:
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
    """Rich progress bars on stderr; nested tasks are rows of one display."""

    def __init__(self) -> None:
        self.bar: Any = None  # a rich Progress while a task is open (rich loads on first use)
        self.open: list[Any] = []  # task ids, innermost last; None for an empty task
        self.fields: dict[Any, dict[str, Any]] = {}

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

    def advance(self, n: int = 1, **fields: Any) -> None:
        task = self.open[-1] if self.open else None
        if task is None:
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
        self.fields.pop(task, None)
        if self.bar is None:
            return
        if any(t is not None for t in self.open):
            if task is not None:  # a search inside a stage: its row goes, the stage's stays
                self.bar.remove_task(task)
            return
        self.bar.stop()
        self.bar = None

    def _new_bar(self) -> Any:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as RichProgress

        return RichProgress(
            TextColumn("{task.description:<10}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[rate]}"),
            TextColumn("{task.fields[extra]}"),
            console=Console(stderr=True),
            transient=False,
        )


@dataclass
class _Task:
    label: str
    total: int
    unit: str
    started: float = field(default_factory=time.monotonic)
    done: int = 0
    fields: dict[str, Any] = field(default_factory=dict)
    said: float = field(default_factory=time.monotonic)


class LineProgress:
    """Plain progress lines for a stderr that is not a terminal."""

    def __init__(self, stream: IO[str] | None = None, every_s: float = LINE_EVERY_S) -> None:
        self.stream = stream
        self.every_s = every_s
        self.open: list[_Task] = []

    def start(self, label: str, total: int, *, unit: str = "items") -> None:
        self.open.append(_Task(label, total, unit))

    def advance(self, n: int = 1, **fields: Any) -> None:
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
