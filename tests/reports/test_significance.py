"""Significance in SQL: the exact randomisation test on hand cases, the Monte Carlo version
against exact enumeration, the bootstrap CI on degenerate cases, and the report's table
against an independent Python implementation."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from toolex import metrics
from toolex.reports.inputs import ReportContext
from toolex.reports.significance import significance_table
from toolex.store import Store


def _diffs(store: Store, values: list[float]) -> None:
    store.con.execute(
        "CREATE OR REPLACE TEMP TABLE report_diffs (test VARCHAR, run_a VARCHAR, run_b VARCHAR, "
        "measure VARCHAR, category VARCHAR, metric VARCHAR, k INTEGER, query_id VARCHAR, "
        "diff DOUBLE, benchmark VARCHAR)"
    )
    store.con.executemany(
        "INSERT INTO report_diffs VALUES ('gain', 'r', '', 'new-old', 'web', 'ndcg', 10, ?, ?, "
        "'b')",
        [[f"q{i:02d}", v] for i, v in enumerate(values)],
    )


def _pvalue(
    store: Store, *, n_perm: int = 1000, exact_max: int = 12, seed: int = 0
) -> tuple[Any, ...]:
    store.execute(
        "reports/72_significance_randomisation.sql",
        {"seed": seed, "n_perm": n_perm, "exact_max": exact_max},
    ).fetchall()
    return store.con.execute(
        "SELECT p_value, exact, n_permutations FROM report_pvalues WHERE category = 'all'"
    ).fetchall()[0]


def exact_p(values: list[float]) -> float:
    obs = abs(sum(values) / len(values))
    hits = sum(
        abs(sum(s * v for s, v in zip(signs, values, strict=True)) / len(values)) >= obs - 1e-12
        for signs in itertools.product((1, -1), repeat=len(values))
    )
    p: float = hits / 2 ** len(values)
    return p


def test_exact_randomisation_by_hand(store: Store) -> None:
    """Diffs 0.5, 0.2, 0.1 (mean 0.2667). Of the 8 sign vectors only all-plus and all-minus reach
    |mean| >= 0.2667, so p = 2/8."""
    _diffs(store, [0.5, 0.2, 0.1])
    assert _pvalue(store) == (pytest.approx(0.25), True, 8)


def test_no_difference_gives_p_one(store: Store) -> None:
    _diffs(store, [0.0, 0.0, 0.0, 0.0])
    assert _pvalue(store)[0] == pytest.approx(1.0)


def test_monte_carlo_is_close_to_exact(store: Store) -> None:
    values = [0.3, -0.1, 0.25, 0.0, 0.4, -0.2, 0.15, 0.1, 0.05, 0.3]
    _diffs(store, values)
    p, exact, n = _pvalue(store, n_perm=4000, exact_max=4, seed=7)
    assert not exact and n == 4000
    assert p == pytest.approx(exact_p(values), abs=0.02)
    assert _pvalue(store, n_perm=4000, exact_max=4, seed=7)[0] == p  # seeded: reproducible


def test_bootstrap_ci_degenerate_cases(store: Store) -> None:
    params = {"seed": 0, "n_boot": 2000, "alpha": 0.05}
    _diffs(store, [0.3, 0.3, 0.3])
    store.execute("reports/73_significance_bootstrap.sql", params).fetchall()
    low, high = store.con.execute(
        "SELECT ci_low, ci_high FROM report_cis WHERE category = 'all'"
    ).fetchall()[0]
    assert (low, high) == (pytest.approx(0.3), pytest.approx(0.3))
    # two queries 0 and 1: a resample weighting only one of them (probability 2 x 0.37 x 0.63
    # each way) has mean 0 or 1, so the 95% interval spans [0, 1]
    _diffs(store, [0.0, 1.0])
    store.execute("reports/73_significance_bootstrap.sql", params).fetchall()
    low, high = store.con.execute(
        "SELECT ci_low, ci_high FROM report_cis WHERE category = 'all'"
    ).fetchall()[0]
    assert (low, high) == (0.0, 1.0)
    # the Poisson(1) weights behind the resamples: mean 1, variance 1
    mean, var = store.con.execute(
        "WITH u AS (SELECT (hash(concat_ws(':', 0, 'boot', b, 'q')) >> 11) / 9007199254740992.0 "
        "AS u FROM range(20000) t(b)), c AS (SELECT CASE WHEN u < 0.36787944117144233 THEN 0 "
        "WHEN u < 0.7357588823428847 THEN 1 WHEN u < 0.9196986029286058 THEN 2 "
        "WHEN u < 0.9810118431238462 THEN 3 ELSE 4 END AS c FROM u) "
        "SELECT avg(c), var_pop(c) FROM c"
    ).fetchall()[0]
    assert mean == pytest.approx(1.0, abs=0.03) and var == pytest.approx(1.0, abs=0.06)


def test_report_table_matches_python_exact_test(ctx: ReportContext) -> None:
    rows = significance_table(ctx).rows
    pq = metrics.per_query(ctx.store, ["bm25", "bm25-ft"], ks=(3,)).to_pylist()
    by = {(r["run_id"], r["query_id"], r["metric"]): r for r in pq}
    cat = {"q1": "web", "q2": "web", "q3": "web", "q4": "code", "q5": "code", "q6": "code"}
    for metric in ("ndcg", "recall"):
        for category in ("all", "web"):
            qids = [q for q in cat if category == "all" or cat[q] == category]
            gains = [by[("bm25", q, metric)]["new"] - by[("bm25", q, metric)]["old"] for q in qids]
            row = next(
                r
                for r in rows
                if r["test"] == "gain"
                and r["run_a"] == "bm25"
                and r["category"] == category
                and r["metric"] == metric
            )
            assert row["mean_diff"] == pytest.approx(sum(gains) / len(gains))
            assert row["p_value"] == pytest.approx(exact_p(gains))
            assert row["ci_low"] <= row["mean_diff"] <= row["ci_high"]
            old = [by[("bm25-ft", q, metric)]["old"] - by[("bm25", q, metric)]["old"] for q in qids]
            row = next(
                r
                for r in rows
                if r["test"] == "runs"
                and r["run_a"] == "bm25-ft"
                and r["run_b"] == "bm25"
                and r["measure"] == "old"
                and r["category"] == category
                and r["metric"] == metric
            )
            assert row["mean_diff"] == pytest.approx(sum(old) / len(old))
            assert row["p_value"] == pytest.approx(exact_p(old))
