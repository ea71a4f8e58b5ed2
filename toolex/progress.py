"""Progress of long work, reported by the core and drawn by whoever runs it.

The core (pipeline stages, retrieval loops, the report builder) only reports: it opens a task,
advances it and finishes it through the :class:`Progress` protocol. It never draws anything, so a
library caller or a test sees nothing unless it asks. The CLI installs a renderer for the length
of a command (``toolex/cli/progress.py``: rich bars on a terminal, plain lines otherwise), the way
an application configures logging handlers while libraries only log.

Tasks nest: a stage's task stays open while a search inside it opens its own; ``advance`` and
``finish`` apply to the task opened last.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Protocol, TypeAlias

# A value shown beside a task's bar: a count (``calls=12``), a cost (``cost_usd=0.03``), the
# current step (``step="metrics"``), or None for one not known yet (left out).
Field: TypeAlias = int | float | str | None


class Progress(Protocol):
    """What the core reports; ``fields`` are totals so far shown beside the bar (``calls=12``,
    ``cost_usd=0.03``) or the current step (``step="metrics"``)."""

    def start(self, label: str, total: int, *, unit: str = "items") -> None:
        """Open a task of ``total`` units (``unit`` names them in a rate, e.g. ``queries/s``)."""

    def advance(self, n: int = 1, **fields: Field) -> None:
        """``n`` more units of the innermost open task are done."""

    def finish(self) -> None:
        """Close the innermost open task."""


class NullProgress:
    """Reports go nowhere: the default for library use and tests."""

    def start(self, label: str, total: int, *, unit: str = "items") -> None:
        pass

    def advance(self, n: int = 1, **fields: Field) -> None:
        pass

    def finish(self) -> None:
        pass


_current: Progress = NullProgress()


def current() -> Progress:
    """The reporter installed by :func:`reporting` (a :class:`NullProgress` when none is)."""
    return _current


@contextlib.contextmanager
def reporting(reporter: Progress) -> Iterator[Progress]:
    """Send the core's progress to ``reporter`` inside the block (the previous one after it)."""
    global _current
    previous, _current = _current, reporter
    try:
        yield reporter
    finally:
        _current = previous


@contextlib.contextmanager
def progress(label: str, total: int, unit: str = "texts") -> Iterator[Callable[[int], None]]:
    """One task on the current reporter around a loop: yields ``advance(n)``. Nothing is reported
    for an empty loop."""
    if total <= 0:
        yield lambda n: None
        return
    reporter = current()
    reporter.start(label, total, unit=unit)
    try:
        yield lambda n: reporter.advance(n)
    finally:
        reporter.finish()
