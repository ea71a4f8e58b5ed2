"""The plain toolex schema: three files (JSONL, JSON array or Parquet, chosen by suffix) that any
benchmark can be mapped into — SkillRet, an in-house tool set, a converted BEIR set.

items    id (required); text or doc (one required: doc is the raw documentation object, text a
         plain description); optional name, platform, kind (tool|skill), task, category
queries  id, text (required); optional instruction, task, category, dependencies (the call
         chain of the annotated plan: ``[{"from": 0, "to": 1, "value": "token"}]``, from/to a
         slot or a labelled item id, the producer's response passed into the consumer's
         parameters, value naming what is handed over; stored in dependency_edges)
qrels    query_id, item_id (required); optional relevance (default 1), slot (0-based position
         of the item in the annotated combination; default: file order within the query)

An item given only ``text`` gets the doc ``{"name": name, "description": text}`` so it is rendered
by the same function as every other benchmark. A raw record in a benchmark's own shape (a
ToolBench endpoint ``{api_name, api_description, required_parameters, ...}``, an OpenAPI
operation) goes whole under ``doc``; its name is then read from the doc (``name``, ``api_name``
or ``title``) unless the item gives one. ``--kind skill`` sets the default kind (SkillRet).

SkillRet (toolex.loaders.skillret) is the plain schema under a field mapping.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from toolex.loaders.benchmark import Benchmark, item_row
from toolex.loaders.fields import Where, get_doc, get_int, get_str
from toolex.loaders.readers import iter_dicts, iter_records

Records = Iterable[tuple[dict[str, Any], Where]]

# An example record of each file, for `toolex load plain --help` and the docs.
EXAMPLE_ITEM = (
    '{"id": "weather::forecast", "name": "forecast", "platform": "weather",\n'
    ' "doc": {"api_name": "forecast", "api_description": "Daily forecast for a city",\n'
    '         "required_parameters": [{"name": "city", "type": "STRING"}]}}'
)
EXAMPLE_QUERY = '{"id": "q1", "text": "Will it rain in Lyon tomorrow?"}'
EXAMPLE_QREL = '{"query_id": "q1", "item_id": "weather::forecast"}'


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
    add_items(bench, _located(items, "item id"), kind)
    add_queries(bench, _located(queries, "query id"))
    add_qrels(bench, _located(qrels, "query id"))
    return bench


def add_items(bench: Benchmark, records: Records, kind: str) -> None:
    for rec, where in records:
        item_id = get_str(rec, "id", where)
        where = Where(where.path, where.line, item_id, what="item id")
        item_name = get_str(rec, "name", where, required=False)
        if rec.get("doc") is not None:
            doc = get_doc(rec, "doc", where)
        else:
            if rec.get("text") is None:
                raise where.error(
                    "missing required field: give text (a description) or doc (the raw "
                    "documentation object; a record such as {api_name, api_description, ...} "
                    "goes whole under doc)",
                    "text",
                )
            text = get_str(rec, "text", where)
            doc = {"name": item_name, "description": text} if item_name else {"description": text}
        row = item_row(
            item_id,
            doc,
            where,
            kind=get_str(rec, "kind", where, required=False) or kind,
            name=item_name or _doc_name(doc),
            platform=get_str(rec, "platform", where, required=False),
            task=get_str(rec, "task", where, required=False),
            category=get_str(rec, "category", where, required=False),
        )
        bench.add_item(row, where)


def add_queries(bench: Benchmark, records: Records) -> None:
    for rec, where in records:
        query_id = get_str(rec, "id", where)
        where = Where(where.path, where.line, query_id, what="query id")
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
        bench.add_edges(query_id, rec.get("dependencies"), where, "dependencies")


def add_qrels(bench: Benchmark, records: Records) -> None:
    """Labels; a (query, item) pair given twice keeps its highest relevance (counted in a note),
    as trec_eval does with a repeated qrels line."""
    slots: dict[str, int] = {}
    seen: dict[tuple[str, str], int] = {}
    merged = 0
    for rec, where in records:
        query_id = get_str(rec, "query_id", where)
        where = Where(where.path, where.line, query_id, what="query id")
        item_id = get_str(rec, "item_id", where)
        relevance = get_int(rec, "relevance", where, 1)
        if (query_id, item_id) in seen:
            merged += 1
            index = seen[(query_id, item_id)]
            bench.qrels[index]["relevance"] = max(bench.qrels[index]["relevance"], relevance)
            continue
        slot = get_int(rec, "slot", where, None)
        if slot is None:
            slot = slots.get(query_id, 0)
        slots[query_id] = max(slots.get(query_id, 0), slot + 1)
        seen[(query_id, item_id)] = len(bench.qrels)
        bench.add_qrel(query_id, item_id, relevance, slot, where)
    if merged:
        bench.notes.append(
            f"{merged} label(s) repeat a (query id, item id) pair; merged, keeping the highest "
            "relevance"
        )


def _doc_name(doc: dict[str, Any]) -> str | None:
    for key in ("name", "api_name", "title"):
        if isinstance(doc.get(key), str) and doc[key].strip():
            return str(doc[key])
    return None


def _located(path: str | Path, what: str = "record") -> Iterator[tuple[dict[str, Any], Where]]:
    for rec, line in iter_dicts(path, iter_records(path)):
        yield rec, Where(str(path), line, what=what)
