"""A full review round in the TUI: two blind reviewers, then the adjudicator, ending in the
expected statistics (hand-computed below)."""

from __future__ import annotations

import pytest
from textual.widgets import Static
from toolex_tui.app import ToolexApp
from toolex_tui.components.docpair import DocPane
from toolex_tui.screens.review import ReviewScreen

from toolex.review import draw_sample, review_stats
from toolex.store import Store

pytestmark = pytest.mark.anyio
SIZE = (80, 24)

# keys per query: label (and bucket), stored as given; then ctrl+s (or the note's enter) moves on
REVIEWER1 = {
    "G1_instruction:1073": ["v"],
    "G2_instruction:1643": ["v"],
    "G3_instruction:455": ["i", "2", "e", *"not a search", "enter"],
}
REVIEWER2 = {
    "G1_instruction:1073": ["v"],
    "G2_instruction:1643": ["i", "3"],
    "G3_instruction:455": ["i", "2"],
}
ADJUDICATOR = {"G2_instruction:1643": ["i", "3", "e", *"bob is right", "enter"]}


async def label_all(
    store: Store,
    role: str,
    reviewer: str,
    plan: dict[str, list[str]],
    seen_others: dict[str, str] | None = None,
) -> None:
    app = ToolexApp(store, review={"sample_id": "audit", "role": role, "reviewer": reviewer})
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        assert [it.item.query_id for it in screen.items] == sorted(
            plan, key=[it.item.query_id for it in screen.items].index
        )
        assert set(plan) == {it.item.query_id for it in screen.items}
        for _ in range(len(screen.items)):
            assert screen.item is not None  # one per remaining label
            qid = screen.item.item.query_id
            # the ground-truth and the proposed combination's documentations, side by side
            left = screen.query_one("#r-doc-left", DocPane)
            right = screen.query_one("#r-doc-right", DocPane)
            assert (left.border_title, right.border_title) == ("ground truth", "proposed")
            assert left.text.startswith("slot 0 · ") and '"api_name": ' in left.text
            assert right.text.startswith("slot 0 · ") and '"api_name": ' in right.text
            assert left.region.height >= 6 and left.region.right <= right.region.x
            # nothing of the judges or the ranking: no RRF rank, no audit or verdict reason
            header = "\n".join(
                str(w.render()) for w in screen.query(Static) if not w.has_class("doc-body")
            )
            # (the fixture's audit reason and verdict reasons: tests/tui/fixtures.py)
            for word in ("RRF", "rank", "judge", "covers every sub-query", "same operation"):
                assert word not in header
            others = str(screen.query_one("#r-others", Static).render())
            if seen_others is not None:
                assert seen_others[qid] in others
            else:
                assert others == ""  # blind: nothing of the other reviewer
            keys = plan[qid]
            await pilot.press(*keys)
            if keys[-1] != "enter":  # the note's enter already saved
                await pilot.press("ctrl+s")
        assert "labelled {0}/{0}".format(len(plan)) in str(
            screen.query_one("#r-status", Static).render()
        )


async def test_two_reviewers_and_adjudication(rw_store: Store) -> None:
    draw_sample(rw_store, "audit", benchmark="stabletoolbench", size=3, seed=7)
    await label_all(rw_store, "reviewer1", "ann", REVIEWER1)
    await label_all(rw_store, "reviewer2", "bob", REVIEWER2)
    # the adjudicator sees only the disagreement, with both labels and ann's note
    await label_all(
        rw_store,
        "adjudicator",
        "cat",
        ADJUDICATOR,
        seen_others={"G2_instruction:1643": "incomplete coverage"},
    )
    st = review_stats(rw_store, "audit")
    # final: 1073 valid, 1643 invalid (adjudicated: coverage), 455 invalid (near-synonym)
    assert (st.n_final, st.n_valid) == (3, 1) and st.precision == pytest.approx(1 / 3)
    # kappa: pairs (v,v) (v,i) (i,i): p_o = 2/3, p_e = 2/3*1/3 + 1/3*2/3 = 4/9 -> 0.4
    assert st.kappa == pytest.approx(0.4)
    assert (st.ci_low, st.ci_high) == pytest.approx((0.06149, 0.79234), abs=1e-5)
    assert st.buckets["near_synonym"] == 1 and st.buckets["incomplete_coverage"] == 1
    notes = dict(
        rw_store.con.execute(
            "SELECT role || ':' || query_id, note FROM review_labels WHERE note IS NOT NULL"
        ).fetchall()
    )
    assert notes == {
        "reviewer1:G3_instruction:455": "not a search",
        "adjudicator:G2_instruction:1643": "bob is right",
    }


async def test_save_without_label_warns_and_writes_nothing(rw_store: Store) -> None:
    draw_sample(rw_store, "audit", benchmark="stabletoolbench", size=3, seed=7)
    app = ToolexApp(rw_store, review={"sample_id": "audit", "role": "reviewer1", "reviewer": "ann"})
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, ReviewScreen) and app.screen.index == 0
    assert rw_store.con.execute("SELECT count(*) FROM review_labels").fetchall()[0][0] == 0
