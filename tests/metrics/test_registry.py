from __future__ import annotations

import pytest

from metrics.metrics_fixtures import add_benchmark, add_combo, add_query, add_run
from toolex.errors import ToolexError
from toolex.metrics import Metric, Score, parse, scores
from toolex.metrics.registry import NO_CUT
from toolex.store import Store


@pytest.mark.parametrize(
    ("name", "metric"),
    [
        ("ndcg@10", Metric("ndcg", 10)),
        ("recall@5", Metric("recall", 5)),
        ("comp@20", Metric("comp", 20)),
        ("NDCG@3", Metric("ndcg", 3)),
        ("ndcg_cut@7", Metric("ndcg", 7)),
        (" C @ 1 ", Metric("comp", 1)),
        ("nDCG@10", Metric("ndcg", 10)),
        ("R@10", Metric("recall", 10)),
        ("Comp@10", Metric("comp", 10)),
        ("P@5", Metric("p", 5)),
        ("RR", Metric("rr", NO_CUT)),
        ("RR@10", Metric("rr", 10)),
        ("AP@10", Metric("ap", 10)),
        ("map_cut@10", Metric("ap", 10)),
        ("nDCG", Metric("ndcg", NO_CUT)),
    ],
)
def test_names_parse(name: str, metric: Metric) -> None:
    assert parse(name) == metric


def test_round_trip_and_labels() -> None:
    assert str(parse("recall@5")) == "recall@5"
    assert parse("comp@20").label == "C@20"
    assert parse(parse("ndcg@1")) == Metric("ndcg", 1)
    assert [parse(n).ir_name for n in ("ndcg@10", "recall@10", "C@10", "rr", "ap@5")] == [
        "nDCG@10",
        "R@10",
        "Comp@10",
        "RR",
        "AP@5",
    ]


@pytest.mark.parametrize("bad", ["P", "bpref@10", "ndcg@0", "ndcg@x", "@10"])
def test_bad_names_are_clear(bad: str) -> None:
    with pytest.raises(ToolexError, match="metric|K must"):
        parse(bad)


def test_a_name_dispatches_to_its_scores(store: Store) -> None:
    add_benchmark(store.con)
    add_query(store.con, "q", [("a", 1), ("b", 1)])
    add_combo(store.con, "q", 1, ["a", "b2"])
    add_run(store.con, "r", {"q": {"b2": 2.0, "a": 1.0, "b": 0.5}})
    old = scores(store, "recall@2", ["r"])
    new = scores(store, parse("recall@2"), ["r"], expansion="default")
    assert old == [Score(run_id="r", query_id="q", metric="recall", k=2, value=0.5)]
    assert new[0].value == 1.0
    assert scores(store, "comp@3", ["r"])[0].value == 1.0
