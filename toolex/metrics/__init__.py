"""The ToolEq metric engine: NDCG@K, Recall@K, Comp@K, old (original qrels) and new (max over the
valid combinations of an expansion), computed by the SQL macros of ``sql/metrics/``."""

from toolex.metrics.engine import ensure_macros, per_query, scores, summary
from toolex.metrics.records import GroupedQueryScore, MeanScore, QueryScore, Score
from toolex.metrics.registry import METRICS, Metric, parse

__all__ = [
    "METRICS",
    "GroupedQueryScore",
    "MeanScore",
    "Metric",
    "QueryScore",
    "Score",
    "ensure_macros",
    "parse",
    "per_query",
    "scores",
    "summary",
]
