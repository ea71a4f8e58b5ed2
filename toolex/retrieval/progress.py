"""Progress bars for embedding and search: count, rate, elapsed; on stderr (data goes to stdout)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

_console = Console(stderr=True)


@contextlib.contextmanager
def progress(label: str, total: int, unit: str = "texts") -> Iterator[Callable[[int], None]]:
    """Yield ``advance(n)``; the bar shows ``done/total``, the rate in ``unit``/s and the ETA."""
    if total <= 0:
        yield lambda n: None
        return
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=_console,
        transient=False,
    )
    with bar:
        task = bar.add_task(label, total=total, rate="")

        def advance(n: int) -> None:
            bar.advance(task, n)
            speed = bar.tasks[task].speed
            if speed:
                bar.update(task, rate=f"{speed:,.1f} {unit}/s")

        yield advance
