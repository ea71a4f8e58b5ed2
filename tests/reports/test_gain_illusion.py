"""Gain illusion, checked against a hand computation from toolex.metrics.summary output and, for
one cell, against the rankings themselves."""

from __future__ import annotations

import pytest

from toolex import metrics
from toolex.reports.gain_illusion import gain_illusion_table
from toolex.reports.inputs import ReportContext
from toolex.store import Store


def test_matches_hand_computation_from_summary(ctx: ReportContext) -> None:
    rows = gain_illusion_table(ctx).rows
    summary = metrics.summary(ctx.store, ["bm25", "bm25-ft"], ks=(3,))
    s = {(r.run_id, r.group, r.metric): r for r in summary}
    got = {(r["category"], r["metric"]): r for r in rows}
    cats = ["web", "code"]
    for cat in [*cats, "all"]:
        for m in ("ndcg", "recall", "comp"):
            gap_old = s[("bm25-ft", cat, m)].old - s[("bm25", cat, m)].old
            gap_new = s[("bm25-ft", cat, m)].new - s[("bm25", cat, m)].new
            r = got[(cat, m)]
            assert r["gap_old"] == pytest.approx(gap_old)
            assert r["gap_new"] == pytest.approx(gap_new)
            assert r["gap_vanished"] == pytest.approx(gap_old - gap_new)
            if abs(gap_old) > 1e-12:
                assert r["vanished_share"] == pytest.approx((gap_old - gap_new) / gap_old)
            else:
                assert r["vanished_share"] is None
        mean_old = sum(got[(cat, m)]["gap_old"] for m in ("ndcg", "recall", "comp")) / 3
        assert got[(cat, "mean")]["gap_old"] == pytest.approx(mean_old)
    for m in ("ndcg", "recall", "comp", "mean"):
        avg_old = sum(got[(c, m)]["gap_old"] for c in cats) / 2
        avg_new = sum(got[(c, m)]["gap_new"] for c in cats) / 2
        assert got[("category mean", m)]["gap_old"] == pytest.approx(avg_old)
        assert got[("category mean", m)]["gap_new"] == pytest.approx(avg_new)
        assert got[("category mean", m)]["vanished_share"] == pytest.approx(
            (avg_old - avg_new) / avg_old
        )


def test_recall_gap_in_code_vanishes_entirely(ctx: ReportContext) -> None:
    """Recall@3, code: bm25 misses q4's GT c1 (rank 4) but has its valid equivalent c2 at rank 3;
    the fine-tuned run ranks every GT first. Old gap = 1 - 2/3, new gap = 1 - 1 = 0."""
    row = next(
        r
        for r in gain_illusion_table(ctx).rows
        if r["category"] == "code" and r["metric"] == "recall"
    )
    assert row["gap_old"] == pytest.approx(1 / 3)
    assert row["gap_new"] == pytest.approx(0.0)
    assert row["vanished_share"] == pytest.approx(1.0)


def test_no_pair_gives_an_empty_table_that_says_why(fixture_store: Store) -> None:
    table = gain_illusion_table(ReportContext.create(fixture_store, k=3))
    assert table.rows == [] and "--pair" in table.note
