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
from collections.abc import Sequence
from dataclasses import dataclass, field

from toolex.review import protocol, queries
from toolex.review.items import CombinationItem, ReviewItem, VerdictItem
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
    item: ReviewItem,
    role: str,
    show_rationale: bool | None = None,
) -> ItemView:
    """What ``role`` sees of ``item`` (one of :func:`toolex.review.labels.items_for`);
    ``show_rationale`` defaults to the sample's protocol (pass it to spare the look-up per
    item). ``level`` is the sample's, the level of ``item``."""
    if show_rationale is None:
        show_rationale = protocol.shows_rationale(store, item.sample_id)
    why = protocol.rationale(store, item.item) if show_rationale else None
    others: tuple[tuple[str, str | None, str | None, str | None], ...] = ()
    if role == "adjudicator":
        s = item.seen
        others = (
            ("reviewer1", s.r1_label, s.r1_bucket, s.r1_note),
            ("reviewer2", s.r2_label, s.r2_bucket, s.r2_note),
        )
    it = item.item
    if isinstance(it, VerdictItem):
        ref, cand = it.reference, it.item_id
        docs = item_docs(store, it.benchmark, [ref, cand])
        missing = pretty_doc(None)
        return ItemView(
            heading=f"{it.query_id} · slot {it.slot}",
            request=it.query,
            instruction=it.instruction,
            checklist=(it.subquery,),
            left=Side("reference", ((ref, docs.get(ref, missing)),)),
            right=Side("candidate", ((cand, docs.get(cand, missing)),)),
            others=others,
            rationale=why,
        )
    return _combination_view(store, item, it, others, why)


def _combination_view(
    store: Store,
    item: ReviewItem,
    it: CombinationItem,
    others: tuple[tuple[str, str | None, str | None, str | None], ...],
    why: str | None,
) -> ItemView:
    """A combination-level item: the ground truth beside the proposed tools, slot by slot."""
    slots = members(store, item)
    ids = [m.reference for m in slots if m.reference] + [m.candidate for m in slots]
    docs = item_docs(store, it.benchmark, ids)
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
        heading=f"{it.query_id} · combination {it.combo_id} · {it.stratum}",
        request=it.query,
        instruction=it.instruction,
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
