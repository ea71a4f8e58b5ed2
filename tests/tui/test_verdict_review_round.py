"""A full verdict-level review round in the TUI, at 120x40 and at 80x24: two blind reviewers, then
the adjudicator, with both documentations on screen side by side and nothing of the judge or the
retriever anywhere; the statistics and the published labels afterwards."""

from __future__ import annotations

import json
from typing import Any

import pytest
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static
from toolex_tui.app import ToolexApp
from toolex_tui.components.docpair import DocPane
from toolex_tui.screens.review import ReviewScreen

from toolex.review import draw_verdict_sample, verdict_stats
from toolex.review.items import CombinationItem, VerdictItem
from toolex.store import Store

pytestmark = pytest.mark.anyio
SIZES = [(120, 40), (80, 24)]
# the fixture's judge reasons (tests/tui/fixtures.py) and what no reviewer may read
JUDGE_WORDS = (
    "same operation on the same entity",
    "different operation: does not answer",
    "reference tool",
    "confidence",
    "accepted",
    "rejected",
    "unjudged",
    "rank",
    "RRF",
    "0.83",
)


def _key(item: CombinationItem | VerdictItem) -> tuple[str, int, str]:
    """A verdict item's (query, slot, candidate); a combination here is a failure."""
    assert isinstance(item, VerdictItem), item
    return (item.query_id, item.slot, item.item_id)


def draw(store: Store) -> dict[tuple[Any, ...], tuple[Any, Any]]:
    # give the judge confidences, so that an uncertainty order (and a leak of them) is possible
    store.con.execute("UPDATE verdicts SET confidence = CASE WHEN accepted THEN 0.83 ELSE 0.17 END")
    draw_verdict_sample(
        store, "vaudit", benchmark="stabletoolbench", size=6, seed=7, retriever="bm25"
    )
    rows = store.con.execute(
        "SELECT query_id, slot, item_id, reference, part FROM review_verdict_samples "
        "WHERE sample_id = 'vaudit'"
    ).fetchall()
    return {r[:3]: (r[3], r[4]) for r in rows}


def plan_keys(
    sample: dict[tuple[Any, ...], tuple[Any, Any]],
) -> tuple[dict[Any, list[str]], dict[Any, Any], dict[Any, list[Any]]]:
    """Keys per item, by the judge's part (known to the test, never shown): reviewer1 says yes to
    the accepted, no (1 different operation) to the rest; reviewer2 disagrees on the first
    accepted (no, 2 different entity) and the first unjudged (yes); the adjudicator says yes."""
    first = {p: min(k for k, (_, q) in sample.items() if q == p) for p in ("accepted", "unjudged")}
    r1 = {k: ["y"] if p == "accepted" else ["n", "1"] for k, (_, p) in sample.items()}
    r2 = dict(r1)
    r2[first["accepted"]] = ["n", "2", "e", *"C# is not C", "enter"]
    r2[first["unjudged"]] = ["y"]
    adj = {first["accepted"]: ["y", "e", *"same entity", "enter"], first["unjudged"]: ["y"]}
    return r1, r2, adj


def screen_text(screen: Screen[object]) -> str:
    return "\n".join(str(w.render()) for w in screen.query(Static))


def _docs(store: Store, item_id: str) -> dict[str, Any]:
    doc = store.con.execute(
        "SELECT doc FROM items WHERE item_id = ? AND benchmark = 'stabletoolbench'", [item_id]
    ).fetchall()[0][0]
    parsed: dict[str, Any] = json.loads(doc)
    return parsed


