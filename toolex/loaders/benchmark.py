"""The normalised benchmark: items, queries, qrels and dependency edges as row dicts, read and
validated in memory (every id free of control characters, every qrel names a loaded item and
query, a query's slots are 0..k-1 with no gap, every edge joins two slots of its query) before
the one atomic write (:mod:`toolex.loaders.write`). Its ``revision`` is a SHA-256 of the
normalised content, so loading the same content again is a no-op whatever the path.

Dense slots are what every later stage relies on: decomposition writes sub-queries 0..k-1 in
slot order, assembly fills slots 0..k-1, and an expanded tool inherits the grade of the qrel
whose slot it fills (``sql/metrics/020_metric_combos.sql``). A gap (slots 0, 2) would give the
second tool's replacement the grade of nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolex.errors import ToolexError
from toolex.loaders.fields import Where, check_id, dump_doc
from toolex.tooldoc.render import RENDER_VERSION, render_doc

KINDS = ("tool", "skill")


def item_row(
    item_id: str,
    doc: Mapping[str, object],
    where: Where,
    *,
    kind: str = "tool",
    name: str | None = None,
    platform: str | None = None,
    task: str | None = None,
    category: str | None = None,
    platform_source: str | None = None,
) -> dict[str, object]:
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
    qrel_field: str = "labels"  # the input field qrels come from, for error messages
    _item_where: dict[str, Where] = field(default_factory=dict, repr=False)
    _query_where: dict[str, Where] = field(default_factory=dict, repr=False)
    _qrel_where: list[Where] = field(default_factory=list, repr=False)
    _edge_where: list[tuple[Where, str]] = field(default_factory=list, repr=False)
    # per query, slot as the input numbered it -> slot stored, when a loader renumbered the
    # query's qrels (a repeated qrel merged): edges given by slot number follow their qrel
    slot_moves: dict[str, dict[int, int]] = field(default_factory=dict, repr=False)
    repeated_qrels: int = field(default=0, repr=False)  # merged repeats, for a loader's note

    def add_item(self, row: dict[str, Any], where: Where) -> None:
        check_id(row["item_id"], where, "id")
        first = self._item_where.get(row["item_id"])
        if first is not None:
            raise where.error(f"duplicate item id {row['item_id']!r} (first at {_at(first)})", "id")
        self._item_where[row["item_id"]] = where
        self.items.append(row)

    def add_query(self, row: dict[str, Any], where: Where) -> None:
        check_id(row["query_id"], where, "id")
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
        check_id(item_id, where, self.qrel_field)
        self.qrels.append(
            {"query_id": query_id, "item_id": item_id, "relevance": relevance, "slot": slot}
        )
        self._qrel_where.append(where)

    def add_edges(self, query_id: str, given: object, where: Where, field: str) -> None:
        """Explicit dependency edges of a query: a list of ``{"from": ..., "to": ..., "value":
        ...}`` where from/to name a slot (0-based) or an item id of the query's qrels, the
        producer's response being passed into the consumer's parameters; ``value`` (optional)
        names what is handed over. Resolved to slots in ``validate`` (qrels may come later)."""
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
        """Every qrel names a loaded item and a loaded query, once per query, and a query's
        qrels fill slots 0..k-1 (see the module docstring)."""
        qrel_field = self.qrel_field
        seen: dict[tuple[str, str], Where] = {}
        per_query: dict[str, list[tuple[int, Where]]] = {}
        for qrel, where in zip(self.qrels, self._qrel_where, strict=True):
            if qrel["item_id"] not in self._item_where:
                raise where.error(f"qrel names no item: {qrel['item_id']!r}", qrel_field)
            if qrel["query_id"] not in self._query_where:
                raise where.error(f"qrel names no query: {qrel['query_id']!r}", qrel_field)
            key = (qrel["query_id"], qrel["item_id"])
            if key in seen:
                raise where.error(f"duplicate qrel {qrel['item_id']!r} for this query", qrel_field)
            seen[key] = where
            per_query.setdefault(qrel["query_id"], []).append((qrel["slot"], where))
        for query_id, slots in per_query.items():
            check_slots(query_id, slots)
        self._resolve_edges()
        self._check_acyclic()
        if not self.items:
            raise ToolexError(f"{self.source}: no items found; nothing to load")
        if not self.queries:
            raise ToolexError(f"{self.source}: no queries found; nothing to load")
        if not self.qrels:  # a benchmark without ground truth scores nothing
            raise ToolexError(
                f"{self.source}: no qrels found ({self.qrel_field}); a benchmark needs at "
                "least one judged query"
            )

    def _resolve_edges(self) -> None:
        """Edge ends named by item id become slots, ends given as slot numbers follow their
        qrel when it was renumbered; every end must be a slot of the query. An edge between
        two qrels that were merged into one (a repeated tool feeding itself) joins no two
        slots any more: it is dropped and counted in a note."""
        slots: dict[str, dict[str, int]] = {}
        for qrel in self.qrels:
            slots.setdefault(qrel["query_id"], {})[qrel["item_id"]] = qrel["slot"]
        seen = set()
        kept: list[tuple[dict[str, Any], tuple[Where, str]]] = []
        merged = 0
        for edge, (where, field_name) in zip(self.edges, self._edge_where, strict=True):
            of_query = slots.get(edge["query_id"], {})
            moves = self.slot_moves.get(edge["query_id"])
            given = []
            for end in ("producer_slot", "consumer_slot"):
                given.append(edge[end])
                edge[end] = _edge_slot(edge[end], of_query, moves, where, field_name)
            if edge["producer_slot"] == edge["consumer_slot"]:
                if given[0] != given[1] and moves is not None:
                    merged += 1
                    continue
                raise where.error("an edge must join two different slots", field_name)
            key = tuple(edge[k] for k in ("query_id", "producer_slot", "consumer_slot", "value"))
            if key in seen:
                raise where.error("the same edge is given twice", field_name)
            seen.add(key)
            kept.append((edge, (where, field_name)))
        if merged:
            self.edges = [e for e, _ in kept]
            self._edge_where = [w for _, w in kept]
            self.notes.append(
                f"{merged} dependency edge(s) joined two qrels merged into one (a repeated "
                "tool feeding itself); dropped"
            )

    def _check_acyclic(self) -> None:
        """A query's call chain runs in an order: a cycle (a step taking, through others, its
        own output) is no plan, and would make the dependency rule check hand-offs that cannot
        happen. The error names the cycle, located at the edge that closes it."""
        per_query: dict[str, list[tuple[dict[str, Any], tuple[Where, str]]]] = {}
        for edge, at in zip(self.edges, self._edge_where, strict=True):
            per_query.setdefault(edge["query_id"], []).append((edge, at))
        for query_id, edges in per_query.items():
            after: dict[int, list[int]] = {}
            for edge, _ in edges:
                after.setdefault(edge["producer_slot"], []).append(edge["consumer_slot"])
            for edge, (where, field_name) in edges:
                path = _path(after, edge["consumer_slot"], edge["producer_slot"])
                if path is not None:
                    steps = " -> ".join(str(s) for s in [edge["producer_slot"], *path])
                    raise where.error(
                        f"the call chain of query {query_id!r} has a cycle (slots {steps}): "
                        "a step cannot take its own output, even through other steps",
                        field_name,
                    )

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


def check_slots(query_id: str, slots: list[tuple[int, Where]]) -> None:
    """A query's k qrels fill slots 0..k-1, each once: no negative slot, none past k-1, no
    slot twice (which together leave no gap). The error names the first qrel that breaks it."""
    k = len(slots)
    first: dict[int, Where] = {}
    for slot, where in slots:
        if slot < 0:
            raise where.error(
                f"slot {slot} is negative: a slot is the qrel's 0-based position in the "
                "query's annotated combination",
                "slot",
            )
        if slot >= k:
            raise where.error(
                f"slot {slot} is out of range: query {query_id!r} has {k} qrel(s), so its "
                f"slots are 0..{k - 1} (0-based, one per qrel, no gap)",
                "slot",
            )
        if slot in first:
            raise where.error(
                f"slot {slot} is used twice in query {query_id!r} (first at {_at(first[slot])})",
                "slot",
            )
        first[slot] = where


def _path(after: dict[int, list[int]], start: int, goal: int) -> list[int] | None:
    """The slots from ``start`` to ``goal`` along the edges ``after``, or None."""
    trail: dict[int, int | None] = {start: None}
    todo = [start]
    while todo:
        slot = todo.pop()
        if slot == goal:
            out = [slot]
            while (back := trail[out[-1]]) is not None:
                out.append(back)
            return out[::-1]
        for nxt in after.get(slot, []):
            if nxt not in trail:
                trail[nxt] = slot
                todo.append(nxt)
    return None


def _at(where: Where) -> str:
    return f"line {where.line}" if where.line is not None else f"{where.what} {where.record}"


def _edge_slot(
    named: object,
    of_query: dict[str, int],
    moves: dict[int, int] | None,
    where: Where,
    field_name: str,
) -> int:
    """The slot an edge end names: a judged item's slot, or a slot number where its qrel
    moved to (``moves``, when the query's qrels were renumbered)."""
    if isinstance(named, str) and named in of_query:
        return of_query[named]
    if isinstance(named, int) and not isinstance(named, bool):
        known = moves if moves is not None else {s: s for s in of_query.values()}
        if named not in known:
            raise where.error(f"edge names slot {named}, not a slot of the query", field_name)
        return known[named]
    raise where.error(
        f"edge end {named!r} is neither a slot nor a judged item of the query", field_name
    )
