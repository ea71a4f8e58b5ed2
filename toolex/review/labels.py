"""Blind double labelling and adjudication of a sample's items, at either level
(toolex.review.levels: combinations valid/invalid, verdicts yes/no).

Roles: reviewer1 and reviewer2 label every item independently, each seeing only their own label
(sql/review/24_role_labels.sql never returns the other's); the adjudicator sees only the items
they disagree on, with both labels and notes. One person holds one role per sample, so the two
"independent" labels cannot come from the same reviewer. Nobody sees what the judges said or how
the retriever ranked (see toolex.review.views).

At a level that publishes (the verdict level), a label that settles an item's final label (both
reviewers agree, or the adjudicator decides) is written to ``labels`` too (toolex.review.publish),
in the same transaction as the label itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolex.errors import ToolexError
from toolex.review import queries
from toolex.review.items import CombinationItem, ReviewItem, SeenLabels, VerdictItem
from toolex.review.levels import COMBINATION, Level, sample_level
from toolex.review.publish import publish_final_labels
from toolex.review.queries import SlotMember
from toolex.store import Store

ROLES = ("reviewer1", "reviewer2", "adjudicator")
# what a role may see of the labels of an item (sql/review/24_role_labels.sql): its own label,
# and for the adjudicator both reviewers'
SEEN = SeenLabels._fields


@dataclass(frozen=True)
class Label:
    label: str
    bucket: str | None = None
    note: str | None = None

    def check(self, level: Level = COMBINATION) -> Label:
        """The label with its invariants enforced at ``level``: the negative label needs exactly
        one of the level's buckets, the positive none."""
        if self.label not in level.labels:
            raise ToolexError(
                f"a {level.name} label must be one of {', '.join(level.labels)}, not {self.label!r}"
            )
        if self.label == level.negative and self.bucket not in level.buckets:
            raise ToolexError(
                f"a {level.negative!r} label needs one failure bucket: "
                f"{', '.join(level.buckets)} (got {self.bucket!r})"
            )
        if self.label == level.positive and self.bucket:
            raise ToolexError(f"a {level.positive!r} label takes no failure bucket")
        return Label(self.label, self.bucket, (self.note or "").strip() or None)


def check_role(
    store: Store, sample_id: str, role: str, reviewer: str, level: Level | None = None
) -> None:
    """Refuse an unknown role, an empty name, or one person in two roles of a sample."""
    if role not in ROLES:
        raise ToolexError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    if not reviewer.strip():
        raise ToolexError("a reviewer name is required")
    level = level or sample_level(store, sample_id)
    for held in queries.role_reviewers(store, level.tables.labels, sample_id):
        if held.reviewer == reviewer and held.role != role:
            raise ToolexError(
                f"{reviewer} already labels sample {sample_id!r} as {held.role}; one person "
                f"holds one role (blind double labelling needs two different people)"
            )
        if held.role == role and held.reviewer != reviewer:
            raise ToolexError(
                f"the {role} of sample {sample_id!r} is {held.reviewer}, not {reviewer}"
            )


def items_for(store: Store, sample_id: str, role: str) -> list[ReviewItem]:
    """The items ``role`` must label in position order (every item; for the adjudicator, the
    disagreements), each what the reviewer sees of it (the level's items SQL) with what the role
    may see of its labels (:data:`SEEN`, None where there is none)."""
    if role not in ROLES:
        raise ToolexError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    level = sample_level(store, sample_id)
    seen = {
        level.key_of(labels): SeenLabels(*(labels[c] for c in SEEN))
        for labels in store.rows(
            "review/24_role_labels.sql",
            {"labels": level.tables.labels, "sample_id": sample_id, "role": role},
        )
    }
    name, params = level.sql["items"], {"sample_id": sample_id}
    found: Sequence[CombinationItem | VerdictItem] = (
        store.typed(name, VerdictItem, params)
        if level.name == "verdict"
        else store.typed(name, CombinationItem, params)
    )
    out = []
    for item in found:
        labels = seen.get(level.key_of(item._asdict()))
        if labels is None and role == "adjudicator":
            continue  # not a disagreement
        out.append(ReviewItem(sample_id, item, labels or SeenLabels()))
    return out


def members(store: Store, item: ReviewItem) -> list[SlotMember]:
    """A sampled combination slot by slot: sub-query, candidate item, reference item."""
    return queries.item_members(store, item.key(COMBINATION))


def save_label(
    store: Store,
    sample_id: str,
    item: ReviewItem | Mapping[str, Any],
    *,
    role: str,
    reviewer: str,
    label: Label,
) -> None:
    """Write one label (replacing this role's earlier label of the item); ``item`` is one of
    :func:`items_for` or its key columns."""
    level = sample_level(store, sample_id)
    if isinstance(item, ReviewItem):
        item = item.key(level)
    label = label.check(level)
    check_role(store, sample_id, role, reviewer, level)
    with store.transaction():
        write_label(store, level, sample_id, item, role, reviewer.strip(), label)


def write_label(
    store: Store,
    level: Level,
    sample_id: str,
    item: Mapping[str, Any],
    role: str,
    reviewer: str,
    label: Label,
) -> None:
    """Write one checked label inside the caller's transaction; at a level that publishes, the
    item's final label follows it into ``labels``."""
    key = {k: item[k] for k in level.key}
    store.execute(
        level.sql["save"],
        {
            "sample_id": sample_id,
            "role": role,
            "reviewer": reviewer,
            "label": label.label,
            "bucket": label.bucket,
            "note": label.note,
            **key,
        },
    )
    if level.publishes:
        publish_final_labels(store, level, sample_id, key)
