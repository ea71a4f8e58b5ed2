"""Scoring runs old vs new: :func:`score` computes everything `toolex eval` prints, and
:func:`evaluate` hands the same rows to a notebook as one pandas DataFrame.

`toolex eval` calls :func:`score` and only formats what it returns, so a run scored here and
the same run scored by the command give the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolex.errors import ToolexError

if TYPE_CHECKING:
    import pandas as pd

    from toolex.metrics.engine import Engine
    from toolex.metrics.records import MeanScore
    from toolex.reports.compare import RunComparison
    from toolex.reports.main_table import MainRow
    from toolex.reports.provenance import RunProvenance
    from toolex.reports.trust import ExpansionTrust
    from toolex.store import Store

# What `--by` offers: a grouping of the queries, or "all" (only the row over every query).
GROUPINGS = ("all", "category", "task")
# The columns of :func:`evaluate`'s DataFrame, in order.
COLUMNS = [
    "run",
    "group",
    "query",
    "metric",
    "k",
    "old",
    "new",
    "gain",
    "n_queries",
    "n_no_results",
    "level",
    "oracle",
]


@dataclass(frozen=True)
class Scored:
    """Everything one scoring computed, read from the store while it was open.

    Attributes:
        rows: Mean scores, one per run x group x metric (``run_id, group, metric, k, old, new,
            gain, n_queries, n_no_results``; ``group`` a value of ``by``), with each run's mean
            of the group means.
        table: The paper layout's rows (``paper=True``), else empty.
        provenance: Run id -> how the run was made (its level, whether it is oracle-assisted).
        queries: Per-query rows (``per_query=True``), else empty.
        trust: Run id -> what stands behind its new scores (the judges' measured figures).
        pairs: Paired comparisons of the runs (``compare=True``), else None.
        coverage: Run id -> number of its queries with a valid expanded combination.
        by: The grouping of ``rows`` (``category`` or ``task``).
    """

    rows: list[MeanScore]
    table: list[MainRow]
    provenance: dict[str, RunProvenance]
    queries: list[dict[str, Any]]
    trust: dict[str, ExpansionTrust | None]
    pairs: list[RunComparison] | None
    coverage: dict[str, int]
    by: str


def metric_plan(
    names: Sequence[str], ks: Sequence[int]
) -> tuple[list[str], list[int], set[tuple[str, int]]]:
    """(metric families, cut-offs, the (family, K) pairs to show) of metric names and Ks.

    Args:
        names: Metrics in ir_measures' names (``nDCG@10``, ``R@10``, ``RR``); empty: nDCG, R
            and Comp at each of ``ks``.
        ks: Cut-offs used when ``names`` is empty.
    """
    from toolex.metrics.registry import METRICS, parse, validate_ks

    if names:
        parsed = [parse(n) for n in names]
        wanted = {(m.name, m.k) for m in parsed}
        families = list(dict.fromkeys(m.name for m in parsed))
        return families, validate_ks([m.k for m in parsed]), wanted
    cuts = validate_ks(ks)
    return list(METRICS), cuts, {(f, k) for f in METRICS for k in cuts}


@dataclass(frozen=True)
class Scoring:
    """What one scoring computes: the metrics, the expansion they score against, the grouping,
    and the extra tables asked for.

    Attributes:
        metrics: ir_measures' names (``nDCG@10``, ``R@10``, ``Comp@10``, ``P@5``, ``RR``,
            ``AP@10``); empty: nDCG, R and Comp at each of ``ks``.
        ks: Cut-offs of the default metrics.
        expansion: The expansion whose valid combinations define the new scores.
        by: ``category``, ``task``, or ``all`` (only the row over every query).
        per_query: Also score every query.
        compare: Also test every pair of runs (paired randomisation test, Holm-corrected).
        paper: Also shape the rows as the paper's Table 1 (``Scored.table``).
    """

    metrics: Sequence[str] = ()
    ks: Sequence[int] = (10,)
    expansion: str = "default"
    by: str = "category"
    per_query: bool = False
    compare: bool = False
    paper: bool = False


def score(
    store: Store,
    runs: Sequence[str],
    scoring: Scoring | None = None,
    engine: Engine | None = None,
) -> Scored:
    """Score stored runs old (original qrels) vs new (max over valid combinations).

    Args:
        store: An open store (:func:`toolex.open`).
        runs: Run ids to score (``toolex.runs(store)`` lists them).
        scoring: The metrics, expansion, grouping and extras; None: :class:`Scoring`'s
            defaults (nDCG, R and Comp at 10 against ``default``, by category).
        engine: Another engine for the metric SQL (Spark); None: the store's DuckDB.

    Returns:
        :class:`Scored`, what `toolex eval` prints.

    Raises:
        ToolexError: An unknown run, expansion, metric name or grouping.
    """
    from toolex.metrics.engine import summary
    from toolex.reports.main_table import main_table_rows, with_group_mean
    from toolex.reports.provenance import run_provenance

    s = scoring or Scoring()
    expansion = s.expansion
    if s.by not in GROUPINGS:
        raise ToolexError(f"cannot group by {s.by!r}; choose one of {', '.join(GROUPINGS)}")
    only_all, by = s.by == "all", "category" if s.by == "all" else s.by
    families, cuts, wanted = metric_plan(s.metrics, s.ks)
    run_ids = list(dict.fromkeys(runs))
    means = summary(store, run_ids, cuts, expansion, by, families, on=engine)
    means = [r for r in means if (r.metric, r.k) in wanted]
    rows = [r for r in means if r.group == "all"] if only_all else with_group_mean(store, means, by)
    plan = _Plan(run_ids, cuts, expansion, by, families, wanted)
    queries = _per_query(store, plan, engine) if s.per_query else []
    pairs = None
    if s.compare:
        from toolex.reports.compare import compare_runs

        compared = compare_runs(store, run_ids, cuts, expansion, families, on=engine)
        pairs = [p for p in compared if (p.metric, p.k) in wanted]
    from toolex.metrics.engine import expansion_coverage

    return Scored(
        rows=rows,
        table=main_table_rows(store, rows, by) if s.paper else [],
        provenance=run_provenance(store, run_ids, expansion),
        queries=queries,
        trust=_trust(store, run_ids, expansion),
        pairs=pairs,
        coverage=expansion_coverage(store, run_ids, expansion),
        by=by,
    )


def _trust(store: Store, run_ids: list[str], expansion: str) -> dict[str, ExpansionTrust | None]:
    """Run id -> the trust of ``expansion`` (:func:`toolex.reports.trust.trust_of_runs`); None
    for every run when no benchmark holds a row of that expansion (no settings, sub-queries or
    combinations; verdicts are written only after the sub-queries they judge): trust_of_runs
    would find nothing to trust, and its module (the judges' operating points, the review's
    statistics) is 0.05 CPU-s of a 0.4 s `toolex eval` on every store not yet expanded and on
    every --qrels-file scoring."""
    if expansion not in store.expansions():
        return dict.fromkeys(run_ids)
    from toolex.reports.trust import trust_of_runs

    return trust_of_runs(store, run_ids, expansion)


def evaluate(
    store: Store,
    runs: str | Sequence[str],
    metrics: Sequence[str] = (),
    *,
    ks: Sequence[int] = (10,),
    expansion: str = "default",
    by: str = "category",
    per_query: bool = False,
) -> pd.DataFrame:
    """Old vs new scores of stored runs as a DataFrame, the numbers `toolex eval` prints.

    Args:
        store: An open store (:func:`toolex.open`).
        runs: One run id or several.
        metrics: ir_measures' names, as ``toolex eval -m`` takes them (``nDCG@10``, ``R@10``);
            empty: nDCG, R and Comp at each of ``ks``.
        ks: Cut-offs of the default metrics.
        expansion: The expansion whose valid combinations define the new scores.
        by: ``category``, ``task`` or ``all``. Each run also gets ``all`` (every query) and
            ``avg (<by> mean)`` (the mean of the group means, the paper's average).
        per_query: Add one row per query (``query`` set, ``group`` its category or task).

    Returns:
        pandas DataFrame with columns ``run, group, query, metric, k, old, new, gain,
        n_queries, n_no_results, level, oracle``; ``metric`` in ir_measures' names, ``level``
        ``query`` or ``subquery`` (a sub-query-level run is oracle-assisted: ``oracle``).

    Raises:
        ToolexError: An unknown run, expansion or metric name.

    Example:
        >>> import toolex
        >>> with toolex.open("toolex.duckdb", read_only=True) as store:  # doctest: +SKIP
        ...     df = toolex.evaluate(store, "bm25", ["nDCG@10", "R@10"])
    """
    from toolex.api.optional import pandas

    pd = pandas()
    from toolex.metrics.registry import NO_CUT, ir_name

    scoring = Scoring(metrics=metrics, ks=ks, expansion=expansion, by=by, per_query=per_query)
    scored = score(store, [runs] if isinstance(runs, str) else runs, scoring)
    group = scored.by
    records: list[dict[str, Any]] = [
        {
            "run": r.run_id,
            "group": r.group,
            "query": None,
            "metric": ir_name(r.metric, r.k),
            "k": None if r.k == NO_CUT else r.k,
            "old": r.old,
            "new": r.new,
            "gain": r.gain,
            "n_queries": r.n_queries,
            "n_no_results": r.n_no_results,
        }
        for r in scored.rows
    ]
    records += [{**q, "group": q[group]} for q in scored.queries]  # from_records drops <by>
    for record in records:
        made = scored.provenance.get(record["run"])
        record["level"] = made.level if made else None
        record["oracle"] = bool(made and made.oracle)
    return pd.DataFrame.from_records(records, columns=COLUMNS)


@dataclass(frozen=True)
class _Plan:
    """What :func:`score` resolved from its :class:`Scoring`: the runs, cut-offs, expansion,
    grouping (``all`` read as ``category``), metric families and the (family, K) pairs shown."""

    run_ids: Sequence[str]
    ks: Sequence[int]
    expansion: str
    by: str
    families: Sequence[str]
    wanted: set[tuple[str, int]]


def _per_query(store: Store, plan: _Plan, on: Engine | None) -> list[dict[str, object]]:
    """Every query's scores of the (metric, K) pairs ``plan.wanted``, one query per row."""
    from toolex.metrics.engine import per_query_rows
    from toolex.metrics.registry import NO_CUT, ir_name

    by, wanted = plan.by, plan.wanted
    run_ids, ks, expansion, families = plan.run_ids, plan.ks, plan.expansion, plan.families
    return [
        {
            "run": r.run_id,
            by: r.group(by),
            "query": r.query_id,
            "metric": ir_name(r.metric, r.k),
            "k": None if r.k == NO_CUT else r.k,
            "old": r.old,
            "new": r.new,
            "gain": r.new - r.old,
            "n_queries": 1,
            "n_no_results": 0 if r.has_results else 1,
        }
        for r in per_query_rows(store, run_ids, ks, expansion, families, on=on)
        if (r.metric, r.k) in wanted
    ]
