"""How the CLI draws progress when stderr is not a terminal: a line per finished outer task."""

from __future__ import annotations

import io

from toolex.cli.progress import LineProgress, describe


def test_fields_read_as_words() -> None:
    assert describe({"calls": 12, "cost_usd": 0.031, "step": "metrics"}) == (
        "12 calls  $0.0310  metrics"
    )


def test_lines_for_outer_tasks_only_unless_an_inner_one_is_long() -> None:
    out = io.StringIO()
    lines = LineProgress(stream=out, every_s=3600)
    lines.start("verify", 3, unit="tasks")
    lines.start("bm25 search", 2, unit="queries")  # inside the stage: quick, so no line
    lines.advance(2)
    lines.finish()
    lines.advance(3, calls=3, cost_usd=0.5)
    lines.finish()
    lines.start("nothing", 0)
    lines.finish()
    (line,) = out.getvalue().splitlines()
    assert line.startswith("verify: 3/3 tasks in ") and line.endswith("s  3 calls  $0.5000")
