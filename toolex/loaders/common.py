"""What every loader shares: field validation that names file/line/record/field, the normalised
benchmark (items, queries, qrels as row dicts), and the one atomic write into the store.

A load is all-or-nothing: everything is read and validated in Python first, then written in ONE
transaction through registered Arrow tables (``INSERT ... SELECT``), so a bad file or a crash
mid-write leaves the store exactly as it was. The benchmark's ``revision`` is a SHA-256 of
the normalised content, so loading the same content again is a no-op whatever the path.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, overload

import pyarrow as pa

from toolex.errors import InputError, ToolexError
from toolex.loaders.platforms import coverage
from toolex.loaders.readers import loads
from toolex.store import Store
from toolex.tooldoc.render import RENDER_VERSION, render_doc

ITEM_SCHEMA = pa.schema(
    [
        ("item_id", pa.string()),
        ("kind", pa.string()),
        ("name", pa.string()),
        ("platform", pa.string()),
        ("task", pa.string()),
        ("category", pa.string()),
        ("doc", pa.string()),
        ("text", pa.string()),
        ("platform_source", pa.string()),
    ]
)
QUERY_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("task", pa.string()),
        ("category", pa.string()),
        ("text", pa.string()),
        ("instruction", pa.string()),
    ]
)
QREL_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("item_id", pa.string()),
        ("relevance", pa.int32()),
        ("slot", pa.int32()),
    ]
)
EDGE_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("producer_slot", pa.int32()),
        ("consumer_slot", pa.int32()),
        ("value", pa.string()),
        ("source", pa.string()),
        ("origin", pa.string()),
    ]
)
KINDS = ("tool", "skill")
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1  # the store's INTEGER (relevance, slot)
_INT_TEXT = re.compile(r"\s*-?[0-9]{1,10}\s*", re.ASCII)
_NUMBER_TEXT = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?", re.ASCII)


# -- field validation ------------------------------------------------------------------------


@dataclass(frozen=True)
class Where:
    """Location of one record, for error messages."""

    path: str
    line: int | None = None
    record: str | None = None
    what: str = "record"  # what the record is named by: "query id", "item id", ...

    def error(self, message: str, field: str | None = None) -> InputError:
        return InputError(
            message,
            path=self.path,
            line=self.line,
            record=self.record,
            field=field,
            what=self.what,
        )


@overload
def get_str(
    rec: dict[str, Any], key: str, where: Where, *, required: Literal[True] = True
) -> str: ...
@overload
def get_str(rec: dict[str, Any], key: str, where: Where, *, required: bool) -> str | None: ...
def get_str(rec: dict[str, Any], key: str, where: Where, *, required: bool = True) -> str | None:
    """A string field; ints are accepted as ids (ToolBench query ids are numbers)."""
    value = rec.get(key)
    if value is None:
        if required:
            raise where.error("missing required field", key)
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise where.error(f"expected a string, found {type(value).__name__}", key)
    text = str(value)
    if required and not text.strip():
        raise where.error("empty text", key)
    return text


@overload
def get_int(rec: dict[str, Any], key: str, where: Where, default: int) -> int: ...
@overload
def get_int(rec: dict[str, Any], key: str, where: Where, default: None) -> int | None: ...
def get_int(rec: dict[str, Any], key: str, where: Where, default: int | None) -> int | None:
    """An integer field that fits the store's INTEGER (32 bits): an int, an integral float,
    or text of ASCII digits with an optional minus ("²", "--1", "1_000" are refused)."""
    value = rec.get(key, default)
    if value is None:
        return default
    integral = isinstance(value, float) and value.is_integer()
    if integral or (isinstance(value, str) and _INT_TEXT.fullmatch(value)):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise where.error(f"expected an integer, found {_brief(value)}", key)
    if not INT32_MIN <= value <= INT32_MAX:
        raise where.error(f"{_brief(value)} does not fit a 32-bit integer", key)
    return value


def relevance_of(text: str, where: Where, field: str = "score") -> int:
    """A relevance grade written as a number in a text file ('1', '2.0', '1e0'), truncated to
    an integer as BEIR and trec_eval read it; it must be finite and fit a 32-bit integer
    ('inf', '1_000', '1e12' are errors)."""
    text = text.strip()
    if not _NUMBER_TEXT.fullmatch(text):
        raise where.error(f"score {_brief(text)} is not a number", field)
    value = float(text)
    if not (math.isfinite(value) and INT32_MIN <= value <= INT32_MAX):
        raise where.error(f"score {_brief(text)} does not fit a 32-bit integer", field)
    return int(value)


def _brief(value: Any, limit: int = 60) -> str:
    text = repr(value) if not isinstance(value, int) or value.bit_length() < 200 else "a huge int"
    return text if len(text) <= limit else text[:limit] + "..."


def get_doc(rec: dict[str, Any], key: str, where: Where) -> dict[str, Any]:
    """Raw documentation: a JSON object (or a string holding one, as in the Hub Parquet)."""
    value = rec.get(key)
    if isinstance(value, str):
        try:
            value = loads(value)  # bounded: no NaN, no 100-level nesting
        except json.JSONDecodeError as exc:
            raise where.error(f"documentation string is not JSON: {exc.msg}", key) from None
    if value is None:
        raise where.error("missing required field", key)
    if not isinstance(value, dict):
        raise where.error(f"expected a JSON object, found {type(value).__name__}", key)
    if not value:
        raise where.error("empty documentation", key)
    return value


def dump_doc(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False)


def item_row(
    item_id: str,
    doc: dict[str, Any],
    where: Where,
    *,
    kind: str = "tool",
    name: str | None = None,
    platform: str | None = None,
    task: str | None = None,
    category: str | None = None,
    platform_source: str | None = None,
) -> dict[str, Any]:
    """An items row; text is THE rendering (toolex.tooldoc.render.render_doc).

    ``platform_source`` says where the platform came from (``"field platform"``,
    ``"doc.tool_name"``, a derivation rule: toolex.loaders.platforms); by default the field the
    loader read it from, ``"field platform"``."""
    text = render_doc(doc, platform=platform)
    if not text.strip():
        raise where.error("empty text: the documentation renders to nothing", "doc")
    if kind not in KINDS:
        raise where.error(f"kind must be one of {KINDS}, found {kind!r}", "kind")
    return {
        "item_id": item_id,
        "kind": kind,
        "name": name,
        "platform": platform,
        "task": task,
        "category": category,
        "doc": dump_doc(doc),
        "text": text,
        "platform_source": (platform_source or "field platform") if platform else None,
    }


# -- the normalised benchmark ----------------------------------------------------------------


@dataclass
class Benchmark:
    """A benchmark read and validated in memory, ready for one atomic write."""

    name: str
    format: str
    source: str
    items: list[dict[str, Any]] = field(default_factory=list)
    queries: list[dict[str, Any]] = field(default_factory=list)
    qrels: list[dict[str, Any]] = field(default_factory=list)
    # explicit producer->consumer edges of the queries' annotated plans (dependency_edges rows)
    edges: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the loader dropped or merged, and why
    label_field: str = "labels"  # the input field qrels come from, for error messages
    _item_where: dict[str, Where] = field(default_factory=dict, repr=False)
    _query_where: dict[str, Where] = field(default_factory=dict, repr=False)
    _qrel_where: list[Where] = field(default_factory=list, repr=False)
    _edge_where: list[tuple[Where, str]] = field(default_factory=list, repr=False)

    def add_item(self, row: dict[str, Any], where: Where) -> None:
        first = self._item_where.get(row["item_id"])
        if first is not None:
            raise where.error(f"duplicate item id {row['item_id']!r} (first at {_at(first)})", "id")
        self._item_where[row["item_id"]] = where
        self.items.append(row)

    def add_query(self, row: dict[str, Any], where: Where) -> None:
        if not row["text"].strip():
            raise where.error("empty text", "text")
        first = self._query_where.get(row["query_id"])
        if first is not None:
            raise where.error(
                f"duplicate query id {row['query_id']!r} (first at {_at(first)})", "id"
            )
        self._query_where[row["query_id"]] = where
        self.queries.append(row)

    def add_qrel(
        self, query_id: str, item_id: str, relevance: int, slot: int, where: Where
    ) -> None:
        self.qrels.append(
            {"query_id": query_id, "item_id": item_id, "relevance": relevance, "slot": slot}
        )
        self._qrel_where.append(where)

    def add_edges(self, query_id: str, given: Any, where: Where, field: str) -> None:
        """Explicit dependency edges of a query: a list of ``{"from": ..., "to": ..., "value":
        ...}`` where from/to name a slot (0-based) or an item id of the query's labels, the
        producer's response being passed into the consumer's parameters; ``value`` (optional)
        names what is handed over. Resolved to slots in ``validate`` (labels may come later)."""
        if given is None:
            return
        if not isinstance(given, list):
            raise where.error('expected a list of {"from", "to", "value"}', field)
        for edge in given:
            if not isinstance(edge, dict) or "from" not in edge or "to" not in edge:
                raise where.error(f'expected {{"from", "to", "value"}}, found {edge!r}', field)
            value = edge.get("value")
            if value is not None and not isinstance(value, str):
                raise where.error(f"value must be a string, found {value!r}", field)
            self._edge_where.append((where, field))
            self.edges.append(
                {
                    "query_id": query_id,
                    "producer_slot": edge["from"],
                    "consumer_slot": edge["to"],
                    "value": (value or "").strip(),
                    "source": "loaded",
                    "origin": where.path,
                }
            )

    def has_item(self, item_id: str) -> bool:
        return item_id in self._item_where

    def validate(self) -> None:
        """Every label names a loaded item and a loaded query, once per query."""
        label_field = self.label_field
        seen: dict[tuple[str, str], Where] = {}
        slots: set[tuple[str, int]] = set()
        for qrel, where in zip(self.qrels, self._qrel_where, strict=True):
            if qrel["item_id"] not in self._item_where:
                raise where.error(f"label names no item: {qrel['item_id']!r}", label_field)
            if qrel["query_id"] not in self._query_where:
                raise where.error(f"label names no query: {qrel['query_id']!r}", label_field)
            key = (qrel["query_id"], qrel["item_id"])
            if key in seen:
                raise where.error(
                    f"duplicate label {qrel['item_id']!r} for this query", label_field
                )
            seen[key] = where
            slot_key = (qrel["query_id"], qrel["slot"])
            if slot_key in slots:
                raise where.error(f"slot {qrel['slot']} is used twice in this query", "slot")
            slots.add(slot_key)
        self._resolve_edges()
        if not self.items:
            raise ToolexError(f"{self.source}: no items found; nothing to load")
        if not self.queries:
            raise ToolexError(f"{self.source}: no queries found; nothing to load")
        if not self.qrels:  # a benchmark without ground truth scores nothing
            raise ToolexError(
                f"{self.source}: no labels found ({self.label_field}); a benchmark needs at "
                "least one labelled query"
            )

    def _resolve_edges(self) -> None:
        """Edge ends named by item id become slots; every end must be a slot of the query."""
        slots: dict[str, dict[str, int]] = {}
        for qrel in self.qrels:
            slots.setdefault(qrel["query_id"], {})[qrel["item_id"]] = qrel["slot"]
        seen = set()
        for edge, (where, field_name) in zip(self.edges, self._edge_where, strict=True):
            of_query = slots.get(edge["query_id"], {})
            for end in ("producer_slot", "consumer_slot"):
                named = edge[end]
                if isinstance(named, str) and named in of_query:
                    edge[end] = of_query[named]
                elif isinstance(named, int) and not isinstance(named, bool):
                    if named not in of_query.values():
                        raise where.error(
                            f"edge names slot {named}, not a slot of the query", field_name
                        )
                else:
                    raise where.error(
                        f"edge end {named!r} is neither a slot nor a labelled item of the query",
                        field_name,
                    )
            if edge["producer_slot"] == edge["consumer_slot"]:
                raise where.error("an edge must join two different slots", field_name)
            key = tuple(edge[k] for k in ("query_id", "producer_slot", "consumer_slot", "value"))
            if key in seen:
                raise where.error("the same edge is given twice", field_name)
            seen.add(key)

    def revision(self) -> str:
        """SHA-256 of the normalised content and the render version (text depends on it)."""
        h = hashlib.sha256()
        h.update(f"{self.format}\0{RENDER_VERSION}\0".encode())
        for rows in (self.items, self.queries, self.qrels, self.edges):
            if rows is self.edges and not rows:
                continue  # benchmarks without edges keep the revision they always had
            for row in rows:
                if row.get("platform_source", "") is None:  # nor does an item without one
                    row = {k: v for k, v in row.items() if k != "platform_source"}
                h.update(json.dumps(row, sort_keys=True, ensure_ascii=False).encode())
                h.update(b"\n")
            h.update(b"\0")
        return h.hexdigest()


def _at(where: Where) -> str:
    return f"line {where.line}" if where.line is not None else f"{where.what} {where.record}"


@dataclass
class LoadResult:
    benchmark: str
    status: str  # loaded | replaced | unchanged
    items: int
    queries: int
    qrels: int
    revision: str
    notes: list[str] = field(default_factory=list)
    labels_per_query: dict[int, int] = field(default_factory=dict)  # {n labels: n queries}
    # per task: items, with_platform, sources {kind: n} (toolex.loaders.platforms.coverage)
    platforms: list[dict[str, Any]] = field(default_factory=list)
    edges: int = 0  # explicit dependency edges loaded
    edge_queries: int = 0  # queries that have any

    def summary(self) -> str:
        verb = {"unchanged": "already loaded, unchanged"}.get(self.status, self.status)
        lines = [
            f"{self.benchmark}: {verb} ({self.items} items, {self.queries} queries, "
            f"{self.qrels} labels)"
        ]
        if self.platforms:
            lines.append(
                "platforms (the dependency rule's input), per task: "
                + platform_line(self.platforms)
            )
        if self.edges:
            lines.append(f"dependency edges: {self.edges} loaded, in {self.edge_queries} queries")
        return "\n".join(lines)


def platform_line(coverage: Sequence[dict[str, Any]]) -> str:
    """'apibank 101/101 (task), toolink 0/1804 (none: hand-offs cannot be checked)'."""
    parts = []
    for c in coverage:
        sources = ", ".join(f"{k} {v}" for k, v in sorted(c["sources"].items()))
        known = f"({sources})" if sources else "(none: hand-offs cannot be checked)"
        parts.append(f"{c['task']} {c['with_platform']}/{c['items']} {known}")
    return "; ".join(parts)


# -- the atomic write ------------------------------------------------------------------------

_DELETE_ORDER = (
    "load/15_delete_dependency_edges.sql",
    "load/10_delete_item_docs.sql",
    "load/11_delete_qrels.sql",
    "load/12_delete_queries.sql",
    "load/13_delete_items.sql",
    "load/14_delete_benchmark.sql",
)


def existing_benchmark(store: Store, name: str) -> dict[str, Any] | None:
    rows = store.rows("load/01_find_benchmark.sql", {"benchmark": name})
    return rows[0] if rows else None


def write_benchmark(store: Store, bench: Benchmark, *, replace: bool = False) -> LoadResult:
    """Write ``bench`` in one transaction; same content again is a no-op, else needs replace."""
    bench.validate()
    revision = bench.revision()
    per_query: dict[str, int] = {}
    for qrel in bench.qrels:
        per_query[qrel["query_id"]] = per_query.get(qrel["query_id"], 0) + 1
    result = LoadResult(
        bench.name,
        "loaded",
        len(bench.items),
        len(bench.queries),
        len(bench.qrels),
        revision,
        list(bench.notes),
        histogram(per_query.values()),
        coverage(bench.items),
        len(bench.edges),
        len({e["query_id"] for e in bench.edges}),
    )
    old = existing_benchmark(store, bench.name)
    if old is not None:
        if old["revision"] == revision and not replace:
            result.status = "unchanged"
            return result
        if not replace:
            raise ToolexError(
                f"benchmark {bench.name!r} is already loaded (from {old['source']}, revision "
                f"{str(old['revision'])[:12]}) with different content (revision {revision[:12]}); "
                "pass --replace to swap it, or load under another --name"
            )
        refs = store.rows("load/02_benchmark_refs.sql", {"benchmark": bench.name})[0]
        if refs["runs"] or refs["expansions"]:
            result.notes.append(
                f"replaced benchmark {bench.name!r} is referenced by {refs['runs']} run(s) and "
                f"{refs['expansions']} expansion(s); they were kept and may name ids that no "
                "longer exist (re-run or delete them)"
            )
        result.status = "replaced"
    tables = {
        "new_items": arrow_rows(bench.items, ITEM_SCHEMA),
        "new_queries": arrow_rows(bench.queries, QUERY_SCHEMA),
        "new_qrels": arrow_rows(bench.qrels, QREL_SCHEMA),
        "new_edges": arrow_rows(bench.edges, EDGE_SCHEMA),
    }
    params = {"benchmark": bench.name}
    with store.registered_tables(tables), store.transaction():
        if old is not None:
            for name in _DELETE_ORDER:
                store.execute(name, params)
        store.execute(
            "load/20_insert_benchmark.sql",
            {**params, "format": bench.format, "source": bench.source, "revision": revision},
        )
        store.execute("load/21_insert_items.sql", params)
        store.execute("load/22_insert_queries.sql", params)
        store.execute("load/23_insert_qrels.sql", params)
        store.execute("load/24_insert_dependency_edges.sql", params)
    return result


def arrow_rows(rows: list[dict[str, Any]], schema: pa.Schema, chunk: int = 4096) -> pa.Table:
    """Row dicts as an Arrow table, converted a chunk of rows at a time: one builder per
    column for all rows grows by doubling and can hold twice the data, where chunks are sized
    to what they hold (benchmarks/bench_loader_memory.py)."""
    batches = [
        pa.RecordBatch.from_pylist(rows[i : i + chunk], schema=schema)
        for i in range(0, len(rows), chunk)
    ]
    return pa.Table.from_batches(batches, schema=schema)


def histogram(counts: Iterable[int]) -> dict[int, int]:
    """{n: how many} for labels-per-query style summaries."""
    out: dict[int, int] = {}
    for n in counts:
        out[n] = out.get(n, 0) + 1
    return dict(sorted(out.items()))
