"""Import sub-queries made elsewhere (stage 1 of the pipeline, done by another tool or by hand).

Input (JSONL, JSON array or Parquet): ``query_id, slot, text`` and optional ``operation``,
``entity``, ``reference``. A query's sub-queries must cover exactly the slots of its ground-truth
combination (one sub-query per ground-truth tool); the ground-truth tool of a slot, stored as the
sub-query's ``reference``, is taken from qrels, and a ``reference`` the file gives must be that
tool (a file of another benchmark's sub-queries is refused, not imported onto the wrong slots).
``ref_item_id``, the column's name before schema 072 (a file dumped from an older store), is read
as ``reference`` with a note. Rows are stored with judge 'import' in the named expansion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from toolex.errors import ToolexError
from toolex.expansions.originals import ensure_expansion, original_combinations, record_query
from toolex.expansions.queries import stored_subqueries
from toolex.loaders.fields import Where, get_int, get_str
from toolex.loaders.readers import iter_dicts, read_records
from toolex.store import Store

SUBQUERY_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("slot", pa.int32()),
        ("text", pa.string()),
        ("operation", pa.string()),
        ("entity", pa.string()),
    ]
)


# The old name of the reference field, read from files written before schema 072 renamed it.
OLD_REFERENCE = "ref_item_id"
OLD_NOTE = (
    "{n} row(s) give the reference as {old!r}, its name before schema 072; read as 'reference'"
)


@dataclass
class SubqueryImport:
    benchmark: str
    expansion: str
    queries: int
    subqueries: int
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{self.benchmark}/{self.expansion}: imported {self.subqueries} sub-queries "
            f"for {self.queries} queries"
        )


def import_subqueries(
    store: Store,
    path: str | Path,
    *,
    benchmark: str,
    expansion: str = "default",
    replace: bool = False,
) -> SubqueryImport:
    path = Path(path)
    originals = original_combinations(store, benchmark)
    rows: list[dict[str, object]] = []
    slots: dict[str, dict[int, Where]] = {}
    old_spelling = 0
    for rec, line in iter_dicts(path, read_records(path)):
        query_id, where = record_query(rec, path, line, originals, benchmark)
        slot = get_int(rec, "slot", where, None)
        if slot is None:
            raise where.error("missing required field", "slot")
        if slot in slots.setdefault(query_id, {}):
            raise where.error(f"slot {slot} is given twice for this query", "slot")
        slots[query_id][slot] = where
        old_spelling += _check_reference(rec, where, slot, originals[query_id].get(slot))
        rows.append(
            {
                "query_id": query_id,
                "slot": slot,
                "text": get_str(rec, "text", where),
                "operation": get_str(rec, "operation", where, required=False),
                "entity": get_str(rec, "entity", where, required=False),
            }
        )
    if not rows:
        raise ToolexError(f"{path}: no sub-queries in the file")
    for query_id, given in slots.items():
        expected = sorted(originals[query_id])
        if sorted(given) != expected:
            where = next(iter(given.values()))
            raise where.error(
                f"query {query_id!r} has {len(given)} sub-queries (slots {sorted(given)}) but "
                f"{len(expected)} ground-truth tools (slots {expected}); "
                "give one sub-query per tool",
                "slot",
            )
    params = {"benchmark": benchmark, "expansion": expansion}
    with store.registered("new_subqueries", pa.Table.from_pylist(rows, schema=SUBQUERY_SCHEMA)):
        stored = stored_subqueries(store, params)
        if stored.queries and not replace:
            raise ToolexError(
                f"expansion {expansion!r} already has sub-queries for {stored.queries} of these "
                f"queries (e.g. {stored.first_query!r}); pass --replace to swap them"
            )
        with store.transaction():
            ensure_expansion(store, benchmark, expansion, path)
            store.execute("expansions/21_delete_subqueries.sql", params)
            store.execute("expansions/22_insert_subqueries.sql", params)
    notes = [OLD_NOTE.format(n=old_spelling, old=OLD_REFERENCE)] if old_spelling else []
    return SubqueryImport(benchmark, expansion, len(slots), len(rows), notes)


def _check_reference(rec: dict[str, object], where: Where, slot: int, tool: str | None) -> bool:
    """A record's ``reference`` (or its old name), if given, must be ``tool``, the slot's
    ground-truth tool from qrels; True when the record used the old name."""
    old = "reference" not in rec and OLD_REFERENCE in rec
    name = OLD_REFERENCE if old else "reference"
    given = get_str(rec, name, where, required=False)
    if given is not None and tool is not None and given != tool:
        raise where.error(
            f"reference {given!r} is not the ground-truth tool of slot {slot} ({tool!r})", name
        )
    return old
