"""The order the suite's files are handed to pytest-xdist's workers in (tests/conftest.py)."""

from __future__ import annotations

from typing import Any

# The longest test files, longest first (seconds on the quiet 2-core machine). pytest-xdist's
# --dist loadfile hands files to its workers in collection order, so the Tour, collected last,
# started near the end and ran alone for its 100 s while the other worker idled; handed out
# first, the long files run side by side and the short ones fill in around them.
LONGEST_FIRST = (
    "tests/test_tour.py",  # 100 s: every README command on the shared data
    "tests/engines/test_spark.py",  # 45-80 s: a JVM, two stores scored by Spark and DuckDB
    "tests/cli/test_process.py",  # 35 s: Ctrl-C at two points of an expansion, then resume
    "tests/attacks/test_inputs.py",  # 30 s: hostile files for every loader
    "tests/llm/test_llm_concurrency.py",  # 25 s: timeouts waited for
    "tests/runs/test_rrf.py",  # 16 s: ranx's JIT compile
    "tests/attacks/test_sql_fuzz.py",  # 13 s
    "tests/llm/test_llm_sigkill.py",  # 12 s
    "tests/pipeline/test_audit_all.py",  # 12 s
    "tests/cli/test_demo.py",  # 12 s
)


def longest_first(items: list[Any]) -> None:
    """Put the LONGEST_FIRST files' tests first, in that order; the rest keep theirs (a stable
    sort)."""
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))
