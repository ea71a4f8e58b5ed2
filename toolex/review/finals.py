"""A sample's items with their labels and final labels, at either level: what the statistics
count and what a verdict-level review publishes.

The final-label rule is one SQL file for both levels (sql/review/30_final_labels.sql: the
reviewers' shared label, else the adjudicator's); it reads the level's labels table and keys
each labelled item by the level's key columns, which join it here to the sample's items
(sql/review/12_sample_items.sql). An item nobody has labelled yet has no labels and no final
label.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from toolex.review.levels import Level
from toolex.store import Store


@dataclass(frozen=True)
class ItemLabels:
    """Both reviewers' labels of one item, the adjudication, and the final label (None:
    pending or unlabelled); ``labeller`` is 'agreed' or the adjudicator's name."""

    r1_label: str | None = None
    r1_bucket: str | None = None
    r1_note: str | None = None
    r2_label: str | None = None
    r2_bucket: str | None = None
    r2_note: str | None = None
    adj_label: str | None = None
    adj_bucket: str | None = None
    adj_note: str | None = None
    adjudicator: str | None = None
    agree: bool | None = None
    final_label: str | None = None
    final_bucket: str | None = None
    final_note: str | None = None
    labeller: str | None = None

    @property
    def double(self) -> bool:
        """Labelled by both reviewers."""
        return bool(self.r1_label and self.r2_label)

    @property
    def disagree(self) -> bool:
        """Both reviewers labelled it and differ (label, or bucket of the negative label)."""
        return self.double and not self.agree


LABEL_COLUMNS = tuple(f.name for f in fields(ItemLabels))


@dataclass(frozen=True)
class ReviewedItem:
    """One sampled item: its row of the level's samples table (key, stratum, position; a
    verdict's part, category, reference, sub-query and rank) and its labels."""

    item: dict[str, Any]
    labels: ItemLabels


def sample_items(
    store: Store, level: Level, sample_id: str, query_id: str | None = None
) -> list[dict[str, Any]]:
    """The sample's items (of one query when ``query_id`` is given), in position order."""
    return store.rows(
        "review/12_sample_items.sql",
        {"samples": level.tables.samples, "sample_id": sample_id, "query_id": query_id},
    )


def in_sample(store: Store, level: Level, sample_id: str, item: Mapping[str, Any]) -> bool:
    """Whether ``item`` (its key columns) is an item of the sample."""
    key = level.key_of(item)
    rows = sample_items(store, level, sample_id, item["query_id"])
    return any(level.key_of(r) == key for r in rows)


def reviewed_items(
    store: Store, level: Level, sample_id: str, key: Mapping[str, Any] | None = None
) -> list[ReviewedItem]:
    """Every item of the sample with its labels, in position order; only the item named by
    ``key`` (its key columns) when given."""
    query_id = key["query_id"] if key else None
    finals = {
        level.key_of(r): ItemLabels(**{c: r[c] for c in LABEL_COLUMNS})
        for r in store.rows(
            "review/30_final_labels.sql",
            {"labels": level.tables.labels, "sample_id": sample_id, "query_id": query_id},
        )
    }
    out = []
    for row in sample_items(store, level, sample_id, query_id):
        item_key = level.key_of(row)
        if key is None or item_key == level.key_of(key):
            out.append(ReviewedItem(row, finals.get(item_key, ItemLabels())))
    return out