async def label_all(
    store: Store,
    sample: dict[tuple[Any, ...], tuple[Any, Any]],
    role: str,
    reviewer: str,
    plan: dict[tuple[str, int, str], list[str]],
    size: tuple[int, int],
    others: dict[tuple[str, int, str], str] | None = None,
) -> None:
    app = ToolexApp(store, review={"sample_id": "vaudit", "role": role, "reviewer": reviewer})
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.level.name == "verdict"
        assert {_key(it.item) for it in screen.items} == set(plan)
        for _ in range(len(screen.items)):
            assert screen.item is not None  # one per remaining label
            item = screen.item.item
            key = _key(item)
            assert isinstance(item, VerdictItem)
            reference = sample[key][0]
            # both documentations, side by side, both on screen
            left, right = (
                screen.query_one("#r-doc-left", DocPane),
                screen.query_one("#r-doc-right", DocPane),
            )
            assert (left.border_title, right.border_title) == ("reference", "candidate")
            assert left.text.startswith(reference + "\n{")
            assert right.text.startswith(item.item_id + "\n{")
            ref_doc, cand_doc = _docs(store, reference), _docs(store, item.item_id)
            assert f'"api_name": {json.dumps(ref_doc["api_name"])}' in left.text
            assert f'"api_name": {json.dumps(cand_doc["api_name"])}' in right.text
            for pane in (left, right):
                region = pane.region
                assert region.height >= 6 and region.width >= size[0] // 2 - 2
                assert region.right <= size[0] and region.bottom <= size[1]
            assert left.region.right <= right.region.x  # side by side
            members = screen.query_one("#r-members", Static).render()
            assert isinstance(members, Content)
            assert item.subquery in members.plain
            text = screen_text(screen)
            for word in JUDGE_WORDS:  # blind to the judge and the retriever
                assert word not in text.replace(left.text, "").replace(right.text, "")
            seen = str(screen.query_one("#r-others", Static).render())
            if others is None:
                assert seen == ""  # blind: nothing of the other reviewer
            else:
                assert others[key] in seen
            keys = plan[key]
            await pilot.press(*keys)
            if keys[-1] != "enter":  # the note's enter already saved
                await pilot.press("ctrl+s")
        status = str(screen.query_one("#r-status", Static).render())
        assert f"labelled {len(plan)}/{len(plan)}" in status


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=["120x40", "80x24"])
async def test_verdict_round(rw_store: Store, size: tuple[int, int]) -> None:
    sample = draw(rw_store)
    assert (
        sorted(p for _, p in sample.values())
        == ["accepted"] * 2 + ["rejected"] * 2 + ["unjudged"] * 2
    )
    r1, r2, adj = plan_keys(sample)
    await label_all(rw_store, sample, "reviewer1", "ann", r1, size)
    await label_all(rw_store, sample, "reviewer2", "bob", r2, size)
    first_acc = next(k for k in adj if sample[k][1] == "accepted")
    first_unj = next(k for k in adj if sample[k][1] == "unjudged")
    seen = {first_acc: "C# is not C", first_unj: "reviewer2: yes"}
    await label_all(rw_store, sample, "adjudicator", "cat", adj, size, others=seen)
    st = verdict_stats(rw_store, "vaudit")
    # final: accepted 2/2 yes, rejected 0/2, unjudged 1/2
    assert [(p.labelled, p.yes) for p in st.parts.values()] == [(2, 2), (2, 0), (2, 1)]
    assert st.precision.value == 1.0 and st.judge_recall.value == 1.0
    # 6 pairs, 4 agree, each reviewer says yes twice: p_o = 2/3, p_e = 1/9 + 4/9 -> 0.25
    assert st.kappa == pytest.approx(0.25)
    assert (st.n_disagree, st.n_adjudicated, st.n_final) == (2, 2, 6)
    assert st.buckets["different_operation"] == 3
    labels = rw_store.con.execute(
        "SELECT candidate, label, labeller, note FROM labels WHERE source = 'vaudit'"
    ).fetchall()
    assert len(labels) == 6
    assert (first_acc[2], "yes", "cat", "same entity") in labels


async def test_adjudicator_sees_no_score_and_no_judge(rw_store: Store) -> None:
    sample = draw(rw_store)
    r1, r2, _ = plan_keys(sample)
    await label_all(rw_store, sample, "reviewer1", "ann", r1, (80, 24))
    await label_all(rw_store, sample, "reviewer2", "bob", r2, (80, 24))
    app = ToolexApp(
        rw_store, review={"sample_id": "vaudit", "role": "adjudicator", "reviewer": "cat"}
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        texts = [screen_text(app.screen)]
        await pilot.press("right_square_bracket")
        texts.append(screen_text(app.screen))
        assert isinstance(app.screen, ReviewScreen) and app.screen.index == 1
        for text in texts:
            assert "reviewer1: " in text and "reviewer2: " in text
            for word in ("0.83", "0.17", "RRF", "rank", "confidence", "accepted", "rejected"):
                assert word not in text.split("\n{")[0]  # the header, before the documents
        assert any("reviewer2: no · different entity  C# is not C" in t for t in texts)
        # the verdict level's own keys only: n is "no" here, ] and [ move
        active = {k: b.binding.action for k, b in app.screen.active_bindings.items()}
        assert active["n"] == "mark('no')" and active["y"] == "mark('yes')"
        assert active["right_square_bracket"] == "step(1)"
        assert "v" not in active and "p" not in active and "5" in active
