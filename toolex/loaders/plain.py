"""The plain toolex schema: three files (JSONL, JSON array or Parquet, chosen by suffix) that any
benchmark can be mapped into — SkillRet, an in-house tool set, a converted BEIR set.

items    id (required); text or doc (one required: doc is the raw documentation object, text a
         plain description); optional name, platform, kind (tool|skill), task, category
queries  id, text (required); optional instruction, task, category, dependencies (the call
         chain of the annotated plan: ``[{"from": 0, "to": 1, "value": "token"}]``, from/to a
         slot or a judged item id, the producer's response passed into the consumer's
         parameters, value naming what is handed over; stored in dependency_edges)
         and, without a qrels file, qrels (the gold tools in plan order, each an item id or
         ``{id, relevance, from, outputs, arguments}``: ``from`` lists the steps whose output it
         takes; a placeholder of a step's ``outputs`` in another's ``arguments`` is a call
         chain too: :mod:`toolex.loaders.placeholders`)
qrels    query_id, item_id (required); optional relevance (default 1), slot (0-based position
         of the item in the annotated combination; default: file order within the query)

Files with other field names load through ``fields``, the ``--map TARGET=SOURCE`` options
(:mod:`toolex.loaders.fieldmap`, which lists every field read): JSON paths into nested records,
a query's list of gold tools, call chains written as step references.

An item given only ``text`` gets the doc ``{"name": name, "description": text}`` so it is rendered
by the same function as every other benchmark; without a name, it takes the one its text opens
with (``name: description``, ``name(args)``, a code-shaped subject: :mod:`toolex.loaders.names`),
and the load's notes count the items that took one and those left unnamed. A raw record in a
benchmark's own shape (a ToolBench endpoint ``{api_name, api_description, required_parameters,
...}``, an OpenAPI operation) goes whole under ``doc``; its name is then read from the doc
(``name``, ``api_name`` or ``title``) unless the item gives one. ``--kind skill`` sets the
default kind (SkillRet).

SkillRet (toolex.loaders.skillret) is the plain schema under a field mapping.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from toolex.errors import InputError
from toolex.loaders.benchmark import Benchmark, check_slots, item_row
from toolex.loaders.fieldmap import FieldMap
from toolex.loaders.fields import Where, get_doc, get_id, get_int, get_str
from toolex.loaders.names import name_from_text
from toolex.loaders.placeholders import placeholder_edges
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
    qrels: str | Path | None = None,
    *,
    name: str,
    kind: str = "tool",
    fields: Sequence[str] = (),
) -> Benchmark:
    """The three files (``qrels`` None: qrels from each query's ``labels``), read through the
    ``--map`` mappings ``fields``."""
    fmap = FieldMap.parse(fields)
    if qrels is not None and fmap.mapped("queries.labels"):
        raise InputError(
            "qrels come from --qrels or from --map queries.labels, not both", field="--map"
        )
    if qrels is None and (fmap.files["qrels"].sources or fmap.files["qrels"].records):
        raise InputError("--map qrels... needs a --qrels file", field="--map")
    source = ", ".join(str(p) for p in (items, queries, qrels) if p is not None)
    if qrels is not None:
        qrel_field = fmap.files["qrels"].sources.get("item_id")
    else:
        qrel_field = fmap.files["queries"].sources.get("labels")
    default = "item_id" if qrels is not None else "labels"
    bench = Benchmark(name, "plain", source, qrel_field=qrel_field.text if qrel_field else default)
    add_items(bench, fmap.files["items"].read(items, "item id"), kind)
    if qrels is None:
        listed: list[tuple[dict[str, object], Where]] = []
        add_queries(bench, fmap.files["queries"].read(queries, "query id"), listed)
        if not listed:
            raise InputError(
                "no qrels: give a --qrels file, or each query's gold tools in a labels field "
                "(--map queries.labels=<path> when your records call it something else)",
                path=str(queries),
            )
        add_qrels(bench, listed)
    else:
        add_queries(bench, fmap.files["queries"].read(queries, "query id"))
        add_qrels(bench, fmap.files["qrels"].read(qrels, "query id"))
    return bench


def add_items(bench: Benchmark, records: Records, kind: str) -> None:
    """Items; one given a text and no name gets the name its text opens with
    (:mod:`toolex.loaders.names`), and a note counts them, and those left without one."""
    shapes: Counter[str] = Counter()
    for rec, where in records:
        item_id = get_id(rec, "id", where)
        where = replace(where, record=item_id, what="item id")
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
            if not item_name:
                derived = name_from_text(text)
                shapes[derived.shape if derived else ""] += 1
                if derived is not None:
                    item_name, text = derived.name, derived.description
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
    if shapes:
        bench.notes.append(_unnamed_note(shapes))


def _unnamed_note(shapes: Counter[str]) -> str:
    """How many text-only items got a name from their text, by shape, and how many have none."""
    total, left = sum(shapes.values()), shapes[""]
    named = ", ".join(f"{n} from {shape!r}" for shape, n in shapes.most_common() if shape)
    note = f"{total} item(s) have a text and no name"
    if named:
        note += f": {total - left} took the name their text opens with ({named})"
    if left:
        note += (
            f"{';' if named else ':'} {left} {'has' if left == 1 else 'have'} no name (the "
            "judges read their description alone, and `expand` warns when most ground-truth "
            "tools are unnamed): give a name field, or --map items.name=SOURCE"
        )
    return note


def add_queries(
    bench: Benchmark, records: Records, qrels: list[tuple[dict[str, object], Where]] | None = None
) -> None:
    """Queries; with ``labels``, each query's ``labels`` are gathered there as qrel records
    (slot = position in the list) and their ``from`` steps become edges."""
    for rec, where in records:
        query_id = get_id(rec, "id", where)
        where = replace(where, record=query_id, what="query id")
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
        if qrels is not None and rec.get("labels") is not None:
            qrels += _listed_qrels(bench, query_id, rec["labels"], where)


def _listed_qrels(
    bench: Benchmark, query_id: str, given: object, where: Where
) -> list[tuple[dict[str, object], Where]]:
    """A query's list of gold tools as qrel records; a step's ``from`` (a position in the
    list, or an item id; negative: no producer, as HuggingGPT's ``dep: [-1]``) adds the edge
    from that step to this one, and so does a placeholder of a step's ``outputs`` found in
    another's ``arguments`` (:mod:`toolex.loaders.placeholders`)."""
    spelled = dict(where.fields).get("labels", "labels")
    named = ((f, spelled) for f in ("item_id", "relevance", "slot"))
    at = replace(where, fields=(*where.fields, *named))
    out = []
    edges = []
    calls: list[tuple[object, object]] = []  # each step's (outputs, arguments)
    for position, qrel in enumerate(given if isinstance(given, list) else [given]):
        if not isinstance(qrel, dict):
            raise at.error(
                f"expected an item id or {{id, relevance, from}}, found {qrel!r}", "labels"
            )
        calls.append((qrel.get("outputs"), qrel.get("arguments")))
        out.append(({"query_id": query_id, "item_id": qrel.get("id"), "slot": position,
                     "relevance": qrel.get("relevance")}, at))  # fmt: skip
        steps = qrel.get("from")
        for step in steps if isinstance(steps, list) else [] if steps is None else [steps]:
            if isinstance(step, str) and step.strip().lstrip("-").isdigit():
                step = int(step)
            if isinstance(step, int) and not isinstance(step, bool) and step < 0:
                continue  # documented: a negative step means "no producer"
            edges.append({"from": step, "to": position})
    if edges:
        bench.add_edges(query_id, edges, where, "labels.from")
    chained = placeholder_edges(calls, where)
    if chained:
        bench.add_edges(query_id, chained, where, "labels.arguments")
    return out


@dataclass
class _Qrel:
    item_id: str
    relevance: int
    slot: int
    where: Where


def add_qrels(bench: Benchmark, records: Records) -> None:
    """Qrels. A query's qrel lines fill slots 0..k-1 (k = its lines; ``slot`` defaults to
    the next one in file order): a negative slot, one past k-1 or one used twice is refused at
    its line. A (query, item) pair given twice (a plan that uses one tool in two steps) is one
    qrel, as trec_eval reads a repeated qrels line: it keeps its first slot and the highest
    relevance, and the query's later qrels move up a slot so the slots stay 0..k-1; edges
    given by slot number follow their qrel (counted in a note)."""
    per_query: dict[str, list[_Qrel]] = {}
    for rec, where in records:
        query_id = get_id(rec, "query_id", where)
        where = replace(where, record=query_id, what="query id")
        item_id = get_id(rec, "item_id", where)
        relevance = get_int(rec, "relevance", where, 1)
        query_qrels = per_query.setdefault(query_id, [])
        slot = get_int(rec, "slot", where, None)
        if slot is None:
            slot = max((qrel.slot for qrel in query_qrels), default=-1) + 1
        query_qrels.append(_Qrel(item_id, relevance, slot, where))
    merged = 0
    for query_id, query_qrels in per_query.items():
        check_slots(query_id, [(qrel.slot, qrel.where) for qrel in query_qrels])
        kept: dict[str, _Qrel] = {}
        for qrel in sorted(query_qrels, key=lambda q: q.slot):
            first = kept.get(qrel.item_id)
            if first is None:
                kept[qrel.item_id] = replace(qrel, slot=len(kept))
            else:
                best = max(first.relevance, qrel.relevance)
                kept[qrel.item_id] = replace(first, relevance=best)
        if len(kept) < len(query_qrels):
            merged += len(query_qrels) - len(kept)
            bench.slot_moves[query_id] = {q.slot: kept[q.item_id].slot for q in query_qrels}
        for qrel in query_qrels:  # file order, as the revision has always hashed them
            row = kept.pop(qrel.item_id, None)
            if row is not None:
                bench.add_qrel(query_id, row.item_id, row.relevance, row.slot, row.where)
    if merged:
        bench.notes.append(
            f"{merged} qrel(s) repeat a (query id, item id) pair (one tool in two steps); "
            "merged into the first one's slot, keeping the highest relevance, and the later "
            "qrels of those queries moved up a slot so slots stay 0..k-1"
        )


def _doc_name(doc: Mapping[str, object]) -> str | None:
    for key in ("name", "api_name", "title"):
        value = doc.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def _located(path: str | Path, what: str = "record") -> Iterator[tuple[dict[str, object], Where]]:
    for rec, line in iter_dicts(path, iter_records(path)):
        yield rec, Where(str(path), line, what=what)
