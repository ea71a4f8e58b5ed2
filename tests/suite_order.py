"""The order the suite's files are handed to pytest-xdist's workers in (tests/conftest.py)."""

from __future__ import annotations

from typing import Any

# The longest test files, longest first (seconds on the quiet 2-core machine, November 2026).
# pytest-xdist's --dist loadfile hands files to its workers by how many tests each holds, most
# first, unless told to keep the collection order (--no-loadscope-reorder, in pyproject.toml's
# addopts): the Tour, two tests, then started near the end and ran alone for its 60-100 s while
# the other worker idled. Handed out first, the long files run side by side and the short ones
# fill in around them.
LONGEST_FIRST = (
    "tests/test_tour.py",  # 61 s: every README command on the shared data
    "tests/engines/test_spark.py",  # 28 s: a JVM, two stores scored by Spark and DuckDB
    "tests/cli/test_process.py",  # 20 s: Ctrl-C at two points of an expansion, then resume
    "tests/attacks/test_inputs.py",  # 20 s: hostile files for every loader
    "tests/tui/test_verdict_review_round.py",  # 17 s: three Pilot-driven review rounds
    "tests/llm/test_llm_concurrency.py",  # 15 s: timeouts waited for
    "tests/llm/test_llm_sigkill.py",  # 11 s
    "tests/attacks/test_snapshot.py",  # 9 s
    "tests/attacks/test_sql_fuzz.py",  # 7 s
    "tests/runs/test_rrf.py",  # 7 s: ranx's JIT compile
    "tests/cli/test_demo.py",  # 7 s
    "tests/pipeline/test_audit_all.py",  # 6 s
)


def longest_first(items: list[Any]) -> None:
    """Put the LONGEST_FIRST files' tests first, in that order; the rest keep theirs (a stable
    sort)."""
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))
