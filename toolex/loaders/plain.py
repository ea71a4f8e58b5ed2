"""The plain toolex schema: three files (JSONL, JSON array or Parquet, chosen by suffix) that any
benchmark can be mapped into — SkillRet, an in-house tool set, a converted BEIR set.

items    id (required); text or doc (one required: doc is the raw documentation object, text a
         plain description); optional name, platform, kind (tool|skill), task, category
queries  id, text (required); optional instruction, task, category
qrels    query_id, item_id (required); optional relevance (default 1), slot (0-based position
         of the item in the annotated combination; default: file order within the query)

An item given only ``text`` gets the doc ``{"name": name, "description": text}`` so it is rendered
by the same function as every other benchmark. ``--kind skill`` sets the default kind (SkillRet).
"""

from __future__ import annotations

from pathlib import Path

from toolex.loaders.common import Benchmark, Where, get_doc, get_int, get_str, item_row
from toolex.loaders.readers import iter_dicts, read_records


def read_plain(
    items: str | Path,
    queries: str | Path,
    qrels: str | Path,
    *,
    name: str,
    kind: str = "tool",
) -> Benchmark:
    source = ", ".join(str(p) for p in (items, queries, qrels))
    bench = Benchmark(name, "plain", source, label_field="item_id")
    for rec, line in iter_dicts(items, read_records(items)):
        where = Where(str(items), line)
        item_id = get_str(rec, "id", where)
        where = Where(str(items), line, item_id)
        item_name = get_str(rec, "name", where, required=False)
        if rec.get("doc") is not None:
            doc = get_doc(rec, "doc", where)
        else:
            if rec.get("text") is None:
                raise where.error("missing required field: give text or doc", "text")
            text = get_str(rec, "text", where)
            doc = {"name": item_name, "description": text} if item_name else {"description": text}
        row = item_row(
            item_id,
            doc,
            where,
            kind=get_str(rec, "kind", where, required=False) or kind,
            name=item_name or (doc.get("name") if isinstance(doc.get("name"), str) else None),
            platform=get_str(rec, "platform", where, required=False),
            task=get_str(rec, "task", where, required=False),
            category=get_str(rec, "category", where, required=False),
        )
        bench.add_item(row, where)
    for rec, line in iter_dicts(queries, read_records(queries)):
        where = Where(str(queries), line)
        query_id = get_str(rec, "id", where)
        where = Where(str(queries), line, query_id)
        bench.add_query(
            {
                "query_id": query_id,
                "text": get_str(rec, "text", where),
                "instruction": get_str(rec, "instruction", where, required=False),
                "task": get_str(rec, "task", where, required=False),
                "category": get_str(rec, "category", where, required=False),
            },
            where,
        )
    slots: dict[str, int] = {}
    for rec, line in iter_dicts(qrels, read_records(qrels)):
        where = Where(str(qrels), line)
        query_id = get_str(rec, "query_id", where)
        where = Where(str(qrels), line, query_id)
        item_id = get_str(rec, "item_id", where)
        slot = get_int(rec, "slot", where, None)
        if slot is None:
            slot = slots.get(query_id, 0)
        slots[query_id] = max(slots.get(query_id, 0), slot + 1)
        bench.add_qrel(query_id, item_id, get_int(rec, "relevance", where, 1), slot, where)
    return bench
