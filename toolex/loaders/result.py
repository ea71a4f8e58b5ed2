"""What a load reports: counts, notes, the qrels-per-query histogram and platform coverage."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolex.loaders.platforms import PlatformCoverage


@dataclass
class LoadResult:
    benchmark: str
    status: str  # loaded | replaced | unchanged
    items: int
    queries: int
    qrels: int
    revision: str
    notes: list[str] = field(default_factory=list)
    qrels_per_query: dict[int, int] = field(default_factory=dict)  # {n qrels: n queries}
    # per task: items, with_platform, sources {kind: n} (toolex.loaders.platforms.coverage)
    platforms: list[PlatformCoverage] = field(default_factory=list)
    edges: int = 0  # explicit dependency edges loaded
    edge_queries: int = 0  # queries that have any

    def summary(self) -> str:
        verb = {"unchanged": "already loaded, unchanged"}.get(self.status, self.status)
        lines = [
            f"{self.benchmark}: {verb} ({self.items} items, {self.queries} queries, "
            f"{self.qrels} qrels)"
        ]
        if self.platforms:
            lines.append(
                "platforms (the dependency rule's input), per task: "
                + platform_line(self.platforms)
            )
        if self.edges:
            lines.append(f"dependency edges: {self.edges} loaded, in {self.edge_queries} queries")
        return "\n".join(lines)


def platform_line(coverage: Sequence[PlatformCoverage]) -> str:
    """'apibank 101/101 (task), toolink 0/1804 (none: hand-offs cannot be checked)'."""
    parts = []
    for c in coverage:
        sources = ", ".join(f"{k} {v}" for k, v in sorted(c["sources"].items()))
        known = f"({sources})" if sources else "(none: hand-offs cannot be checked)"
        parts.append(f"{c['task']} {c['with_platform']}/{c['items']} {known}")
    return "; ".join(parts)


def histogram(counts: Iterable[int]) -> dict[int, int]:
    """{n: how many} for qrels-per-query style summaries."""
    out: dict[int, int] = {}
    for n in counts:
        out[n] = out.get(n, 0) + 1
    return dict(sorted(out.items()))
