"""The human validation protocol: stratified audit samples, blind double labelling with
adjudication, agreement and precision statistics, and CSV review sheets. Headless (no Textual)."""

from toolex.review.labels import BUCKETS, LABELS, ROLES, Label, items_for, members, save_label
from toolex.review.sample import draw_sample
from toolex.review.stats import ReviewStats, cohen_kappa, review_stats, wilson_interval

__all__ = [
    "BUCKETS",
    "LABELS",
    "ROLES",
    "Label",
    "ReviewStats",
    "cohen_kappa",
    "draw_sample",
    "items_for",
    "members",
    "review_stats",
    "save_label",
    "wilson_interval",
]
