"""What a role reviews: one sampled item as the level's items SQL returns it, typed per level,
with the labels the role may see (toolex.review.labels.items_for).

The two levels' items differ (a combination of a query; a (sub-query, reference, candidate)
triple), so each has its record, read with ``Store.typed``: a column renamed in
``sql/review/20_combination_items.sql`` or ``50_verdict_items.sql`` fails where the file is
read, not in the TUI, the sheets or the prompt that show the item.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import NamedTuple

from toolex.review.levels import Level
from toolex.sqlrunner import SqlValue


class CombinationItem(NamedTuple):
    """A sampled combination: ``sql/review/20_combination_items.sql``."""

    position: int
    benchmark: str
    expansion: str
    query_id: str
    combo_id: int
    stratum: str  # how it was drawn (category x number of tools)
    query: str
    instruction: str | None
    candidate: str | None  # the combination's tools, ' + ' between slots
    reference: str | None  # the query's ground-truth tools, ' + ' between slots


class VerdictItem(NamedTuple):
    """A sampled (sub-query, reference, candidate) triple: ``sql/review/50_verdict_items.sql``."""

    position: int
    benchmark: str
    expansion: str
    query_id: str
    slot: int
    item_id: str  # the candidate
    reference: str
    subquery: str
    query: str
    instruction: str | None


class SeenLabels(NamedTuple):
    """What a role may see of an item's labels (sql/review/24_role_labels.sql): its own label,
    and for the adjudicator both reviewers'; None where there is none."""

    label: str | None = None
    bucket: str | None = None
    note: str | None = None
    reviewer: str | None = None
    r1_label: str | None = None
    r1_bucket: str | None = None
    r1_note: str | None = None
    r2_label: str | None = None
    r2_bucket: str | None = None
    r2_note: str | None = None


@dataclass(frozen=True)
class ReviewItem:
    """One item of sample ``sample_id`` as a role sees it."""

    sample_id: str
    item: CombinationItem | VerdictItem
    seen: SeenLabels

    def key(self, level: Level) -> dict[str, SqlValue]:
        """The key columns naming the item at ``level`` (what a label is saved under)."""
        values = self.item._asdict()
        return {k: values[k] for k in level.key}

    def relabelled(self, label: str | None, bucket: str | None, note: str | None) -> ReviewItem:
        """The item once the role's label is stored as given."""
        seen = self.seen._replace(label=label, bucket=bucket, note=note)
        return dataclasses.replace(self, seen=seen)

    def columns(self) -> dict[str, object]:
        """The item's columns and the labels seen, as a sheet's row holds them."""
        return {"sample_id": self.sample_id, **self.item._asdict(), **self.seen._asdict()}
