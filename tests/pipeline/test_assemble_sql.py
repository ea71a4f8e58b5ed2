"""Cartesian product, RRF ranking, platform rule and audit cap on hand-computed cases."""

from __future__ import annotations

from typing import Any

import pytest

from pipeline.helpers import add_benchmark, add_item, add_query
from toolex.pipeline import assemble
from toolex.pipeline.stage import StageContext
from toolex.store import Store


def setup_query(
    store: Store,
    query_id: str,
    slots: list[tuple[str, list[tuple[str, int, bool]]]],
    platforms: dict[str, str] | None = None,
) -> None:
    """slots: list of (ref, [(item, rank, accepted), ...]); references get rank K+1=21 if absent."""
    platforms = platforms or {}
    refs = [ref for ref, _ in slots]
    for ref, cands in slots:
        for item in [ref] + [c[0] for c in cands]:
            if not store.con.execute("SELECT 1 FROM items WHERE item_id = ?", [item]).fetchall():
                add_item(store, item, {"name": item, "description": item}, platforms.get(item))
    add_query(store, query_id, "q", refs)
    for slot, (ref, cands) in enumerate(slots):
        store.con.execute(
            "INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, "
            "reference) VALUES ('b', 'default', ?, ?, 's', ?)",
            [query_id, slot, ref],
        )
        rows = list(cands)
        if ref not in [c[0] for c in cands]:
            rows.append((ref, 21, True))
        for item, rank, accepted in rows:
            store.con.execute(
                "INSERT INTO candidates VALUES ('b', 'default', ?, ?, ?, ?, NULL, 'x')",
                [query_id, slot, item, rank],
            )
            store.con.execute(
                "INSERT INTO verdicts VALUES ('b', 'default', ?, ?, ?, ?, NULL, 'j', NULL, NULL)",
                [query_id, slot, item, accepted or item == ref],
            )


def combos(store: Store, query_id: str) -> list[tuple[Any, Any, Any, Any, Any, Any]]:
    rows = store.con.execute(
        "SELECT c.combo_id, c.rrf, c.rrf_rank, c.is_original, c.status, "
        "list(ci.item_id ORDER BY ci.slot) FROM combinations c JOIN combination_items ci "
        "USING (benchmark, expansion, query_id, combo_id) WHERE query_id = ? "
        "GROUP BY ALL ORDER BY c.combo_id",
        [query_id],
    ).fetchall()
    return [
        (cid, round(rrf, 9), rank, orig, status, items)
        for cid, rrf, rank, orig, status, items in rows
    ]


def ctx(store: Store, ids: list[str]) -> StageContext:
    return StageContext(store, "b", "default", ids)


@pytest.fixture
def bstore(store: Store) -> Store:
    add_benchmark(store)
    return store


def test_k1_ranks_by_rrf_and_original_is_combo_zero(bstore: Store) -> None:
    setup_query(bstore, "q", [("r", [("a", 1, True), ("r", 2, True), ("n", 3, False)])])
    assemble.run(ctx(bstore, ["q"]))
    assert combos(bstore, "q") == [
        (0, round(1 / 62, 9), 2, True, "valid", ["r"]),
        (1, round(1 / 61, 9), 1, False, "pending", ["a"]),
    ]


def test_k2_product_with_unretrieved_reference_at_k_plus_1(bstore: Store) -> None:
    # slot 0: ref r0 not retrieved (rank 21), a accepted at 1; slot 1: r1 at 3, b at 1, c at 2.
    setup_query(
        bstore,
        "q",
        [("r0", [("a", 1, True)]), ("r1", [("b", 1, True), ("c", 2, True), ("r1", 3, True)])],
    )
    assemble.run(ctx(bstore, ["q"]))
    got = combos(bstore, "q")
    assert len(got) == 2 * 3
    by_items = {tuple(c[5]): c for c in got}
    assert by_items[("a", "b")][1:3] == (round(1 / 61 + 1 / 61, 9), 1)
    assert by_items[("a", "c")][1:3] == (round(1 / 61 + 1 / 62, 9), 2)
    assert by_items[("r0", "r1")][0:4] == (0, round(1 / 81 + 1 / 63, 9), 6, True)
    # combo ids follow rank order, skipping the original
    assert [c[0] for c in sorted(got, key=lambda c: c[2]) if not c[3]] == [1, 2, 3, 4, 5]


