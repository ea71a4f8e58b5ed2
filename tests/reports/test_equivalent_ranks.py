"""Where equivalents rank: hand-computed best ranks of the fixture's bm25 run (see fixtures.py)."""

from __future__ import annotations

from typing import Any

import pytest

from reports.fixtures import ACCEPTED, QUERIES, library
from toolex.errors import InputError
from toolex.reports.equivalent_ranks import equivalent_rank_tables
from toolex.reports.inputs import ReportContext
from toolex.store import Store


def _best(best_rows: list[dict[str, Any]], run: str) -> dict[tuple[Any, Any], Any]:
    return {(r["query_id"], r["kind"]): r["best_rank"] for r in best_rows if r["run_id"] == run}


def test_best_ranks_by_hand(ctx: ReportContext) -> None:
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


def random_picks(store: Store, run: str = "bm25") -> dict[str, str]:
    return dict(
        store.con.execute(
            "SELECT b.query_id, rr.item_id FROM report_best_ranks b JOIN run_results rr "
            "ON rr.run_id = b.run_id AND rr.query_id = b.query_id AND rr.rank = b.best_rank "
            "WHERE b.kind = 'random' AND b.run_id = ?",
            [run],
        ).fetchall()
    )


def test_random_tool_is_a_seeded_non_equivalent_of_the_library(fixture_store: Store) -> None:
    picks: dict[int, list[dict[str, str]]] = {}
    for seed in (0, 0, 1):
        ctx = ReportContext.create(fixture_store, k=3, seed=seed, random_from="library")
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


def test_shares_in_top_k(ctx: ReportContext) -> None:
    summary, _, _ = equivalent_rank_tables(ctx)
    row = next(r for r in summary.rows if r["run_id"] == "bm25" and r["category"] == "all")
    assert row["n_queries"] == 5
    assert row["share_gt_in_top_k"] == pytest.approx(4 / 5)  # q4's GT is at rank 4
    assert row["share_equivalent_in_top_k"] == pytest.approx(1.0)
    assert row["share_gt_out_equivalent_in"] == pytest.approx(1 / 5)  # q4
    assert row["median_gt_rank"] == pytest.approx(3.0)  # ranks 3, 2, 4, 2, 3
    code = next(r for r in summary.rows if r["run_id"] == "bm25" and r["category"] == "code")
    assert code["n_queries"] == 3 and code["share_gt_out_equivalent_in"] == pytest.approx(1 / 3)


def test_cdf_steps(ctx: ReportContext) -> None:
    _, _, cdf = equivalent_rank_tables(ctx)
    gt = {
        r["rank_cutoff"]: r["share"]
        for r in cdf.rows
        if r["run_id"] == "bm25" and r["kind"] == "gt"
    }
    assert [gt[r] for r in (1, 2, 3, 4, 14)] == pytest.approx([0.0, 0.4, 0.8, 1.0, 1.0])
    assert max(gt) == 14  # the run ranks all 14 tools of a library


def test_random_tool_is_drawn_from_the_candidate_pool_by_default(fixture_store: Store) -> None:
    """Issue 26.4: from the candidate pool. The pools (fixtures.py): q1 {w1, w2, w3}, q2 {w3, w5;
    w4}, q4 {c1, c2, c6, c7}, q5 {c3, c5; c4}, q6 {c5, c1}; without the ground truth and the
    verified equivalents only q1's w3 and q4's c7 are left, whatever the seed."""
    for seed in (0, 1, 2):
        ctx = ReportContext.create(fixture_store, k=3, seed=seed)
        assert ctx.random_from == "pool"
        summary, _, cdf = equivalent_rank_tables(ctx)
        assert random_picks(fixture_store) == {"q1": "w3", "q4": "c7"}
    row = next(r for r in summary.rows if r["run_id"] == "bm25" and r["category"] == "all")
    # bm25 ranks w3 4th for q1 (after w2 w9 w1) and c7 9th for q4 (after c9 c8 c2 c1 c3..c6)
    assert row["n_queries"] == 5 and row["n_random"] == 2
    assert row["share_random_in_top_k"] == pytest.approx(0.0)  # K = 3
    assert "candidate pool" in summary.note and "n_random" in summary.note
    random_cdf = {r["rank_cutoff"]: r["share"] for r in cdf.rows
                  if r["run_id"] == "bm25" and r["kind"] == "random"}  # fmt: skip
    # of the 2 queries with a drawn tool, not of the 5
    assert [random_cdf[r] for r in (3, 4, 8, 9)] == pytest.approx([0.0, 0.5, 0.5, 1.0])


def test_the_library_draw_is_an_option_and_bad_names_are_refused(fixture_store: Store) -> None:
    ctx = ReportContext.create(fixture_store, k=3, random_from="library")
    summary, _, _ = equivalent_rank_tables(ctx)
    row = next(r for r in summary.rows if r["run_id"] == "bm25" and r["category"] == "all")
    assert row["n_random"] == 5 and "whole library" in summary.note
    with pytest.raises(InputError, match="--random-from must be one of pool, library"):
        equivalent_rank_tables(ReportContext.create(fixture_store, k=3, random_from="tasks"))
