"""What a reviewer sees of one sampled item, the same in the TUI, the sheets and the prompt.

- verdict: the request (query and instruction), the sub-query, and both full documentations
  side by side: the reference (left) and the candidate (right).
- combination: the request, the checklist (the sub-queries, one per slot), and the documentations
  of the ground-truth combination (left) and of the proposed one (right), slot by slot.

Documentations are the raw documents as loaded, pretty-printed. By default nothing of the judges
or the retriever is part of a view (verdict, reason, confidence, audit reason, RRF rank, the
verdict sample's part and rank band): the items SQL does not even return them, so labels stay
blind to the judge. A sample drawn with the judge's rationale shown (`review sample
--show-rationale`, the paper's protocol: toolex.review.protocol) adds it as ``rationale``, read
apart from the items; ranks and the sample's parts stay hidden either way. The adjudicator's
view adds both reviewers' labels and notes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolex.review import protocol, queries
from toolex.review.labels import members
from toolex.review.levels import Level
from toolex.review.queries import SlotMember
from toolex.store import Store


@dataclass(frozen=True)
class Side:
    """One column of the side-by-side documentations: a title and (heading, document) pairs."""

    title: str
    docs: tuple[tuple[str, str], ...]

    def text(self) -> str:
        """As one block of text (a sheet cell)."""
        return "\n\n".join(f"{heading}\n{doc}" for heading, doc in self.docs)


@dataclass(frozen=True)
class ItemView:
    heading: str  # which item: query id and slot, or query id and combination
    request: str
    instruction: str | None
    checklist: tuple[str, ...]  # the sub-query, or one line per slot
    left: Side
    right: Side
    # adjudicator only: (role, label, bucket, note) of both reviewers
    others: tuple[tuple[str, str | None, str | None, str | None], ...] = field(default=())
    # the judge's rationale, when the sample's protocol shows it (toolex.review.protocol)
    rationale: str | None = None


def pretty_doc(doc: object) -> str:
    """A raw documentation as indented JSON (as loaded: JSON text or an already parsed value)."""
    if doc is None:
        return "(no documentation in the store)"
    try:
        value = json.loads(doc) if isinstance(doc, str) else doc
    except ValueError:
        return str(doc)
    return json.dumps(value, indent=2, ensure_ascii=False)


def item_docs(store: Store, benchmark: str, item_ids: Sequence[str]) -> dict[str, str]:
    """item_id -> its pretty-printed raw documentation."""
    return {r.item_id: pretty_doc(r.doc) for r in queries.item_docs(store, benchmark, item_ids)}


def item_view(
    store: Store,
    level: Level,
    item: Mapping[str, Any],
    role: str,
    show_rationale: bool | None = None,
) -> ItemView:
    """What ``role`` sees of ``item`` (a row of the level's items SQL); ``show_rationale``
    defaults to the sample's protocol (pass it to spare the look-up per item)."""
    if show_rationale is None:
        show_rationale = protocol.shows_rationale(store, item["sample_id"])
    why = protocol.rationale(store, level, item) if show_rationale else None
    others: tuple[tuple[str, str | None, str | None, str | None], ...] = ()
    if role == "adjudicator":
        others = tuple(
            (who, item[f"{p}_label"], item[f"{p}_bucket"], item[f"{p}_note"])
            for who, p in (("reviewer1", "r1"), ("reviewer2", "r2"))
        )
    if level.name == "verdict":
        ref, cand = item["reference"], item["item_id"]
        docs = item_docs(store, item["benchmark"], [ref, cand])
        missing = pretty_doc(None)
        return ItemView(
            heading=f"{item['query_id']} · slot {item['slot']}",
            request=item["query"],
            instruction=item["instruction"],
            checklist=(item["subquery"],),
            left=Side("reference", ((ref, docs.get(ref, missing)),)),
            right=Side("candidate", ((cand, docs.get(cand, missing)),)),
            others=others,
            rationale=why,
        )
    return _combination_view(store, item, others, why)


def _combination_view(
    store: Store,
    item: Mapping[str, Any],
    others: tuple[tuple[str, str | None, str | None, str | None], ...],
    why: str | None,
) -> ItemView:
    """A combination-level item: the ground truth beside the proposed tools, slot by slot."""
    slots = members(store, item)
    ids = [m.reference for m in slots if m.reference] + [m.candidate for m in slots]
    docs = item_docs(store, item["benchmark"], ids)
    missing = pretty_doc(None)
    proposed = tuple(
        (
            _slot_heading(m, m.candidate)
            + (" (= ground truth)" if m.candidate == m.reference else ""),
            docs.get(m.candidate, missing),
        )
        for m in slots
    )
    return ItemView(
        heading=f"{item['query_id']} · combination {item['combo_id']} · {item['stratum']}",
        request=item["query"],
        instruction=item["instruction"],
        checklist=tuple(f"slot {m.slot}: {m.subquery or '?'}" for m in slots),
        left=Side(
            "ground truth",
            tuple(
                (_slot_heading(m, m.reference or "?"), docs.get(m.reference or "", missing))
                for m in slots
            ),
        ),
        right=Side("proposed", proposed),
        others=others,
        rationale=why,
    )


def _slot_heading(member: SlotMember, item_id: str) -> str:
    # "slot N" points at the checklist line of the same number
    return f"slot {member.slot} · {item_id}"
