"""Where a benchmark's figures go: one JSON record per script under docs/figures/, read by the
documentation's figures page (docs/hooks/figures.py) and by the pages that quote a figure.

    from figures import record
    record("bench_random_draw", {"pool_top10_share": 0.232}, data="StableToolBench, BM25")

A figure pasted into prose drifts from the code that measured it and says neither when nor on
what it was measured; a record carries its date, the commit the script ran at (marked dirty when
the tree had changes), the machine (cores, RAM) and the load average, so the page can say each.
A script writes its record only when it ran to the end, and a re-run replaces it.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "docs" / "figures"


def _git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else ""


# What a figure can depend on: a change elsewhere (a page of the docs, the README, a record)
# does not make the code that measured it other than the commit's.
CODE = ("toolex/", "tui/", "sql/", "prompts/", "benchmarks/", "pyproject.toml")


def commit() -> str:
    """The commit the figures were measured at; ``-dirty`` when the code differed from it."""
    head = _git("rev-parse", "--short", "HEAD") or "unknown"
    changed = [
        line[3:]
        for line in _git("status", "--porcelain", "--untracked-files=no").splitlines()
        if line[3:].startswith(CODE)
    ]
    return f"{head}-dirty" if changed else head


def machine() -> dict[str, Any]:
    """Cores and RAM: what a speed or a memory figure depends on besides the code."""
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {
        "cores": os.cpu_count(),
        "ram_gb": round(ram, 1),
        "python": platform.python_version(),
        "system": platform.system(),
    }


def load() -> list[float]:
    """The 1-, 5- and 15-minute load averages, for a script to take before it measures."""
    return [round(x, 2) for x in os.getloadavg()]


def record(
    script: str,
    figures: dict[str, Any],
    *,
    data: str = "",
    notes: str = "",
    load_at_start: list[float] | None = None,
    out: Path | None = None,
) -> Path:
    """Write ``docs/figures/<script>.json`` (or ``out``) and return its path.

    ``figures`` maps a figure's name to a number, a string, or a table (a list of rows, each a
    dict of one shape). ``data`` says what the figures were measured on; ``load_at_start`` is
    the load average the script saw before measuring (the one at the end is taken here)."""
    if not figures:
        raise ValueError(f"{script}: no figures to record")
    for name, value in figures.items():
        if isinstance(value, list) and not all(isinstance(row, dict) for row in value):
            raise ValueError(f"{script}: figure {name!r} is a list but not a table of rows")
    entry = {
        "script": f"benchmarks/{script}.py",
        "command": " ".join(["python", f"benchmarks/{Path(sys.argv[0]).name}", *sys.argv[1:]]),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit(),
        "machine": machine(),
        "load": {"start": load_at_start, "end": load()},
        "data": data,
        "notes": notes,
        "figures": figures,
    }
    path = out or FIGURES / f"{script}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(entry, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"recorded {len(figures)} figures in {path.relative_to(ROOT) if out is None else path}")
    return path
