"""Issue 35.13: on an 80-column terminal the progress bar was squeezed to "0… ETA -:-…": rich
narrows every column of a row that is too wide. The counts (done/total, the times, the calls and
cost) stay whole at any width; the label and the bar share what is left."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from toolex.cli.progress import BarProgress

LABEL = "verify toolret (compat:http://127.0.0.1:8080/v1#qwen2.5-coder-1.5b-instruct)"


@pytest.mark.parametrize("width", [60, 80, 100, 160])
def test_the_counts_stay_readable_at_any_width(width: int) -> None:
    console = Console(file=io.StringIO(), width=width, force_terminal=True, color_system=None)
    bars = BarProgress(console=console)
    bars.start(LABEL, 1234, unit="tasks")
    bars.advance(17, calls=12, cost_usd=0.031)
    bars.start("bm25 search", 47, unit="sub-queries")
    bars.advance(3)
    out = io.StringIO()
    shown = Console(file=out, width=width, color_system=None)
    assert bars.bar is not None  # open while a task is
    shown.print(bars.bar.make_tasks_table(bars.bar.tasks))
    with_rate = len(bars.bar.columns) == 8
    bars.finish()
    bars.finish()
    stage, search = out.getvalue().splitlines()
    assert len(stage) <= width and len(search) <= width
    for count in ("17/1234", "0:00:00", "ETA", "12 calls  $0.0310"):
        assert count in stage, (width, stage)
    assert "3/47" in search and "ETA" in search
    assert stage.startswith("verify") and (width >= 100 or "…" in stage)  # cut, not dropped
    assert with_rate == (width >= BarProgress.RATE_WIDTH)
