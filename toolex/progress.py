"""Progress bars on stderr (data goes to stdout): label, bar and done/total, left on screen when
finished. ``counting_bar`` is the one shape every long stage uses, the pipeline stages and
retrieval each adding their own columns; ``progress`` wraps it for embedding and search loops."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

_console = Console(stderr=True)


def counting_bar(
    *columns: ProgressColumn, console: Console, label: str = "{task.description}"
) -> Progress:
    """A ``label | bar | done/total`` progress followed by the caller's ``columns``."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        *columns,
        console=console,
        transient=False,
    )


@contextlib.contextmanager
def progress(label: str, total: int, unit: str = "texts") -> Iterator[Callable[[int], None]]:
    """Yield ``advance(n)``; the bar shows ``done/total``, the rate in ``unit``/s and the ETA."""
    if total <= 0:
        yield lambda n: None
        return
    bar = counting_bar(
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=_console,
    )
    with bar:
        task = bar.add_task(label, total=total, rate="")

        def advance(n: int) -> None:
            bar.advance(task, n)
            speed = bar.tasks[task].speed
            if speed:
                bar.update(task, rate=f"{speed:,.1f} {unit}/s")

        yield advance
