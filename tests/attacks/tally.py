"""Counting attack outcomes for the issue's table: tried / clean error / correct result /
traceback / hang / store changed / secret leaked / wrong number, per attack family.

Every attack test records each case it tries here and asserts the bad columns are zero. With
``TOOLEX_ATTACK_REPORT=<folder>`` set, each family also writes its counts to
``<folder>/<family>.json`` (``python tests/attacks/tally.py <folder>`` prints the table).
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

OUTCOMES = (
    "clean error",
    "correct result",
    "traceback",
    "hang",  # killed at the attempt's deadline (tests/attacks/bounded.py)
    "store changed",
    "secret leaked",
    "wrong number",  # a score that differs from pytrec_eval's, or a check that fails
)


@dataclass
class Tally:
    family: str
    counts: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)  # the bad cases, for the assertion text

    def record(
        self,
        case: str,
        outcome: str,
        *,
        changed: bool = False,
        leaked: bool = False,
        wrong: bool = False,
    ) -> None:
        assert outcome in ("clean error", "correct result", "traceback", "hang"), outcome
        self.counts["tried"] += 1
        self.counts[outcome] += 1
        if changed:
            self.counts["store changed"] += 1
        if leaked:
            self.counts["secret leaked"] += 1
        if wrong:
            self.counts["wrong number"] += 1
        if outcome in ("traceback", "hang") or changed or leaked or wrong:
            self.failures.append(
                f"{case}: {outcome}{', store changed' if changed else ''}"
                f"{', secret leaked' if leaked else ''}{', wrong number' if wrong else ''}"
            )

    def check(self) -> None:
        """Write the counts (when asked) and fail on any traceback, change, leak or wrong
        number."""
        folder = os.environ.get("TOOLEX_ATTACK_REPORT")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            path = Path(folder) / f"{self.family}.json"
            old = Counter(json.loads(path.read_text())) if path.exists() else Counter()
            path.write_text(json.dumps(dict(old + self.counts), indent=1))
        assert not self.failures, "\n".join(self.failures[:20])


def table(folder: str | Path) -> str:
    """The counts written under ``folder`` as a Markdown table."""
    cols = ("tried", *OUTCOMES)
    lines = ["| family | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for path in sorted(Path(folder).glob("*.json")):
        counts = json.loads(path.read_text())
        lines.append(f"| {path.stem} | " + " | ".join(str(counts.get(c, 0)) for c in cols) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(sys.argv[1]))
