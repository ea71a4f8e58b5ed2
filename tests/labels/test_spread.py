"""Issue 35.15: the order an evaluation stopped early takes its labels and queries in
(toolex.labels.spread): every stratum in turn, benchmarks before parts, the same for a seed."""

from __future__ import annotations

from toolex.labels.spread import spread
from toolex.labels.tasks import SPREAD_ROUND, _rounds


def test_strata_take_turns_benchmark_first_and_a_seed_fixes_the_order() -> None:
    items = [(b, p, i) for b in ("b", "c") for p in ("p1", "p2") for i in range(3)]
    order = spread(items, lambda x: x[:2], seed=7)
    assert [x[:2] for x in order[:4]] == [("b", "p1"), ("c", "p1"), ("b", "p2"), ("c", "p2")]
    assert sorted(order) == sorted(items) and order == spread(items, lambda x: x[:2], seed=7)
    assert any(spread(items, lambda x: x[:2], seed=s) != order for s in range(5))


def test_queries_to_decompose_under_a_budget_go_in_rounds_over_benchmarks() -> None:
    need = {"b": {f"q{i:03}" for i in range(60)}, "c": {f"q{i:03}" for i in range(10)}}
    whole = _rounds(need, None)
    assert [(b, len(q)) for b, q in whole] == [("b", 60), ("c", 10)]
    rounds = _rounds(need, 1)
    assert [(b, len(q)) for b, q in rounds] == [("b", SPREAD_ROUND), ("c", 10),
                                                ("b", SPREAD_ROUND), ("b", 10)]  # fmt: skip
    assert sorted(q for b, qs in rounds if b == "b" for q in qs) == sorted(need["b"])
