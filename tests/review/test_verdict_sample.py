"""The verdict-level sample: population by part, strata and rank band, even split over parts with
largest remainders within (hand-computed below), reproducibility by seed, the uncertainty order,
and the search past the candidate depth for the unjudged part."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa
import pytest

from toolex.errors import NotFoundError, ToolexError
from toolex.retrieval.base import Retriever
from toolex.retrieval.texts import TextRow
from toolex.review.sample import allocate_strata, draw_verdict_sample, split_evenly
from toolex.store import Store

# per query (slot 0, reference r): candidate -> (rank, verdict, confidence); None = no verdict
CANDIDATES = {
    "r": (1, True, None),  # the reference: never in the population
    "x1": (2, True, 0.9),
    "x2": (3, False, 0.45),
    "x3": (4, False, 0.1),
    "x5": (5, None, None),  # retrieved, never judged
    "x4": (12, True, 0.55),
}
# what the candidate retriever ranks past the stored list (x1 and r are stored already)
SEARCHED = [("r", 1), ("x1", 2), ("y1", 21), ("y2", 25)]
CATEGORY = {"q0": "A", "q1": "A", "q2": "B"}
# population per stratum, from the two tables above over the three queries
STRATA = {
    "accepted/A/1-3": 2,
    "accepted/A/11-20": 2,
    "accepted/B/1-3": 1,
    "accepted/B/11-20": 1,
    "rejected/A/1-3": 2,
    "rejected/A/4-10": 2,
    "rejected/B/1-3": 1,
    "rejected/B/4-10": 1,
    "unjudged/A/21+": 4,
    "unjudged/A/4-10": 2,
    "unjudged/B/21+": 2,
    "unjudged/B/4-10": 1,
}


def fill(store: Store) -> None:
    con = store.con
    con.execute("INSERT INTO benchmarks (benchmark, format, source) VALUES ('b', 'plain', 'x')")
    for qid, cat in CATEGORY.items():
        con.execute(
            "INSERT INTO queries (benchmark, query_id, category, text) VALUES ('b', ?, ?, 't')",
            [qid, cat],
        )
        con.execute(
            "INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, reference) "
            "VALUES ('b', 'default', ?, 0, 'find the weather', 'r')",
            [qid],
        )
        for item, (rank, accepted, conf) in CANDIDATES.items():
            con.execute(
                "INSERT INTO candidates VALUES ('b', 'default', ?, 0, ?, ?, NULL, 'bm25')",
                [qid, item, rank],
            )
            if accepted is not None:
                con.execute(
                    "INSERT INTO verdicts (benchmark, expansion, query_id, slot, item_id, "
                    "accepted, judge, confidence) VALUES ('b', 'default', ?, 0, ?, ?, 'h', ?)",
                    [qid, item, accepted, conf],
                )


class FakeSearch:
    """toolex.retrieval.search's signature; records its calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[str | Retriever, int, str, int]] = []

    def __call__(
        self,
        store: Store,
        benchmark: str,
        retriever: str | Retriever,
        texts: Sequence[TextRow],
        depth: int = 20,
        scope: str = "task",
    ) -> pa.Table:
        self.calls.append((retriever, depth, scope, len(texts)))
        rows = [
            {"query_id": q, "slot": s, "item_id": i, "score": 1.0 / r, "rank": r}
            for q, s, _ in texts
            for i, r in SEARCHED
        ]
        return pa.Table.from_pylist(rows)


def sample(store: Store, name: str) -> list[tuple[Any, ...]]:
    return store.con.execute(
        "SELECT query_id, slot, item_id, part, stratum, rank, position FROM "
        "review_verdict_samples WHERE sample_id = ? ORDER BY position",
        [name],
    ).fetchall()


def test_split_evenly_fills_what_a_part_cannot() -> None:
    assert split_evenly({"a": 6, "r": 6, "u": 9}, 7) == {"a": 3, "r": 2, "u": 2}
    # accepted holds only 1: its share goes to the others, evenly (odd unit to the first)
    assert split_evenly({"a": 1, "r": 6, "u": 9}, 8) == {"a": 1, "r": 4, "u": 3}
    assert split_evenly({"a": 0, "r": 2, "u": 9}, 8) == {"a": 0, "r": 2, "u": 6}
    assert split_evenly({"a": 1, "r": 2}, 10) == {"a": 1, "r": 2}


def test_allocation_even_over_parts_proportional_within() -> None:
    strata = {h: (h.split("/")[0], n) for h, n in STRATA.items()}
    quotas = allocate_strata(strata, 7)
    # parts 6/6/9, n=7 -> 3/2/2.
    # accepted 3 over 2/2/1/1: exact 1, 1, .5, .5 -> one left, tie by name: B/1-3 < B/11-20.
    # rejected 2 over 2/2/1/1: exact .67 .67 .33 .33 -> A/1-3 and A/4-10.
    # unjudged 2 over A/21+ 4, A/4-10 2, B/21+ 2, B/4-10 1 (of 9): .89 .44 .44 .22 -> A/21+,
    # then the .44 tie by name: A/4-10.
    assert {h: q for h, q in quotas.items() if q} == {
        "accepted/A/1-3": 1,
        "accepted/A/11-20": 1,
        "accepted/B/1-3": 1,
        "rejected/A/1-3": 1,
        "rejected/A/4-10": 1,
        "unjudged/A/21+": 1,
        "unjudged/A/4-10": 1,
    }


