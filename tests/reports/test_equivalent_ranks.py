"""Where equivalents rank: hand-computed best ranks of the fixture's bm25 run (see fixtures.py)."""

from __future__ import annotations

import pytest

from reports.fixtures import ACCEPTED, QUERIES, library
from toolex.reports.equivalent_ranks import equivalent_rank_tables
from toolex.reports.inputs import ReportContext


def _best(best_rows, run):
    return {(r["query_id"], r["kind"]): r["best_rank"] for r in best_rows if r["run_id"] == run}


def test_best_ranks_by_hand(ctx):
    _, best, _ = equivalent_rank_tables(ctx)
    got = _best(best.rows, "bm25")
    # q3 has no accepted equivalent, so it takes no part
    assert {q for q, _ in got} == {"q1", "q2", "q4", "q5", "q6"}
    expected = {
        ("q1", "gt"): 3,
        ("q1", "equivalent"): 1,
        ("q2", "gt"): 2,
        ("q2", "equivalent"): 1,
        ("q4", "gt"): 4,
        ("q4", "equivalent"): 3,
        ("q5", "gt"): 2,
        ("q5", "equivalent"): 1,
        ("q6", "gt"): 3,
        ("q6", "equivalent"): 1,
    }
    assert {k: v for k, v in got.items() if k[1] != "random"} == expected


def test_random_tool_is_a_seeded_non_equivalent_of_the_library(fixture_store):
    picks = {}
    for seed in (0, 0, 1):
        ctx = ReportContext.create(fixture_store, k=3, seed=seed)
        equivalent_rank_tables(ctx)
        rows = fixture_store.con.execute(
            "SELECT b.query_id, rr.item_id FROM report_best_ranks b JOIN run_results rr "
            "ON rr.run_id = b.run_id AND rr.query_id = b.query_id AND rr.rank = b.best_rank "
            "WHERE b.kind = 'random' AND b.run_id = 'bm25'"
        ).fetchall()
        picks.setdefault(seed, []).append(dict(rows))
    first = picks[0][0]
    assert picks[0][0] == picks[0][1]  # same seed, same tools
    for qid, item in first.items():
        task, _cat, _text, gt = QUERIES[qid]
        assert item in library(task)
        assert item not in gt
        assert item not in {i for (q, _s), items in ACCEPTED.items() if q == qid for i in items}
    assert picks[1][0] != first  # another seed draws other tools (5 queries x 11 choices)


def test_shares_in_top_k(ctx):
    summary, _, _ = equivalent_rank_tables(ctx)
    row = next(r for r in summary.rows if r["run_id"] == "bm25" and r["category"] == "all")
    assert row["n_queries"] == 5
    assert row["share_gt_in_top_k"] == pytest.approx(4 / 5)  # q4's GT is at rank 4
    assert row["share_equivalent_in_top_k"] == pytest.approx(1.0)
    assert row["share_gt_out_equivalent_in"] == pytest.approx(1 / 5)  # q4
    assert row["median_gt_rank"] == pytest.approx(3.0)  # ranks 3, 2, 4, 2, 3
    code = next(r for r in summary.rows if r["run_id"] == "bm25" and r["category"] == "code")
    assert code["n_queries"] == 3 and code["share_gt_out_equivalent_in"] == pytest.approx(1 / 3)


def test_cdf_steps(ctx):
    _, _, cdf = equivalent_rank_tables(ctx)
    gt = {
        r["rank_cutoff"]: r["share"]
        for r in cdf.rows
        if r["run_id"] == "bm25" and r["kind"] == "gt"
    }
    assert [gt[r] for r in (1, 2, 3, 4, 14)] == pytest.approx([0.0, 0.4, 0.8, 1.0, 1.0])
    assert max(gt) == 14  # the run ranks all 14 tools of a library