def test_k3_product_keeps_a_tool_used_twice_and_breaks_ties_by_items_desc(bstore: Store) -> None:
    setup_query(
        bstore,
        "q",
        [
            ("r0", [("x", 1, True), ("r0", 1, True)]),
            ("r1", [("r1", 1, True), ("x", 2, True)]),
            ("r2", [("r2", 1, True)]),
        ],
    )
    assemble.run(ctx(bstore, ["q"]))
    got = combos(bstore, "q")
    # 2 x 2 x 1 = 4, (x, x, r2) included: one tool verified for two steps may serve both (the
    # paper assembles the full product; the audit decides whether it covers both steps)
    assert sorted(tuple(c[5]) for c in got) == [
        ("r0", "r1", "r2"),
        ("r0", "x", "r2"),
        ("x", "r1", "r2"),
        ("x", "x", "r2"),
    ]
    assert {tuple(c[5]): c[4] for c in got}[("x", "x", "r2")] == "pending"
    tied = [c for c in got if c[1] == round(3 / 61, 9)]
    assert [c[5] for c in sorted(tied, key=lambda c: c[2])] == [
        ["x", "r1", "r2"],
        ["r0", "r1", "r2"],
    ]


def test_empty_accepted_sets_leave_only_the_original(bstore: Store) -> None:
    setup_query(bstore, "q", [("r0", [("a", 1, False)]), ("r1", [("b", 1, False)])])
    assemble.run(ctx(bstore, ["q"]))
    assert [(c[0], c[4], c[5]) for c in combos(bstore, "q")] == [(0, "valid", ["r0", "r1"])]


def test_incomplete_verdicts_wait_and_rerun_never_duplicates(bstore: Store) -> None:
    setup_query(bstore, "q", [("r", [("a", 1, True)])])
    bstore.con.execute("INSERT INTO candidates VALUES ('b','default','q',0,'late',2,NULL,'x')")
    add_item(bstore, "late", {"name": "late"})
    assemble.run(ctx(bstore, ["q"]))
    assert combos(bstore, "q") == []
    bstore.con.execute(
        "INSERT INTO verdicts VALUES ('b', 'default', 'q', 0, 'late', true, NULL, 'j', NULL, NULL)"
    )
    assemble.run(ctx(bstore, ["q"]))
    assemble.run(ctx(bstore, ["q"]))
    assert len(combos(bstore, "q")) == 3


def test_strict_platform_rule_rejects_a_swap_of_one_of_two_same_platform_tools(
    bstore: Store,
) -> None:
    plat = {"r0": "P", "r1": "P", "a": "Q", "b": "Q", "c": "R"}
    setup_query(
        bstore, "q", [("r0", [("a", 1, True)]), ("r1", [("b", 1, True), ("c", 2, True)])], plat
    )
    counts = assemble.run(ctx(bstore, ["q"]), mode="strict")
    # ranked: (a,b) 1, (a,c) 2, (r0,b) 3 and (a,r1) 4 (tied rrf, items DESC), (r0,c) 5, the
    # original 6; the four that split r0/r1's platform P are counted, never stored, and their
    # combo ids (2-5) stay unused
    assert [(c[0], c[2], c[4], c[5]) for c in combos(bstore, "q")] == [
        (0, 6, "valid", ["r0", "r1"]),
        (1, 1, "pending", ["a", "b"]),
    ]
    assert counts.notes["rejected_platform"] == 4
    assert bstore.con.execute(
        "SELECT product, stored, rejected_platform, unstored FROM combination_products"
    ).fetchall() == [(6, 2, 4, 0)]
    reason = bstore.con.execute("SELECT reason FROM dependencies").fetchall()[0][0]
    assert "one platform for both (P)" in reason


def test_feeds_mode_ignores_same_platform_pairs_without_a_data_dependency(bstore: Store) -> None:
    plat = {"r0": "P", "r1": "P", "a": "Q"}
    setup_query(bstore, "q", [("r0", [("a", 1, True)]), ("r1", [])], plat)
    assemble.run(ctx(bstore, ["q"]), mode="feeds")
    assert {tuple(c[5]): c[4] for c in combos(bstore, "q")} == {
        ("r0", "r1"): "valid",
        ("a", "r1"): "pending",
    }


def test_audit_cap_cuts_beyond_top_n_by_rrf(bstore: Store) -> None:
    setup_query(bstore, "q", [("r", [("a", 1, True), ("b", 2, True), ("c", 3, True)])])
    counts = assemble.run(ctx(bstore, ["q"]), audit_cap=2)
    status = {c[5][0]: c[4] for c in combos(bstore, "q")}
    # c is cut: counted, never stored
    assert status == {"r": "valid", "a": "pending", "b": "pending"}
    assert counts.notes["cut"] == 1
    assert bstore.con.execute(
        "SELECT product, stored, unstored, budget, judge FROM combination_products"
    ).fetchall() == [(4, 3, 1, 2, "audit_cap")]
