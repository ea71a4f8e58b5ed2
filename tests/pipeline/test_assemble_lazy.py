"""The lazy assembly (issue 11): best first by RRF, only the audit budget stored, the rest
counted; the same rows, bit for bit, as the materialising assembly it replaced."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from random import Random
from typing import Any

import pytest

from pipeline.assemble_reference import run_reference, stored_prefix, table
from pipeline.helpers import add_benchmark
from pipeline.products import PLATFORMS, add_products, random_queries
from toolex.pipeline import assemble, kbest
from toolex.pipeline.stage import StageContext
from toolex.pipeline.stats import annotation_rows, combination_counts, safety_limit_hits
from toolex.store import Store


@pytest.fixture
def bstore(store: Store) -> Store:
    add_benchmark(store)
    return store


def ctx(store: Store, ids: list[str], expansion: str = "default") -> StageContext:
    return StageContext(store, "b", expansion, ids)


def brute(
    slots: list[list[tuple[Any, Any]]] | list[list[tuple[float, str]]],
) -> list[tuple[float, tuple[Any, ...]]]:
    """Every combination, ranked as the SQL ranked them: rrf DESC, then items DESC."""
    scored = [
        (kbest.score(t for t, _ in c), tuple(item for _, item in c))
        for c in itertools.product(*slots)
    ]
    return sorted(scored, reverse=True)


def random_slots(rng: Random) -> list[list[tuple[Any, Any]]]:
    names = ["a", "B", "ab", "a b", "é", "Ω", "z", "10", "9"]
    slots = []
    for _ in range(rng.randint(1, 4)):
        chosen = rng.sample(names, rng.randint(1, 5))
        # few distinct ranks: ties in rrf everywhere, some within one slot
        slots.append(sorted(((1.0 / (60 + rng.randint(1, 4)), n) for n in chosen), reverse=True))
    return slots


def test_best_first_and_count_before_match_the_whole_product_ranked() -> None:
    rng = random.Random(11)
    for _ in range(100):
        slots = random_slots(rng)
        ranked = brute(slots)
        assert list(kbest.best_first(slots)) == ranked
        for position, (_, items) in enumerate(ranked):
            assert kbest.count_before(slots, items) == position


def test_a_tie_at_the_budget_keeps_the_greater_item_list(bstore: Store) -> None:
    # (x, y) and (y, x) tie at 1/61 + 1/62 (a + b == b + a exactly); items DESC puts (y, x) first
    slots = [("r0", [("x", 1, True), ("y", 2, True)]), ("r1", [("x", 1, True), ("y", 2, True)])]
    add_products(bstore, {"q": slots})
    assemble.run(ctx(bstore, ["q"]), audit_cap=2)
    got = bstore.con.execute(
        "SELECT combo_id, rrf_rank, list(item_id ORDER BY slot) FROM combinations "
        "JOIN combination_items USING (benchmark, expansion, query_id, combo_id) GROUP BY ALL "
        "ORDER BY combo_id"
    ).fetchall()
    # the references are unretrieved (rank 21): the original ranks last of the 3 x 3
    assert got == [(0, 9, ["r0", "r1"]), (1, 1, ["x", "x"]), (2, 2, ["y", "x"])]


@pytest.mark.parametrize(
    ("seed", "mode", "audit_cap", "safety_limit"),
    [(1, "feeds", None, 1000), (2, "strict", None, 4), (3, "strict", 0, 1000),
     (4, "strict", 3, 1000)],
)  # fmt: skip
def test_the_same_rows_as_the_materialising_assembly_up_to_the_budget(
    bstore: Store,
    monkeypatch: pytest.MonkeyPatch,
    seed: int,
    mode: str,
    audit_cap: int | None,
    safety_limit: int,
) -> None:
    monkeypatch.setattr(assemble, "CHUNK", 20)  # several transactions, as a big run has
    queries = random_queries(seed, n=25)
    add_products(bstore, queries, expansions=("new", "ref"), platforms=PLATFORMS)
    ids = sorted(queries)
    counts = assemble.run(ctx(bstore, ids, "new"), audit_cap, mode, safety_limit)
    run_reference(ctx(bstore, ids, "ref"), audit_cap, mode, safety_limit)
    budget = safety_limit if audit_cap is None else audit_cap
    combos, items, rejected, repeated, left_out = stored_prefix(bstore, "ref", budget)
    assert table(bstore, "combinations", "new").equals(combos)
    assert table(bstore, "combination_items", "new").equals(items)
    assert table(bstore, "dependencies", "new").equals(table(bstore, "dependencies", "ref"))
    products = bstore.con.execute(
        "SELECT query_id, rejected_platform, repeated, unstored FROM combination_products "
        "WHERE expansion = 'new'"
    ).fetchall()
    assert {q: r for q, r, _, _ in products} == rejected
    assert {q: d for q, _, d, _ in products} == repeated
    assert {q: u for q, _, _, u in products} == left_out
    assert counts.notes.get("cut", 0) == sum(left_out.values())
    assert counts.notes.get("rejected_platform", 0) == sum(rejected.values())
    assert counts.notes.get("repeated", 0) == sum(repeated.values())
    if mode == "strict" and budget:  # the data exercise the count: the strict rule rejects
        assert sum(rejected.values()) > 0
    if budget >= 1000:  # no query reaches it: every row as before but the rule's, byte for byte
        assert not any(left_out.values())
        assert sum(repeated.values()) > 0  # the data exercise the repeats too
        for name in ("combinations", "combination_items"):
            kept = table(bstore, name, "new")
            assert kept.equals(combos if name == "combinations" else items)


def test_a_hundred_million_combinations_store_only_the_budget(
    bstore: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 8 slots of 10 accepted items: 10^8 combinations, the references unretrieved (rank 21),
    # so the original ranks last of all. The work is bounded by the budget, not the product:
    # the enumeration is asked for the budget's combinations and no more (the time this takes,
    # 0.3 s here, is benchmarks/bench_assemble.py's business, not a test's).
    slots = [(f"ref{s}", [(f"t{s}_{i}", i, True) for i in range(1, 10)]) for s in range(8)]
    add_products(bstore, {"big": slots})
    drawn = []
    best_first = kbest.best_first

    def counting(slots: Sequence[kbest.Slot]) -> Iterator[tuple[float, tuple[str, ...]]]:
        for combination in best_first(slots):
            drawn.append(1)
            yield combination

    monkeypatch.setattr(kbest, "best_first", counting)
    counts = assemble.run(ctx(bstore, ["big"]))  # the defaults: audit all, safety limit 1000
    assert len(drawn) <= 1000 * 2
    stored = bstore.con.execute(
        "SELECT status, count(*), min(rrf_rank), max(rrf_rank) FROM combinations GROUP BY ALL "
        "ORDER BY ALL"
    ).fetchall()
    assert stored == [("pending", 1000, 1, 1000), ("valid", 1, 10**8, 10**8)]
    assert bstore.con.execute("SELECT count(*) FROM combination_items").fetchall()[0][0] == 8 * 1001
    assert counts.notes["combinations"] == 10**8
    assert counts.notes["cut"] == 10**8 - 1001 and counts.notes["queries_at_safety_limit"] == 1
    assert safety_limit_hits(bstore, "b") == {"big": 10**8 - 1001}
    row = annotation_rows(bstore, "b")[0]
    assert (row.assembled, row.cut, row.pending) == (10**8, 10**8 - 1001, 1000)


def test_the_original_is_kept_with_its_rank_when_the_budget_stops_above_it(bstore: Store) -> None:
    slots = [("r0", [("a", 1, True), ("b", 2, True)]), ("r1", [("c", 1, True), ("d", 2, True)])]
    add_products(bstore, {"q": slots}, expansions=("new", "ref"))
    assemble.run(ctx(bstore, ["q"], "new"), audit_cap=0)
    run_reference(ctx(bstore, ["q"], "ref"))
    original = (
        "SELECT combo_id, rrf, rrf_rank, status, dependency_check FROM combinations "
        "WHERE expansion = ? AND is_original"
    )
    new = bstore.con.execute(original, ["new"]).fetchall()
    assert new == bstore.con.execute(original, ["ref"]).fetchall()
    assert new[0][2] == 9  # 3 x 3, the unretrieved references rank last
    assert combination_counts(bstore, "b", "new") == {"valid": 1, "cut": 8}


def test_an_original_too_deep_to_count_keeps_an_unknown_rank(
    bstore: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the original ranks in the middle of its product: counting what beats it needs the
    # partial sums near its own, a band that a product of 10^10 and more can make too wide
    slots = [
        ("r0", [("a", 1, True), ("r0", 2, True), ("b", 3, True)]),
        ("r1", [("c", 1, True), ("r1", 2, True), ("d", 3, True)]),
    ]
    add_products(bstore, {"q": slots}, expansions=("counted", "band"))
    assemble.run(ctx(bstore, ["q"], "counted"), audit_cap=1)
    monkeypatch.setattr(kbest, "MAX_BAND", 2)
    assemble.run(ctx(bstore, ["q"], "band"), audit_cap=1)
    stored = "SELECT combo_id, rrf_rank FROM combinations WHERE expansion = ? ORDER BY 1"
    assert bstore.con.execute(stored, ["counted"]).fetchall() == [(0, 6), (1, 1)]
    assert bstore.con.execute(stored, ["band"]).fetchall() == [(0, None), (1, 1)]


def test_rule_rejections_do_not_use_the_audit_budget(bstore: Store) -> None:
    # strict rule: r0 and r1 share platform P, so an alternative must keep its two tools on one
    # platform; the best-ranked ones pair Q with R (or with P) and are all rejected
    platforms = {"r0": "P", "r1": "P", "s": "P", "u": "P"}
    platforms |= {f"q{i}": "Q" for i in range(3)} | {f"w{i}": "R" for i in range(3)}
    slots = [
        ("r0", [(f"q{i}", i + 1, True) for i in range(3)] + [("s", 9, True)]),
        ("r1", [(f"w{i}", i + 1, True) for i in range(3)] + [("u", 9, True)]),
    ]
    add_products(bstore, {"q": slots}, platforms=platforms)
    counts = assemble.run(ctx(bstore, ["q"]), audit_cap=2, mode="strict")
    stored = bstore.con.execute(
        "SELECT combo_id, rrf_rank, c.status, list(item_id ORDER BY slot) FROM combinations c "
        "JOIN combination_items USING (benchmark, expansion, query_id, combo_id) "
        "GROUP BY ALL ORDER BY combo_id"
    ).fetchall()
    # ranked: the 9 (q, w) and the 6 (q, u) / (s, w) first, all rejected; (s, u) 16; the 6
    # (q, r1) / (r0, w), rejected; (s, r1) 23 ties (r0, u) 24 and takes it by items DESC; the
    # original 25. The 21 rejected on the way to the 2 pending ones are counted, not stored
    # (their combo ids left unused); (r0, u), past the budget, is cut.
    assert stored == [
        (0, 25, "valid", ["r0", "r1"]),
        (16, 16, "pending", ["s", "u"]),
        (23, 23, "pending", ["s", "r1"]),
    ]
    assert bstore.con.execute(
        "SELECT product, stored, rejected_platform, unstored FROM combination_products"
    ).fetchall() == [(25, 3, 21, 1)]
    assert counts.notes["rejected_platform"] == 21 and counts.notes["cut"] == 1
    row = annotation_rows(bstore, "b")[0]
    assert (row.assembled, row.rejected_platform, row.cut, row.pending) == (
        25, 21, 1, 2
    )  # fmt: skip


def test_a_rule_rejecting_nearly_everything_stores_only_the_budget(
    bstore: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # strict rule, three slots whose references share platform P: an alternative passes only
    # with its three tools on one platform, and each platform Ai has one tool per slot, so 30
    # of the 31^3 = 29,791 combinations pass (and the original). The budget's 10 pending ones
    # sit thousands of ranks deep; everything the rule rejects on the way is counted, and what
    # the staging tables hold stays within one write batch and the budget, whatever the rule
    # throws away.
    n, budget = 30, 10
    platforms = {f"r{s}": "P" for s in range(3)}
    platforms |= {f"t{s}_{i}": f"A{i}" for s in range(3) for i in range(n)}
    slots = [(f"r{s}", [(f"t{s}_{i}", i + 1, True) for i in range(n)]) for s in range(3)]
    add_products(bstore, {"q": slots}, platforms=platforms)
    monkeypatch.setattr(assemble, "WRITE_BATCH", 64)
    held = []
    flush = assemble.Batch.flush

    def measured(batch: assemble.Batch) -> None:
        staged = len(batch.columns[0])
        flush(batch)
        group = bstore.con.execute("SELECT count(*) FROM assembled_combinations").fetchall()[0][0]
        held.append((staged, group))

    monkeypatch.setattr(assemble.Batch, "flush", measured)
    counts = assemble.run(ctx(bstore, ["q"]), audit_cap=budget, mode="strict")
    # the oracle: the whole product ranked, the rule applied by hand
    ranked = brute([[(1.0 / (60 + r), item) for item, r, _ in cands] + [(1.0 / 81, ref)]
                    for ref, cands in slots])  # fmt: skip
    passes = [len({platforms[i] for i in items}) == 1 for _, items in ranked]
    original = [items for _, items in ranked].index(("r0", "r1", "r2"))
    last = [pos for pos, ok in enumerate(passes) if ok and pos != original][budget - 1]
    rejected = passes[: last + 1].count(False)
    assert len(ranked) == 29_791 and rejected > 100 * budget
    stored = bstore.con.execute(
        "SELECT status, count(*), max(rrf_rank) FROM combinations GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    assert original > last  # the references, unretrieved (rank 21), pass only together
    assert stored == [("pending", budget, last + 1), ("valid", 1, original + 1)]
    assert bstore.con.execute("SELECT count(*) FROM combination_items").fetchall()[0][0] == 3 * 11
    assert bstore.con.execute(
        "SELECT stored, rejected_platform, unstored FROM combination_products"
    ).fetchall() == [(budget + 1, rejected, 29_791 - budget - 1 - rejected)]
    assert counts.notes["rejected_platform"] == rejected
    assert max(staged for staged, _ in held) <= 64  # one write batch judged at a time
    assert max(group for _, group in held) <= budget + 1  # the group: the budget and original
    assert len(held) > rejected // 64  # the rule saw every rejected one, batch by batch


def members(store: Store, query_id: str) -> list[tuple[Any, ...]]:
    return store.con.execute(
        "SELECT list(item_id ORDER BY slot) FROM combination_items WHERE query_id = ? "
        "GROUP BY combo_id ORDER BY combo_id",
        [query_id],
    ).fetchall()


def test_a_tool_set_is_kept_once_the_original_first_then_the_best_ranked(bstore: Store) -> None:
    """Issue 35.3: (r1, r0) ranks above the original (r0, r1), whose references were not
    retrieved, but holds its tool set: the original stays, (r1, r0) is counted as repeated; of
    (y, x) and (x, y), which tie, the first enumerated stays."""
    slots = {
        "swap": [("r0", [("r1", 1, True)]), ("r1", [("r0", 1, True)])],
        "xy": [("r0", [("x", 1, True), ("y", 2, True)]), ("r1", [("x", 1, True), ("y", 2, True)])],
    }
    add_products(bstore, slots)
    counts = assemble.run(ctx(bstore, ["swap", "xy"]))
    assert [m for (m,) in members(bstore, "swap")] == [["r0", "r1"], ["r1", "r1"], ["r0", "r0"]]
    xy = [m for (m,) in members(bstore, "xy")]
    assert ["y", "x"] in xy and ["x", "y"] not in xy
    repeated = bstore.con.execute(
        "SELECT query_id, repeated, product, stored, unstored FROM combination_products "
        "ORDER BY query_id"
    ).fetchall()
    # swap: 4 = 3 stored + 1 repeated; xy: 9 = 8 stored + (x, y)
    assert repeated == [("swap", 1, 4, 3, 0), ("xy", 1, 9, 8, 0)]
    assert counts.notes["repeated"] == 2
    assert bstore.rows("checks/pipeline_combinations_distinct.sql") == []


def test_the_grade_of_a_slot_tells_two_arrangements_apart(bstore: Store) -> None:
    """Scoring gives an item the grade of the label of its slot: with slot 0 graded 2, (y, x)
    scores y at 2 and (x, y) scores x at 2, so both are kept; they are one tool set only at one
    grade."""
    slots = [("r0", [("x", 1, True), ("y", 2, True)]), ("r1", [("x", 1, True), ("y", 2, True)])]
    add_products(bstore, {"xy": slots})
    bstore.con.execute("UPDATE qrels SET relevance = 2 WHERE slot = 0")
    assemble.run(ctx(bstore, ["xy"]))
    xy = [m for (m,) in members(bstore, "xy")]
    assert ["y", "x"] in xy and ["x", "y"] in xy and len(xy) == 9
    assert bstore.con.execute("SELECT repeated FROM combination_products").fetchall() == [(0,)]
