"""The human validation protocol at two levels (accepted combinations; single verdicts): stratified
samples, blind double labelling with adjudication, agreement, precision and recall statistics,
CSV review sheets, and audit judges measured against a sample's final labels (audit_eval).
Headless (no Textual)."""

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
