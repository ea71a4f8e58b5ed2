"""The rows the metric engine hands other packages: typed, so that a renamed column of
``sql/metrics/select/`` fails the type checker where the row is read, not at run time."""

from __future__ import annotations

from typing import NamedTuple


class Score(NamedTuple):
    """One metric value in the one row shape (STYLE 2): ``metrics/select/scores.sql``."""

    run_id: str
    query_id: str
    metric: str  # a family: ndcg | recall | comp | p | rr | ap
    k: int
    value: float


class QueryScore(NamedTuple):
    """Old and new of one query, per run, metric and K: ``metrics/select/one_query.sql``."""

    run_id: str
    query_id: str
    metric: str
    k: int
    old: float  # against the original qrels
    new: float  # max over the valid combinations of the expansion
