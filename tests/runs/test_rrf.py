"""toolex's one RRF (toolex.runs.rrf, sql/runs/34_rrf.sql) equals ranx's `rrf`, per query and
per item, both as sub-query fusion and as the fusion of a hybrid retriever's lists.

ranx's rrf (ranx/fusion/rrf.py) gives each document 1 / (k + position) with k = 60 by default and
positions 1-based in the order of the run's sorted results; it sorts a run by score with numpy's
argsort, so tied scores get an implementation-defined order. We rank every sub-query list with
our deterministic rule first (score DESC, item_id DESC) and hand ranx strictly decreasing scores
(-rank), so both fuse the same positions; the raw scores themselves are tie-heavy. ranx runs
in a child process with numba's JIT off (references/ranx_nojit.py): the same code, no compile.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pyarrow as pa
import pytest
from references import ranx_nojit

from toolex.runs.rrf import RRF_K, fuse, fuse_subquery_lists
from toolex.store import Store


def _rank(
    lst: list[tuple[str, float]],
) -> list[Any]:  # list of (item, score) -> ranked with the trec_eval rule
    return sorted(lst, key=lambda p: (-p[1], _neg(p[0])))


def _neg(s: str) -> list[int]:  # sort key for item_id DESC
    return [-ord(c) for c in s] + [1]


def _random_lists(seed: int) -> dict[tuple[str, int], list[tuple[str, float]]]:
    rnd = random.Random(seed)
    lists = {}
    for q in range(12):
        for slot in range(rnd.randint(1, 5)):
            items = rnd.sample([f"t{i:02d}" for i in range(25)], rnd.randint(1, 20))
            # scores from a tiny set, so ties are everywhere
            lists[(f"q{q}", slot)] = _rank(
                [(it, float(rnd.choice([0.1, 0.5, 0.5, 1.0]))) for it in items]
            )
    return lists


def _insert_subquery_results(
    store: Store,
    run_id: str,
    lists: dict[tuple[str, int], list[tuple[str, float]]]
    | dict[tuple[str, int], list[tuple[Any, float]]],
) -> None:
    for (qid, slot), ranked in lists.items():
        for rank, (item, score) in enumerate(ranked, 1):
            store.con.execute(
                "INSERT INTO subquery_results VALUES (?, ?, ?, ?, ?, ?)",
                [run_id, qid, slot, item, score, rank],
            )


SEEDS = {"subquery": [0, 1, 2], "hybrid": [3, 4]}


@pytest.fixture(scope="module")
def ranx_fused() -> dict[int, dict[str, dict[str, float]]]:
    """ranx's RRF of every seed's lists ({seed: {query: {item: score}}}), one child for all."""
    asked: list[tuple[int, str]] = []
    requests: list[dict[str, Any]] = []  # ranx's answers, in the order asked
    out: dict[int, dict[str, dict[str, float]]] = {}
    for seed in (s for seeds in SEEDS.values() for s in seeds):
        out[seed] = {}
        per_query: dict[str, dict[int, dict[str, float]]] = {}
        for (qid, slot), ranked in _random_lists(seed).items():
            per_query.setdefault(qid, {})[slot] = {
                it: -float(r) for r, (it, _s) in enumerate(ranked, 1)
            }
        for qid, slots in per_query.items():
            if len(slots) == 1:  # ranx refuses to fuse a single run; RRF of one list: 1/(60+rank)
                (only,) = slots.values()
                out[seed][qid] = {it: 1 / (60 + r) for r, it in enumerate(only, 1)}
            else:  # ranx's fuse needs the same query ids in every run: one query at a time
                asked.append((seed, qid))
                runs = [{qid: slots[s]} for s in sorted(slots)]
                requests.append(ranx_nojit.fuse_request(runs))
    answers = ranx_nojit.call(requests)
    for (seed, qid), fused in zip(asked, answers, strict=True):
        out[seed][qid] = fused[qid]
    return out


def _fused(store: Store, run_id: str) -> list[tuple[Any, Any, Any, Any]]:
    out = fuse_subquery_lists(store, run_id)
    assert set(out.column("slot").to_pylist()) <= {0}
    return [(r["query_id"], r["item_id"], r["score"], r["rank"]) for r in out.to_pylist()]


def test_the_constant_is_ranx_default() -> None:
    assert RRF_K == 60


@pytest.mark.parametrize("seed", SEEDS["subquery"])
def test_subquery_rrf_equals_ranx(
    store: Store, ranx_fused: dict[int, dict[str, dict[str, float]]], seed: int
) -> None:
    lists = _random_lists(seed)
    _insert_subquery_results(store, "r", lists)
    rows = _fused(store, "r")
    ours: dict[str, dict[str, float]] = {}
    for qid, item, score, _ in rows:
        ours.setdefault(qid, {})[item] = score
    expected = ranx_fused[seed]
    assert ours.keys() == expected.keys()
    for qid in expected:
        assert ours[qid].keys() == expected[qid].keys(), qid
        for item, score in expected[qid].items():
            assert math.isclose(ours[qid][item], score, rel_tol=1e-12), (qid, item)
    # ranks: score DESC then item_id DESC, 1-based, no gaps
    for qid in expected:
        got = sorted((r for r in rows if r[0] == qid), key=lambda r: r[3])
        assert [r[3] for r in got] == list(range(1, len(got) + 1))
        assert [r[1] for r in got] == [it for it, _ in _rank(list(ours[qid].items()))]


def test_subquery_rrf_hand_computed(store: Store) -> None:
    # sub-query 0 ranks x1, x2; sub-query 1 ranks x2, x3.
    # x2: 1/62 + 1/61 = 0.032522; x1: 1/61 = 0.016393; x3: 1/62 = 0.016129
    lists = {("q", 0): [("x1", 0.9), ("x2", 0.8)], ("q", 1): [("x2", 0.7), ("x3", 0.7)]}
    _insert_subquery_results(store, "h", lists)
    got = [g[1:] for g in _fused(store, "h")]
    assert [(g[0], g[2]) for g in got] == [("x2", 1), ("x1", 2), ("x3", 3)]
    assert math.isclose(got[0][1], 1 / 62 + 1 / 61)
    assert math.isclose(got[1][1], 1 / 61)
    assert math.isclose(got[2][1], 1 / 62)


def test_tie_broken_by_item_id_desc(store: Store) -> None:
    lists = {("q", 0): [("a", 1.0)], ("q", 1): [("b", 1.0)]}  # both 1/61
    _insert_subquery_results(store, "t", lists)
    assert [(g[1], g[3]) for g in _fused(store, "t")] == [("b", 1), ("a", 2)]


def test_same_ranks_tie_exactly_whatever_the_list_order(store: Store) -> None:
    # a holds ranks 1, 2, 7 in the three lists and b ranks 7, 1, 2: the same RRF, which floating
    # point gives to the last bit only when the terms are added in one order (here in list order
    # 1/61 + 1/62 + 1/67 != 1/67 + 1/61 + 1/62). Then item_id DESC decides: b first.
    ranks = [{"a": 1, "b": 7}, {"b": 1, "a": 2}, {"b": 2, "a": 7}]
    lists = {("q", slot): _list(r, slot) for slot, r in enumerate(ranks)}
    _insert_subquery_results(store, "e", lists)
    got = {g[1]: g for g in _fused(store, "e")}
    assert got["a"][2] == got["b"][2]
    assert (got["b"][3], got["a"][3]) == (1, 2)


def _list(
    ranks: dict[str, int], tag: int
) -> list[tuple[Any, float]]:  # {item: rank} -> a ranked list of (item, score), gaps filled
    at = {r: it for it, r in ranks.items()}
    return [(at.get(r, f"f{tag}{r}"), 1.0 / r) for r in range(1, max(ranks.values()) + 1)]


def test_fusion_keeps_every_item_unless_a_depth_is_given(store: Store) -> None:
    lists = pa.table(
        {
            "query_id": ["q"] * 4,
            "slot": pa.array([0] * 4, pa.int32()),
            "list_id": [0, 0, 1, 1],
            "item_id": ["a", "b", "c", "d"],
            "rank": [1, 2, 1, 2],
        }
    )
    assert fuse(store, lists).column("item_id").to_pylist() == ["c", "a", "d", "b"]
    assert fuse(store, lists, depth=2).column("item_id").to_pylist() == ["c", "a"]


@pytest.mark.parametrize("seed", SEEDS["hybrid"])
def test_hybrid_rrf_equals_ranx(
    store: Store, ranx_fused: dict[int, dict[str, dict[str, float]]], seed: int
) -> None:
    lists = _random_lists(seed)
    # reuse the slots as the component retrievers of a hybrid for one slot-0 query text
    rows = []
    for (qid, slot), ranked in lists.items():
        rows += [(slot, qid, 0, it, r) for r, (it, _s) in enumerate(ranked, 1)]
    names = ["list_id", "query_id", "slot", "item_id", "rank"]
    table = pa.table(dict(zip(names, zip(*rows, strict=True), strict=True)))
    out = fuse(store, table, depth=1000)
    ours: dict[str, dict[str, float]] = {}
    for r in out.to_pylist():
        ours.setdefault(r["query_id"], {})[r["item_id"]] = r["score"]
    expected = ranx_fused[seed]
    assert json.dumps(sorted(ours)) == json.dumps(sorted(expected))
    for qid in expected:
        assert ours[qid].keys() == expected[qid].keys()
        for item, score in expected[qid].items():
            assert math.isclose(ours[qid][item], score, rel_tol=1e-12)
