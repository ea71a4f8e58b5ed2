"""Pairwise comparison of runs, as ranx's ``compare`` reports it (`toolex eval --compare`):
every pair of runs of one benchmark, per metric, under old and new, tested with the paired
randomisation test of the significance section (sql/reports/71, 72) and Holm-corrected over the
pairs (sql/reports/75). One implementation of the test: the report and `eval` share it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from toolex import metrics

if TYPE_CHECKING:
    from toolex.metrics.engine import Engine
    from toolex.store import Store

N_PERM = 1000  # random sign vectors when a group is too large to enumerate (ranx: 1000)
EXACT_MAX = 12  # groups of at most this many queries enumerate all 2^n sign vectors
ALPHA = 0.05


class RunComparison(NamedTuple):
    """Two runs of one benchmark compared on one metric, under old or new."""

    run_a: str
    run_b: str
    measure: str  # old | new
    metric: str  # a family: ndcg | recall | comp ...
    k: int
    n_queries: int
    mean_diff: float  # run_a - run_b, over the queries
    p_value: float  # paired randomisation test
    p_holm: float  # Holm-adjusted over the pairs of the (measure, metric, k) family
    significant: bool  # p_holm <= alpha


def compare_runs(
    store: Store,
    run_ids: Sequence[str],
    ks: Sequence[int],
    expansion: str,
    families: Sequence[str],
    *,
    seed: int = 0,
    n_perm: int = N_PERM,
    alpha: float = ALPHA,
    on: Engine | None = None,
) -> list[RunComparison]:
    """Rows ``run_a, run_b, measure, metric, k, n_queries, mean_diff, p_value, p_holm,
    significant`` (p_holm <= alpha) for every pair of ``run_ids`` ranking the same benchmark.
    ``on``: the engine of the per-query scores (toolex.metrics.engine.Engine; DuckDB if None)."""
    runs = list(dict.fromkeys(run_ids))
    bench = {r["run_id"]: r["benchmark"] for r in store.rows("reports/01_run_benchmarks.sql")}
    pairs = [(a, b) for i, a in enumerate(runs) for b in runs[i + 1 :] if bench[a] == bench[b]]
    if not pairs:
        return []
    per_query = metrics.per_query(store, runs, ks, expansion, families, on=on)
    import pyarrow as pa  # here: `toolex eval` without --compare never needs it

    pair_table = pa.Table.from_pylist(
        [{"run_a": a, "run_b": b} for a, b in pairs],
        schema=pa.schema([("run_a", pa.string()), ("run_b", pa.string())]),
    )
    with store.registered_tables({"report_per_query": per_query, "report_run_pairs": pair_table}):
        store.execute("reports/70_significance_gain_diffs.sql").fetchall()
        store.execute("reports/71_significance_run_diffs.sql").fetchall()
        params = {"seed": seed, "n_perm": n_perm, "exact_max": EXACT_MAX}
        store.execute("reports/72_significance_randomisation.sql", params).fetchall()
        rows = store.rows("reports/75_significance_holm.sql")
    return [RunComparison(**row, significant=row["p_holm"] <= alpha) for row in rows]
