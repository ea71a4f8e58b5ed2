"""Dependency consistency, decided deterministically from the ground-truth docs.

Where one step's output (token, id, session, handle) feeds another step, the two tools must come
from the same platform: an access token from provider A means nothing to provider B. Two slots of
the original combination are *dependent* when

* ``feeds`` (the default, the rule as the method states it): one GT tool requires an id-like
  parameter whose words the other GT tool returns (``tooldoc.fields.feeds``), in either
  direction; or
* ``same_platform`` (mode ``"strict"`` only, opt-in): the two GT tools share a platform — the
  annotated plan used one provider for both, so a combination that moves only one of them to
  another provider may break a hand-off the docs do not show. Conservative: on StableToolBench it
  rejects 2,440 combinations against 296 for ``feeds``, most of them single-provider plans
  (G1_tool) whose steps pass nothing to each other.

Every alternative combination must keep each dependent pair on one platform
(``sql/stages/34_platform_rule.sql``); breaking ones are rejected before any audit call.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from itertools import combinations, groupby
from typing import Any

from toolex.tooldoc import fields

MODES = ("strict", "feeds")


def dependent_pairs(
    tools: Sequence[tuple[str | None, dict[str, Any]]], mode: str = "feeds"
) -> list[tuple[int, int, str]]:
    """(slot_a, slot_b, reason) with slot_a < slot_b, for tools as (platform, doc) in slot order."""
    if mode not in MODES:
        raise ValueError(f"platform rule mode must be one of {MODES}, not {mode!r}")
    out = []
    for a, b in combinations(range(len(tools)), 2):
        (pa, da), (pb, db) = tools[a], tools[b]
        why = fields.feeds(da, db)
        if why:
            reason = f"slot {b} {why.replace('the other step', f'slot {a}')}"
        elif why := fields.feeds(db, da):
            reason = f"slot {a} {why.replace('the other step', f'slot {b}')}"
        elif mode == "strict" and pa and pa == pb:
            reason = f"the original uses one platform for both ({pa})"
        else:
            continue
        out.append((a, b, reason))
    return out


def dependency_rows(rows: Iterable[dict[str, Any]], mode: str) -> list[dict[str, Any]]:
    """Rows of 39_assemble_originals.sql -> dependencies rows (without benchmark/expansion)."""
    out = []
    for query_id, group in groupby(rows, key=lambda r: r["query_id"]):
        members = sorted(group, key=lambda r: r["slot"])
        tools = [(r["platform"], _doc(r["doc"])) for r in members]
        for a, b, reason in dependent_pairs(tools, mode):
            out.append({"query_id": query_id, "slot_a": a, "slot_b": b, "reason": reason})
    return out


def _doc(doc: Any) -> dict[str, Any]:
    return json.loads(doc) if isinstance(doc, str) else (doc or {})
