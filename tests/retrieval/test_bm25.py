"""BM25 matches the Lucene formula with k1 = 1.5, b = 0.75 and English stop-words removed."""

from __future__ import annotations

import math
from typing import Any

import pytest

from toolex.retrieval import search
from toolex.store import Store


def _lucene(
    tf: int, df: int, n: int, dl: int, avgdl: int, k1: float = 1.5, b: float = 0.75
) -> float:
    idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
    return idf * tf / (tf + k1 * (1 - b + b * dl / avgdl))


def test_scores_match_the_lucene_formula(lib_store: Store) -> None:
    # task alpha, tokens after stop-word removal (bm25s: lower-case, \b\w\w+\b, "en" stop-words):
    # w1: name weather description get current weather city          (7 tokens, weather tf=2)
    # w2: name email description send email message recipient        (7 tokens)
    # w3: name stocks description get stock price company             (7 tokens)
    out = search(lib_store, "b", "bm25", [("qa", 0, "the weather")], depth=3, scope="task")
    rows = out.to_pylist()
    assert rows[0]["item_id"] == "w1"
    assert rows[0]["score"] == pytest.approx(_lucene(tf=2, df=1, n=3, dl=7, avgdl=7), rel=1e-5)
    assert rows[1]["score"] == 0.0  # "the" is a stop-word: no other document matches


def test_idf_is_computed_within_the_scope(lib_store: Store) -> None:
    # in scope 'benchmark', 'weather' appears in 3 of 6 documents: a lower idf than in task alpha
    task = search(lib_store, "b", "bm25", [("qa", 0, "weather")], depth=1, scope="task")
    whole = search(lib_store, "b", "bm25", [("qa", 0, "weather")], depth=1, scope="benchmark")
    assert task.to_pylist()[0]["score"] > whole.to_pylist()[0]["score"] > 0


def test_an_index_is_built_once_per_library_content(
    lib_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The candidate stage searches batch after batch: the second batch reuses the index, and so
    # does another retriever of the process (the demo's runs after its candidate stage); an
    # edited item (another fingerprint) gets a fresh one, and its new text is what is searched.
    import bm25s

    from toolex.retrieval import bm25
    from toolex.retrieval.bm25 import BM25Retriever

    monkeypatch.setattr(bm25, "_INDEXES", {})  # none from the tests before

    builds: list[int] = []
    original = bm25s.BM25.index

    def counted(self: bm25s.BM25, *a: Any, **k: Any) -> object:  # bm25s's own signature
        builds.append(1)
        return original(self, *a, **k)

    monkeypatch.setattr(bm25s.BM25, "index", counted)
    r = BM25Retriever()
    first = search(lib_store, "b", r, [("qa", 0, "weather")], depth=1, scope="benchmark")
    second = search(lib_store, "b", r, [("qb", 0, "translate")], depth=1, scope="benchmark")
    assert len(builds) == 1
    assert first.to_pylist()[0]["item_id"] != second.to_pylist()[0]["item_id"]
    other = search(
        lib_store, "b", BM25Retriever(), [("qa", 0, "weather")], depth=1, scope="benchmark"
    )
    assert len(builds) == 1 and other.to_pylist() == first.to_pylist()
    lib_store.con.execute("UPDATE items SET text = 'name: zebra' WHERE item_id = 'w2'")
    third = search(lib_store, "b", r, [("qa", 0, "zebra")], depth=1, scope="benchmark")
    assert len(builds) == 2 and third.to_pylist()[0]["item_id"] == "w2"


def test_top_k_equals_a_full_sort_on_tie_heavy_scores() -> None:
    # The fast path partitions only the scored documents; it must pick exactly what a full sort
    # by (score desc, tie asc) picks, zero-score fill-ins included.
    import numpy as np

    from toolex.retrieval.bm25 import _top_k

    rng = np.random.default_rng(0)
    for _ in range(2000):
        n = int(rng.integers(1, 60))
        k = min(int(rng.integers(1, 70)), n)
        scores = rng.choice([0.0, 0.0, 0.0, 1.0, 2.5, float(rng.random())], size=n)
        tie = rng.permutation(n)
        assert list(_top_k(scores, tie, k)) == list(np.lexsort((tie, -scores))[:k])
