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


class MeanScore(NamedTuple):
    """A macro average over one group of a run's queries: ``metrics/select/summary.sql`` (its
    ``grp`` column is ``group``). The grouping (category or task) is the caller's ``by``."""

    run_id: str
    group: str  # a category or task, or 'all' (every query)
    metric: str
    k: int
    old: float
    new: float
    gain: float  # new - old
    n_queries: int
    n_no_results: int  # queries with judgments that the run returned nothing for, scored 0


class GroupedQueryScore(NamedTuple):
    """One query's old and new with its task, category and whether the run answered it:
    ``metrics/select/per_query.sql``."""

    run_id: str
    query_id: str
    task: str
    category: str
    has_results: bool
    metric: str
    k: int
    old: float
    new: float

    def group(self, by: str) -> str:
        """The query's group under the grouping ``by`` (``category`` or ``task``)."""
        return self.category if by == "category" else self.task
