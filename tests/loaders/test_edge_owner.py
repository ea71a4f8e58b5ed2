"""One owner for dependency_edges: only toolex.loaders (with sql/load/) writes the explicit edges,
whether a load reads them with the benchmark or an import hands them over."""

from __future__ import annotations

import re
from pathlib import Path

from toolex.loaders.edges import DependencyEdge
from toolex.store import Store

ROOT = Path(__file__).resolve().parents[2]
WRITE = re.compile(
    r"\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|DELETE\s+FROM|UPDATE|TRUNCATE\s+(?:TABLE\s+)?|COPY)"
    r"\s+dependency_edges\b",
    re.IGNORECASE,
)
ALLOWED = ("toolex/loaders/", "sql/load/", "sql/schema/")


def _sources() -> list[Path]:
    files = [*(ROOT / "toolex").rglob("*.py"), *(ROOT / "tui").rglob("*.py")]
    return sorted(files + list((ROOT / "sql").rglob("*.sql")))


def test_only_toolex_loaders_writes_dependency_edges() -> None:
    found = {p.relative_to(ROOT).as_posix() for p in _sources() if WRITE.search(p.read_text())}
    assert "sql/load/25_add_dependency_edges.sql" in found  # the pattern sees the real writers
    assert not [f for f in found if not f.startswith(ALLOWED)], found


def test_an_edge_record_is_a_row_of_the_table(store: Store) -> None:
    columns = {row[0] for row in store.con.execute("DESCRIBE dependency_edges").fetchall()}
    assert set(DependencyEdge._fields) <= columns
