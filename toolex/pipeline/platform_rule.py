"""Dependency consistency, decided deterministically before any audit call.

Where one step's output (token, id, session, handle) feeds another step, the two tools must come
from the same platform: an access token from provider A means nothing to provider B. Two slots of
the original combination are *dependent* when

* an explicit producer->consumer edge says so (``source`` 'loaded' from the benchmark, or
  'imported' with combinations; table ``dependency_edges``): the call chain as recorded; or
* ``feeds`` (the default, the rule as the method states it; ``source`` 'docs'): one GT tool
  requires an id-like parameter whose words the other GT tool returns
  (``tooldoc.fields.feeds``), in either direction; or
* ``same_platform`` (mode ``"strict"`` only, opt-in): the two GT tools share a platform — the
  annotated plan used one provider for both, so a combination that moves only one of them to
  another provider may break a hand-off the docs do not show. Conservative: on StableToolBench it
  rejects 2,440 combinations against 296 for ``feeds``, most of them single-provider plans
  (G1_tool) whose steps pass nothing to each other.

Every alternative combination must keep each dependent pair on one platform
(``sql/stages/4_assemble/11_platform_rule.sql``). On an explicit edge that names the value handed
over, a replacement must also be able to hand it on: a replaced producer must document returning
it and a replaced consumer must document a parameter taking it (``edge_fit``, rule
``sql/stages/4_assemble/12_edge_fit_rule.sql``). Breaking combinations are rejected before any
audit call. What could not be checked (a platform unknown, docs silent on the value) is recorded
as ``combinations.dependency_check = 'unknown'``
(``sql/stages/4_assemble/17_dependency_check.sql``), never passed silently.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations, groupby
from typing import cast

from toolex.pipeline.queries import EdgeMember, ExplicitEdge, OriginalTool
from toolex.tooldoc import fields

MODES = ("strict", "feeds")
EXPLICIT = ("loaded", "imported")
_REQUIRES = re.compile(r"requires '([^']+)'")

Doc = Mapping[str, object]  # a tool's parsed JSON documentation


@dataclass(frozen=True)
class Dependency:
    """A dependent slot pair of one query (a ``dependencies`` row without its keys)."""

    slot_a: int
    slot_b: int
    reason: str
    source: str  # 'docs' | 'same_platform' | an explicit edge's source
    producer_slot: int | None
    value: str | None


def dependent_pairs(
    tools: Sequence[tuple[str | None, Doc]], mode: str = "feeds"
) -> list[tuple[int, int, str]]:
    """(slot_a, slot_b, reason) with slot_a < slot_b, for tools as (platform, doc) in slot order."""
    return [(d.slot_a, d.slot_b, d.reason) for d in _derived(tools, mode)]


def _derived(tools: Sequence[tuple[str | None, Doc]], mode: str) -> list[Dependency]:
    if mode not in MODES:
        raise ValueError(f"platform rule mode must be one of {MODES}, not {mode!r}")
    out = []
    for a, b in combinations(range(len(tools)), 2):
        (pa, da), (pb, db) = tools[a], tools[b]
        da, db = _given_without_default(da), _given_without_default(db)
        producer: int | None = None
        if why := fields.feeds(da, db):
            producer, reason = a, f"slot {b} {why.replace('the other step', f'slot {a}')}"
        elif why := fields.feeds(db, da):
            producer, reason = b, f"slot {a} {why.replace('the other step', f'slot {b}')}"
        elif mode == "strict" and pa and pa == pb:
            why, reason = None, f"the original uses one platform for both ({pa})"
        else:
            continue
        value = m.group(1) if why and (m := _REQUIRES.search(why)) else None
        source = "docs" if why else "same_platform"
        out.append(Dependency(a, b, reason, source, producer, value))
    return out


def dependency_rows(
    rows: Iterable[OriginalTool], mode: str, edges: Iterable[ExplicitEdge] = ()
) -> list[dict[str, object]]:
    """The original tools of the queries being assembled (and their explicit edges) ->
    dependencies rows (without benchmark/expansion). One row per slot pair; an explicit edge
    takes the place of what the docs suggest for the same pair."""
    explicit: dict[tuple[str, int, int], list[ExplicitEdge]] = {}
    for e in edges:
        p, c = e.producer_slot, e.consumer_slot
        explicit.setdefault((e.query_id, min(p, c), max(p, c)), []).append(e)
    out: list[dict[str, object]] = []
    for query_id, group in groupby(rows, key=lambda r: r.query_id):
        members = sorted(group, key=lambda r: r.slot)
        tools = [(r.platform, _doc(r.doc)) for r in members]
        pairs = {(d.slot_a, d.slot_b): d for d in _derived(tools, mode)}
        for (q, a, b), given in explicit.items():
            if q == query_id:
                pairs[(a, b)] = _explicit(a, b, given, (a, b) in pairs)
        out += [{"query_id": query_id, **asdict(d)} for _, d in sorted(pairs.items())]
    return out


def _explicit(a: int, b: int, given: list[ExplicitEdge], docs_agree: bool) -> Dependency:
    given = sorted(given, key=lambda e: (e.producer_slot, e.value))
    first = given[0]
    values = [e.value for e in given if e.value]
    reason = "; ".join(
        f"slot {e.consumer_slot} takes "
        + (f"'{e.value}'" if e.value else "the output")
        + f" from slot {e.producer_slot}"
        for e in given
    )
    agree = "; the docs agree" if docs_agree else ""
    return Dependency(
        a,
        b,
        f"{reason} ({first.source} edge{agree})",
        first.source,
        int(first.producer_slot),
        ", ".join(values) if values else None,
    )


def edge_fit(rows: Iterable[EdgeMember]) -> list[dict[str, object]]:
    """Each accepted item of a slot on an explicit edge that names its value, with the role it
    plays -> rows (query_id, slot, item_id, value, role, other_slot, source, fit).

    fit: 'yes' when the docs show the item can play its role for the value (a producer returns a
    field with the value's words, or its head word; a consumer has a parameter holding the head
    word), 'no' when the docs list what it returns / takes and the value is not among them,
    'unknown' when they list nothing.
    """
    out: list[dict[str, object]] = []
    for r in rows:
        doc = _doc(r.doc)
        fit = produces(doc, r.value) if r.role == "produce" else accepts(doc, r.value)
        out.append({k: v for k, v in r._asdict().items() if k != "doc"} | {"fit": fit})
    return out


def produces(doc: Doc, value: str) -> str:
    returned = fields.returns_tokens(doc)
    if not returned:
        return "unknown"
    words = _words(value)
    return "yes" if words and (set(words) <= returned or words[-1] in returned) else "no"


def accepts(doc: Doc, value: str) -> str:
    taken = fields.params(doc)
    if not taken:
        return "unknown"
    words = _words(value)
    head = words[-1] if words else ""
    for p in taken:
        names = [fields.stem(w) for w in fields.split_words(p.name)]
        if head in names or (names and set(names) <= set(words)):
            return "yes"
    return "no"


def _words(value: str) -> list[str]:
    """The value's stemmed content words; an id word ('id', 'token') is content here."""
    words = [fields.stem(w) for w in fields.split_words(value)]
    return [w for w in words if w not in fields.STOPWORDS or fields.is_id_like(w)]


def _given_without_default(doc: Doc) -> Doc:
    """``doc`` with OpenAPI-like parameters (``{"name", "in", "schema": {"default": null}}``, the
    shape of ToolRet's apibank) marked required when they say nothing of it and have no default.

    API-Bank's docs mark no parameter required, yet its sandbox needs every one without a default
    (GetUserToken's token is checked by AddAlarm, QueryBalance, ...); read as optional, no
    hand-off of the token would ever be seen. Only the dependency rule reads docs this way."""
    given = doc.get("parameters")
    if not isinstance(given, list):
        return doc
    marked = [
        {**p, "required": True}
        if isinstance(p, dict)
        and "required" not in p
        and isinstance(p.get("schema"), dict)
        and "default" in p["schema"]
        and p["schema"]["default"] is None
        else p
        for p in given
    ]
    return {**doc, "parameters": marked} if marked != given else doc


def _doc(doc: object) -> Doc:
    # items.doc holds JSON objects only (toolex.loaders.fields.get_doc refuses anything else)
    return cast(Doc, json.loads(doc) if isinstance(doc, str) else (doc or {}))
