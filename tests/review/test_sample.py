"""Stratified sampling: largest-remainder allocation by hand, reproducibility by seed."""

from __future__ import annotations

from typing import Any

import pytest

from toolex.errors import NotFoundError, ToolexError
from toolex.review.sample import allocate, draw_sample
from toolex.store import Store

# strata: category x number of tools -> population size
POP = {("G1", 2): 7, ("G2", 2): 2, ("G3", 3): 1}


def _fill(store: Store) -> None:
    """Accepted (valid, non-original) combinations per POP, plus one original and one rejected
    combination per query that must never be sampled."""
    con = store.con
    _benchmark(store)
    q = 0
    for (cat, k), n in POP.items():
        for _ in range(n):
            qid = f"q{q}"
            con.execute(
                "INSERT INTO queries (benchmark, query_id, category, text) VALUES ('b', ?, ?, 't')",
                [qid, cat],
            )
            for cid, status, orig in (
                (0, "valid", True),
                (1, "valid", False),
                (2, "rejected_audit", False),
            ):
                con.execute(
                    "INSERT INTO combinations (benchmark, expansion, query_id, combo_id,"
                    " is_original, status) VALUES ('b', 'default', ?, ?, ?, ?)",
                    [qid, cid, orig, status],
                )
                for slot in range(k):
                    con.execute(
                        "INSERT INTO combination_items VALUES ('b', 'default', ?, ?, ?, ?)",
                        [qid, cid, slot, f"t{slot}"],
                    )
            q += 1


def _benchmark(store: Store) -> None:
    store.con.execute(
        "INSERT INTO benchmarks (benchmark, format, source) VALUES ('b', 'plain', 'x')"
    )


def test_allocate_largest_remainder() -> None:
    # n=5 over 7/2/1: exact 3.5, 1.0, 0.5 -> floors 3,1,0, one left: remainders .5 and .5 tie,
    # broken by stratum name -> G1 gets it: 4,1,0
    assert allocate({"G1 x 2": 7, "G2 x 2": 2, "G3 x 3": 1}, 5) == {
        "G1 x 2": 4,
        "G2 x 2": 1,
        "G3 x 3": 0,
    }
    # n=6: exact 4.2, 1.2, 0.6 -> floors 4,1,0 (5), one left -> largest remainder G3
    assert allocate({"G1 x 2": 7, "G2 x 2": 2, "G3 x 3": 1}, 6) == {
        "G1 x 2": 4,
        "G2 x 2": 1,
        "G3 x 3": 1,
    }
    assert allocate({"a": 2, "b": 1}, 10) == {"a": 2, "b": 1}


def _sample(store: Store, name: str) -> list[tuple[Any, ...]]:
    return store.con.execute(
        "SELECT query_id, combo_id, stratum, position FROM review_samples "
        "WHERE sample_id = ? ORDER BY position",
        [name],
    ).fetchall()


def test_draw_is_stratified_reproducible_and_only_accepted(store: Store) -> None:
    _fill(store)
    assert draw_sample(store, "a", benchmark="b", size=6, seed=13) == {
        "G1 x 2": 4,
        "G2 x 2": 1,
        "G3 x 3": 1,
    }
    assert draw_sample(store, "a2", benchmark="b", size=6, seed=13) == {
        "G1 x 2": 4,
        "G2 x 2": 1,
        "G3 x 3": 1,
    }
    a, a2 = _sample(store, "a"), _sample(store, "a2")
    assert [r[:3] for r in a] == [r[:3] for r in a2]  # same seed, same sample, same order
    assert {r[1] for r in a} == {1}  # never the original (0) nor a rejected one (2)
    assert [r[3] for r in a] == list(range(1, 7))
    draw_sample(store, "c", benchmark="b", size=6, seed=14)

    def g1(rows: list[tuple[Any, ...]]) -> list[str]:
        return sorted(r[0] for r in rows if r[2] == "G1 x 2")

    assert g1(_sample(store, "c")) != g1(a)  # another seed draws other G1 items
    with pytest.raises(ToolexError, match="already exists"):
        draw_sample(store, "a", benchmark="b", size=6, seed=13)


def test_nothing_to_audit_is_a_clear_error(store: Store) -> None:
    _benchmark(store)
    with pytest.raises(ToolexError, match="no accepted combination"):
        draw_sample(store, "x", benchmark="b", size=3, seed=1)


def test_benchmark_and_expansion_must_exist(store: Store) -> None:
    _fill(store)
    with pytest.raises(NotFoundError, match="no benchmark named 'bb'.*did you mean 'b'"):
        draw_sample(store, "x", benchmark="bb", size=3, seed=1)
    with pytest.raises(NotFoundError, match="no expansion named 'defualt'.*did you mean"):
        draw_sample(store, "x", benchmark="b", expansion="defualt", size=3, seed=1)
