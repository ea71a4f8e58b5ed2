"""How a review sample is shown to its reviewers: blind to the judge (the default), or with the
judge's rationale beside the documentations, as the paper's annotators saw the model's.

The choice is made when the sample is drawn (`review sample --show-rationale`) and recorded with
it (table review_protocols, schema 069): what a label means depends on what its reviewer saw,
so a sample's protocol never changes. With the rationale on, a verdict shows the verifier's
verdict, reason and confidence (or that it was never judged), and a combination the audit's
status and reason and, for each member that replaces its slot's reference, the verdict that
accepted it. The TUI, the sheets and `review label` show it where the view has it
(toolex.review.views.ItemView.rationale); `review stats` says which protocol a sample used.
"""

from __future__ import annotations

from toolex.review import queries
from toolex.review.items import CombinationItem, VerdictItem
from toolex.store import Store


def record(store: Store, sample_id: str, show_rationale: bool) -> None:
    """Inside the draw's transaction: the new sample's protocol."""
    store.execute(
        "review/16_protocol_insert.sql",
        {"sample_id": sample_id, "show_rationale": show_rationale},
    )


def shows_rationale(store: Store, sample_id: str) -> bool:
    return queries.shows_rationale(store, sample_id)


def describe(show_rationale: bool) -> str:
    return (
        "reviewers saw the judge's rationale (verdict, reason, confidence), as in the paper"
        if show_rationale
        else "reviewers were blind to the judge (no verdict, reason or confidence shown)"
    )


def rationale(store: Store, item: CombinationItem | VerdictItem) -> str:
    """The judge's rationale for ``item`` (a row of its level's items SQL), as text."""
    key = {"benchmark": item.benchmark, "expansion": item.expansion, "query_id": item.query_id}
    if isinstance(item, VerdictItem):
        v = queries.verdict_rationale(store, key, item.slot, item.item_id)
        if v is None:
            return "not judged: the pipeline never asked its verifier about this candidate"
        return f"{v.judge}: {'yes' if v.accepted else 'no'}{_p(v.confidence)}: {v.reason}"
    rows = queries.combination_rationale(store, key, item.combo_id)
    if not rows:
        return "(the combination is no longer in the expansion)"
    head = rows[0]
    lines = [f"audit ({head.audit_judge}): {head.status}: {head.audit_reason}"]
    for r in rows:
        if r.is_reference:
            continue
        lines.append(
            f"slot {r.slot} {r.item_id}: accepted by {r.verify_judge}"
            f"{_p(r.confidence)}: {r.verify_reason}"
        )
    return "\n".join(lines)


def _p(confidence: float | None) -> str:
    if confidence is None or confidence != confidence:  # NaN: no confidence
        return ""
    return f" (P(yes) {confidence:.2f})"
