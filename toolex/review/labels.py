"""Blind double labelling and adjudication of a sample's items.

Roles: reviewer1 and reviewer2 label every item independently, each seeing only their own label
(sql/review/20_items.sql never returns the other's); the adjudicator sees only the items they
disagree on, with both labels and notes. One person holds one role per sample, so the two
"independent" labels cannot come from the same reviewer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolex.errors import ToolexError
from toolex.store import Store

ROLES = ("reviewer1", "reviewer2", "adjudicator")
LABELS = ("valid", "invalid")
# failure buckets of an invalid combination (the taxonomy), key -> what the reviewer reads
BUCKETS = {
    "decomposition_ambiguity": "decomposition ambiguity",
    "near_synonym": "near-synonym but not substitutable",
    "incomplete_coverage": "incomplete coverage of the query",
    "platform_mismatch": "cross-platform dependency mismatch",
}


@dataclass(frozen=True)
class Label:
    label: str
    bucket: str | None = None
    note: str | None = None

    def check(self) -> Label:
        """The label with its invariants enforced: invalid needs exactly one bucket, valid none."""
        if self.label not in LABELS:
            raise ToolexError(f"label must be one of {', '.join(LABELS)}, not {self.label!r}")
        if self.label == "invalid" and self.bucket not in BUCKETS:
            raise ToolexError(
                f"an invalid label needs one failure bucket: {', '.join(BUCKETS)}"
                f" (got {self.bucket!r})"
            )
        if self.label == "valid" and self.bucket:
            raise ToolexError(f"a valid label takes no failure bucket (got {self.bucket!r})")
        return Label(self.label, self.bucket, (self.note or "").strip() or None)


def check_role(store: Store, sample_id: str, role: str, reviewer: str) -> None:
    """Refuse an unknown role, an empty name, or one person in two roles of a sample."""
    if role not in ROLES:
        raise ToolexError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    if not reviewer.strip():
        raise ToolexError("a reviewer name is required")
    for row in store.rows("review/23_role_reviewers.sql", {"sample_id": sample_id}):
        if row["reviewer"] == reviewer and row["role"] != role:
            raise ToolexError(
                f"{reviewer} already labels sample {sample_id!r} as {row['role']}; one person "
                f"holds one role (blind double labelling needs two different people)"
            )
        if row["role"] == role and row["reviewer"] != reviewer:
            raise ToolexError(
                f"the {role} of sample {sample_id!r} is {row['reviewer']}, not {reviewer}"
            )


def items_for(store: Store, sample_id: str, role: str) -> list[dict[str, Any]]:
    """The items ``role`` must label, with what that role may see (see module docstring)."""
    if role not in ROLES:
        raise ToolexError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    if not store.rows("review/12_sample_size.sql", {"sample_id": sample_id})[0]["n"]:
        raise ToolexError(
            f"no review sample named {sample_id!r}; draw one with `toolex review sample`"
        )
    return store.rows("review/20_items.sql", {"sample_id": sample_id, "role": role})


def members(store: Store, item: dict[str, Any]) -> list[dict[str, Any]]:
    """The combination slot by slot: sub-query, candidate, reference, judge's reason."""
    return store.rows(
        "review/21_item_members.sql",
        {k: item[k] for k in ("benchmark", "expansion", "query_id", "combo_id")},
    )


def save_label(
    store: Store, sample_id: str, item: dict[str, Any], *, role: str, reviewer: str, label: Label
) -> None:
    """Write one label (replacing this role's earlier label of the item)."""
    label = label.check()
    check_role(store, sample_id, role, reviewer)
    with store.transaction():
        store.execute(
            "review/22_save_label.sql",
            {
                "sample_id": sample_id,
                "role": role,
                "reviewer": reviewer.strip(),
                "label": label.label,
                "bucket": label.bucket,
                "note": label.note,
                **{k: item[k] for k in ("benchmark", "expansion", "query_id", "combo_id")},
            },
        )
