"""Metric names as strings and their dispatch: ir_measures' names (``"nDCG@10"``, ``"R@10"``,
``"P@5"``, ``"RR"``, ``"AP@10"``) and toolex's own (``"ndcg@10"``, ``"recall@5"``,
``"comp@20"``), case-insensitive.

Every metric is computed by the same SQL macros (``sql/metrics/``, formulas in
``050_metric_combo_scores.sql``); a name selects the metric column and the cut-off K. Per query
q, run ranking r and combination C, relevant = relevance > 0 (trec_eval's default level):

- ``nDCG@K``  DCG@K / IDCG@K, DCG@K = sum_{i<=K} rel(r_i) / log2(i + 1), IDCG from the qrels of
  C sorted descending (Järvelin & Kekäläinen 2002; trec_eval ``ndcg_cut``).
- ``R@K``     |relevant of C in top K| / |relevant of C| (trec_eval ``recall``).
- ``Comp@K``  1 if every relevant item of C is in the top K, else 0 (ToolRet's completeness).
- ``P@K``     |relevant of C in top K| / K (trec_eval ``P``).
- ``RR``      1 / rank of the first relevant item, 0 if none (trec_eval ``recip_rank``);
  ``RR@K`` looks only at the top K.
- ``AP@K``    sum over the relevant items at rank i <= K of P@i, over |relevant of C|
  (trec_eval ``map_cut``); ``AP`` with no cut-off is trec_eval ``map``.

A name without ``@K`` has no cut-off (the whole ranking); P needs one. "old" scores C = the
original qrels; "new" takes the max over the valid combinations of q.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from toolex.errors import ToolexError

# The paper's three metrics and their one-letter column labels (`toolex eval`'s default).
METRICS: dict[str, str] = {"ndcg": "N", "recall": "R", "comp": "C"}
# Closed set: every metric column produced by sql/metrics/050_metric_combo_scores.sql, with the
# name ir_measures gives it.
IR_NAMES: dict[str, str] = {
    "ndcg": "nDCG",
    "recall": "R",
    "comp": "Comp",
    "p": "P",
    "rr": "RR",
    "ap": "AP",
}
FAMILIES = tuple(IR_NAMES)
# "No cut-off": a K beyond any stored list (an INTEGER, as the macros take K).
NO_CUT = 2**31 - 1
_ALIASES = {
    "ndcg_cut": "ndcg",
    "n": "ndcg",
    "r": "recall",
    "c": "comp",
    "completeness": "comp",
    "precision": "p",
    "recip_rank": "rr",
    "mrr": "rr",
    "map": "ap",
    "map_cut": "ap",
}
_NAME_RE = re.compile(r"^\s*([a-z_]+)\s*(?:@\s*(\S+))?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Metric:
    """One metric at one cut-off, e.g. ``Metric("ndcg", 10)``; ``str()`` gives ``"ndcg@10"``."""

    name: str
    k: int

    def __str__(self) -> str:
        return self.name if self.k == NO_CUT else f"{self.name}@{self.k}"

    @property
    def label(self) -> str:
        """Short column label of the paper's tables: ``N@10``, ``R@10``, ``C@10``."""
        letter = METRICS.get(self.name, IR_NAMES[self.name])
        return letter if self.k == NO_CUT else f"{letter}@{self.k}"

    @property
    def ir_name(self) -> str:
        """The name ir_measures gives it: ``nDCG@10``, ``R@10``, ``Comp@10``, ``RR``."""
        return ir_name(self.name, self.k)


def ir_name(family: str, k: int | None) -> str:
    """``ir_name("ndcg", 10)`` -> ``"nDCG@10"``; no cut-off (None or NO_CUT) -> ``"nDCG"``."""
    base = IR_NAMES[family]
    return base if k is None or k == NO_CUT else f"{base}@{k}"


def parse(name: str | Metric) -> Metric:
    """Parse ``"nDCG@10"`` (also ``"ndcg@10"``, ``"ndcg_cut@7"``, ``"C@5"``, ``"RR"``,
    ``"map@10"``) into a Metric; no ``@K`` means no cut-off (K = NO_CUT)."""
    if isinstance(name, Metric):
        return name
    match = _NAME_RE.match(str(name))
    if not match:
        raise ToolexError(f"metric {name!r} is not of the form name@K, e.g. 'nDCG@10'")
    base = match.group(1).lower()
    base = _ALIASES.get(base, base)
    if base not in IR_NAMES:
        known = ", ".join(IR_NAMES.values())
        raise ToolexError(f"unknown metric {match.group(1)!r}; known: {known} (name@K)")
    if match.group(2) is None:
        if base == "p":
            raise ToolexError(f"metric {name!r}: P needs a cut-off, e.g. 'P@5'")
        return Metric(base, NO_CUT)
    if not match.group(2).isdigit():
        raise ToolexError(f"metric {name!r}: K must be a whole number, e.g. 'nDCG@10'")
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
