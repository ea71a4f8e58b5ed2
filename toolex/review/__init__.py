"""The human validation protocol at two levels (accepted combinations; single verdicts): stratified
samples, blind double labelling with adjudication, agreement, precision and recall statistics,
CSV review sheets, and audit judges measured against a sample's final labels (audit_eval).
Headless (no Textual).

The names below load on first use (PEP 562): the trust lines of `toolex eval` read one
statistic, and importing this package must not pull in the labels, loaders and sheets."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolex.review.items import ReviewItem
    from toolex.review.labels import ROLES, Label, items_for, members, save_label
    from toolex.review.levels import COMBINATION, LEVELS, VERDICT, Level, sample_level
    from toolex.review.sample import draw_sample, draw_verdict_sample
    from toolex.review.stats import ReviewStats, VerdictReviewStats, review_stats, verdict_stats
    from toolex.review.views import ItemView, item_view

__all__ = [
    "COMBINATION",
    "LEVELS",
    "ROLES",
    "VERDICT",
    "ItemView",
    "Label",
    "Level",
    "ReviewItem",
    "ReviewStats",
    "VerdictReviewStats",
    "draw_sample",
    "draw_verdict_sample",
    "item_view",
    "items_for",
    "members",
    "review_stats",
    "sample_level",
    "save_label",
    "verdict_stats",
]

_HOME = {
    **dict.fromkeys(("ROLES", "Label", "items_for", "members", "save_label"), "labels"),
    **dict.fromkeys(("COMBINATION", "LEVELS", "VERDICT", "Level", "sample_level"), "levels"),
    **dict.fromkeys(("draw_sample", "draw_verdict_sample"), "sample"),
    **dict.fromkeys(
        ("ReviewStats", "VerdictReviewStats", "review_stats", "verdict_stats"), "stats"
    ),
    **dict.fromkeys(("ItemView", "item_view"), "views"),
    "ReviewItem": "items",
}


def __getattr__(name: str) -> object:
    if name in _HOME:
        return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
