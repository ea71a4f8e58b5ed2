"""One owner per table: only toolex.expansions (with sql/expansions/) writes the expansion tables,
for pipeline stages and imports alike, and the records it takes are columns of those tables. A
second writer is how two copies of one write start to drift."""

from __future__ import annotations

import re
from pathlib import Path

from toolex.expansions import AuditStatus, CandidateRow, ProductCount, SubqueryRow
from toolex.store import Store

ROOT = Path(__file__).resolve().parents[2]
TABLES = (
    "expansions",
    "subqueries",
    "candidates",
    "combinations",
    "combination_items",
    "combination_products",
)
_TABLE = rf"(?:{'|'.join(TABLES)})\b"
WRITE = re.compile(
    rf"\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO\s+{_TABLE}|DELETE\s+FROM\s+{_TABLE}"
    rf"|UPDATE\s+{_TABLE}|TRUNCATE\s+(?:TABLE\s+)?{_TABLE}|COPY\s+{_TABLE})",
    re.IGNORECASE,
)
# The owner, its SQL folder, and the schema migrations that create (or migrate) the tables.
ALLOWED = ("toolex/expansions/", "sql/expansions/", "sql/schema/")
# A shipped file of sql/expansions named by its path, e.g. "expansions/23_insert_...sql".
NAMES_A_FILE = re.compile(r"""["']expansions/\d+_""")


def _sources() -> list[Path]:
    files = [*(ROOT / "toolex").rglob("*.py"), *(ROOT / "tui").rglob("*.py")]
    return sorted(files + list((ROOT / "sql").rglob("*.sql")))


def test_only_toolex_expansions_writes_the_expansion_tables() -> None:
    writers = {}
    for path in _sources():
        rel = path.relative_to(ROOT).as_posix()
        hits = WRITE.findall(path.read_text(encoding="utf-8"))
        if hits and not rel.startswith(ALLOWED):
            writers[rel] = hits
    assert not writers, f"expansion tables written outside toolex/expansions: {writers}"


def test_only_toolex_expansions_runs_its_sql() -> None:
    callers = [
        p.relative_to(ROOT).as_posix()
        for p in _sources()
        if p.suffix == ".py" and NAMES_A_FILE.search(p.read_text(encoding="utf-8"))
    ]
    assert callers and all(c.startswith("toolex/expansions/") for c in callers), callers


def test_the_owner_does_write_them() -> None:
    # the pattern must see the real writers, or the tests above prove nothing
    found = {p.relative_to(ROOT).as_posix() for p in _sources() if WRITE.search(p.read_text())}
    for name in (
        "23_insert_decomposed_subqueries",
        "31_store_assembled",
        "32_set_audit_status",
        "30_count_products",
        "03_upsert_expansion",
        "44_drop_expansion",
        "15_insert_combinations",
        "24_insert_candidates",
        "45_drop_candidates",
    ):
        assert f"sql/expansions/{name}.sql" in found


def test_the_records_are_columns_of_their_tables(store: Store) -> None:
    for record, table in (
        (SubqueryRow, "subqueries"),
        (CandidateRow, "candidates"),
        (AuditStatus, "combinations"),
        (ProductCount, "combination_products"),
    ):
        columns = {row[0] for row in store.con.execute(f"DESCRIBE {table}").fetchall()}
        assert set(record._fields) <= columns, f"{record.__name__} is not a row of {table}"
