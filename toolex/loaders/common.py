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
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, overload

import pyarrow as pa

from toolex.errors import InputError, ToolexError
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
KINDS = ("tool", "skill")


# -- field validation ------------------------------------------------------------------------


@dataclass(frozen=True)
class Where:
    """Location of one record, for error messages."""

    path: str
    line: int | None = None
    record: str | None = None

    def error(self, message: str, field: str | None = None) -> InputError:
        return InputError(message, path=self.path, line=self.line, record=self.record, field=field)


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
    value = rec.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool):
        raise where.error(f"expected an integer, found {value!r}", key)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    if not isinstance(value, int):
        raise where.error(f"expected an integer, found {value!r}", key)
    return value


def get_doc(rec: dict[str, Any], key: str, where: Where) -> dict[str, Any]:
    """Raw documentation: a JSON object (or a string holding one, as in the Hub Parquet)."""
    value = rec.get(key)
    if isinstance(value, str):
        try:
            value = json.loads(value)
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
) -> dict[str, Any]:
    """An items row; text is THE rendering (toolex.tooldoc.render.render_doc)."""
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
    notes: list[str] = field(default_factory=list)  # what the loader dropped or merged, and why
    label_field: str = "labels"  # the input field qrels come from, for error messages
    _item_where: dict[str, Where] = field(default_factory=dict, repr=False)
    _query_where: dict[str, Where] = field(default_factory=dict, repr=False)
    _qrel_where: list[Where] = field(default_factory=list, repr=False)

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
        if not self.items:
            raise ToolexError(f"{self.source}: no items found; nothing to load")
        if not self.queries:
            raise ToolexError(f"{self.source}: no queries found; nothing to load")

    def revision(self) -> str:
        """SHA-256 of the normalised content and the render version (text depends on it)."""
        h = hashlib.sha256()
        h.update(f"{self.format}\0{RENDER_VERSION}\0".encode())
        for rows in (self.items, self.queries, self.qrels):
            for row in rows:
                h.update(json.dumps(row, sort_keys=True, ensure_ascii=False).encode())
                h.update(b"\n")
            h.update(b"\0")
        return h.hexdigest()


def _at(where: Where) -> str:
    return f"line {where.line}" if where.line is not None else f"record {where.record}"


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

    def summary(self) -> str:
        verb = {"unchanged": "already loaded, unchanged"}.get(self.status, self.status)
        return (
            f"{self.benchmark}: {verb} ({self.items} items, {self.queries} queries, "
            f"{self.qrels} labels)"
        )


# -- the atomic write ------------------------------------------------------------------------

_DELETE_ORDER = (
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
        "new_items": pa.Table.from_pylist(bench.items, schema=ITEM_SCHEMA),
        "new_queries": pa.Table.from_pylist(bench.queries, schema=QUERY_SCHEMA),
        "new_qrels": pa.Table.from_pylist(bench.qrels, schema=QREL_SCHEMA),
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
    return result


def histogram(counts: Iterable[int]) -> dict[int, int]:
    """{n: how many} for labels-per-query style summaries."""
    out: dict[int, int] = {}
    for n in counts:
        out[n] = out.get(n, 0) + 1
    return dict(sorted(out.items()))
