"""One owner per concept: only toolex.runs (with sql/runs/) writes the run tables, and RRF's k is
defined once. A second writer or a second constant is how two copies start to drift."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUN_TABLES = ("runs", "run_results", "subquery_results")
_TABLE = rf"(?:{'|'.join(RUN_TABLES)})\b"
WRITE = re.compile(
    rf"\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO\s+{_TABLE}|DELETE\s+FROM\s+{_TABLE}"
    rf"|UPDATE\s+{_TABLE}\s+SET|TRUNCATE\s+(?:TABLE\s+)?{_TABLE})",
    re.IGNORECASE,
)
# The owner, its SQL folder, and the schema migrations that create (or migrate) the tables.
ALLOWED = ("toolex/runs/", "sql/runs/", "sql/schema/")


def _sources() -> list[Path]:
    files = [*(ROOT / "toolex").rglob("*.py"), *(ROOT / "tui").rglob("*.py")]
    return sorted(files + list((ROOT / "sql").rglob("*.sql")))


def test_only_toolex_runs_writes_the_run_tables() -> None:
    writers = {}
    for path in _sources():
        rel = path.relative_to(ROOT).as_posix()
        hits = WRITE.findall(path.read_text(encoding="utf-8"))
        if hits and not rel.startswith(ALLOWED):
            writers[rel] = hits
    assert not writers, f"run tables written outside toolex/runs and sql/runs: {writers}"


def test_the_owner_does_write_them() -> None:
    # the pattern must see the real writers, or the test above proves nothing
    found = {p.relative_to(ROOT).as_posix() for p in _sources() if WRITE.search(p.read_text())}
    assert "sql/runs/31_insert_run_results.sql" in found
    assert "sql/runs/12_delete_run.sql" in found


def test_rrf_k_is_defined_once() -> None:
    define = re.compile(r"^\s*RRF_K\s*(?::[^=]+)?=", re.MULTILINE)
    places = [
        p.relative_to(ROOT).as_posix()
        for folder in ("toolex", "tui", "benchmarks")
        for p in (ROOT / folder).rglob("*.py")
        if define.search(p.read_text(encoding="utf-8"))
    ]
    assert places == ["toolex/runs/rrf.py"]


def test_no_rrf_constant_is_written_out() -> None:
    # "rrf_k": 60 or rrf_k=60 passed to SQL would be a second copy of the constant
    literal = re.compile(r"""rrf_k["']?\s*[:=]\s*60\b""")
    places = [
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "toolex").rglob("*.py")
        if literal.search(p.read_text(encoding="utf-8"))
    ]
    assert not places
