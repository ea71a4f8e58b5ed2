"""Metric names as strings (``"ndcg@10"``, ``"recall@5"``, ``"comp@20"``) and their dispatch.

Every metric is computed by the same SQL macros (``sql/metrics/``); a name selects the metric
column and the cut-off K. The three metrics, per query q, run ranking r and combination C:

- ``ndcg@K``   NDCG@K = DCG@K / IDCG@K, DCG@K = sum_{i<=K} rel(r_i) / log2(i + 1), IDCG from the
  labels of C sorted descending (Järvelin & Kekäläinen 2002; trec_eval ``ndcg_cut``).
- ``recall@K`` |relevant of C in top K| / |relevant of C| (trec_eval ``recall``).
- ``comp@K``   1 if every relevant item of C is in the top K, else 0 (ToolRet's completeness).

"old" scores C = the original qrels; "new" takes the max over the valid combinations of q.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from toolex.errors import ToolexError

# Closed set: the metric column names produced by sql/metrics/050_metric_combo_scores.sql.
METRICS: dict[str, str] = {"ndcg": "N", "recall": "R", "comp": "C"}
_ALIASES = {"ndcg_cut": "ndcg", "n": "ndcg", "r": "recall", "c": "comp", "completeness": "comp"}
_NAME_RE = re.compile(r"^\s*([a-z_]+)\s*@\s*(\d+)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Metric:
    """One metric at one cut-off, e.g. ``Metric("ndcg", 10)``; ``str()`` gives ``"ndcg@10"``."""

    name: str
    k: int

    def __str__(self) -> str:
        return f"{self.name}@{self.k}"

    @property
    def label(self) -> str:
        """Short column label of the paper's tables: ``N@10``, ``R@10``, ``C@10``."""
        return f"{METRICS[self.name]}@{self.k}"


def parse(name: str | Metric) -> Metric:
    """Parse ``"ndcg@10"`` (also ``"NDCG@10"``, ``"ndcg_cut@10"``, ``"C@5"``) into a Metric."""
    if isinstance(name, Metric):
        return name
    match = _NAME_RE.match(str(name))
    if not match:
        raise ToolexError(f"metric {name!r} is not of the form name@K, e.g. 'ndcg@10'")
    base = match.group(1).lower()
    base = _ALIASES.get(base, base)
    if base not in METRICS:
        raise ToolexError(f"unknown metric {match.group(1)!r}; known: {', '.join(METRICS)}")
    k = int(match.group(2))
    if k < 1:
        raise ToolexError(f"metric {name!r}: K must be at least 1")
    return Metric(base, k)


def validate_ks(ks: Sequence[int]) -> list[int]:
    """Distinct positive cut-offs, ascending; a clear error otherwise."""
    out = sorted({int(k) for k in ks})
    if not out:
        raise ToolexError("give at least one cut-off K")
    if out[0] < 1:
        raise ToolexError(f"cut-off K must be at least 1, got {out[0]}")
    return out