def test_draw_strata_reproducible_and_recorded(store: Store) -> None:
    fill(store)
    search = FakeSearch()
    rows = draw_verdict_sample(store, "v", benchmark="b", size=7, seed=13, search=search)
    assert {r.stratum: r.population for r in rows} == STRATA
    assert sum(r.drawn for r in rows) == 7
    assert [r.part for r in rows] == sorted(
        (r.part for r in rows), key=("accepted", "rejected", "unjudged").index
    )
    # the expansion's retriever (from its candidates), searched to depth 12 + 20, whole library
    assert search.calls == [("bm25", 32, "benchmark", 3)]
    v = sample(store, "v")
    assert [r[-1] for r in v] == list(range(1, 8))
    assert "r" not in {r[2] for r in v}  # the reference is never reviewed
    drawn: dict[str, int] = {}
    for _, _, item, part, stratum, rank, _ in v:
        drawn[stratum] = drawn.get(stratum, 0) + 1
        assert part == stratum.split("/")[0]
        assert (item, rank) in [(i, c[0]) for i, c in CANDIDATES.items()] + SEARCHED
    assert drawn == {r.stratum: r.drawn for r in rows if r.drawn}
    draw_verdict_sample(store, "v2", benchmark="b", size=7, seed=13, search=FakeSearch())
    assert [r[:5] for r in sample(store, "v2")] == [r[:5] for r in v]  # same seed, same sample
    draw_verdict_sample(store, "v3", benchmark="b", size=7, seed=14, search=FakeSearch())
    assert sorted(r[:3] for r in sample(store, "v3")) != sorted(r[:3] for r in v)
    draw = store.con.execute(
        "SELECT seed, size, order_by, retriever, depth, beyond, scope FROM review_verdict_draws "
        "WHERE sample_id = 'v'"
    ).fetchall()[0]
    assert draw == (13, 7, "random", "bm25", 12, 20, "benchmark")
    with pytest.raises(ToolexError, match="already exists"):
        draw_verdict_sample(store, "v", benchmark="b", size=7, seed=13, search=FakeSearch())


def test_uncertainty_order_puts_the_judges_decision_boundary_first(store: Store) -> None:
    fill(store)
    draw_verdict_sample(
        store, "u", benchmark="b", size=100, seed=1, order_by="uncertainty", search=FakeSearch()
    )
    conf = store.con.execute(
        "SELECT v.confidence FROM review_verdict_samples s LEFT JOIN verdicts v "
        "USING (benchmark, expansion, query_id, slot, item_id) WHERE s.sample_id = 'u' "
        "ORDER BY s.position"
    ).fetchall()
    confidences = [c for (c,) in conf]
    assert len(confidences) == sum(STRATA.values())  # everything drawn
    # the judge's boundary is its lowest accepted confidence, 0.55 (x4), not 0.5: distances
    # x4 0, x2 0.10, x1 0.35, x3 0.45, then the unjudged (no confidence)
    assert confidences[:12] == [0.55] * 3 + [0.45] * 3 + [0.9] * 3 + [0.1] * 3
    assert confidences[12:] == [None] * 9


def test_beyond_zero_samples_stored_rows_only(store: Store) -> None:
    fill(store)
    search = FakeSearch()
    rows = draw_verdict_sample(store, "s", benchmark="b", size=100, seed=1, beyond=0, search=search)
    assert search.calls == []
    assert {r.stratum for r in rows if r.part == "unjudged"} == {
        "unjudged/A/4-10",
        "unjudged/B/4-10",
    }


def test_retriever_that_cannot_run_names_the_way_out(store: Store) -> None:
    fill(store)
    store.con.execute("UPDATE candidates SET retriever = 'fixture-jaccard'")
    with pytest.raises(ToolexError, match="pass --retriever SPEC.*--beyond 0"):
        draw_verdict_sample(store, "x", benchmark="b", size=5, seed=1)


def test_nothing_to_review_and_unknown_names(store: Store) -> None:
    store.con.execute(
        "INSERT INTO benchmarks (benchmark, format, source) VALUES ('b', 'plain', 'x')"
    )
    with pytest.raises(ToolexError, match="no verdict to review"):
        draw_verdict_sample(store, "x", benchmark="b", size=3, seed=1, search=FakeSearch())
    with pytest.raises(NotFoundError, match="no benchmark named 'bb'.*did you mean 'b'"):
        draw_verdict_sample(store, "x", benchmark="bb", size=3, seed=1)
    with pytest.raises(ToolexError, match="order must be one of"):
        draw_verdict_sample(store, "x", benchmark="b", size=3, seed=1, order_by="confidence")
