"""BM25 matches the Lucene formula with k1 = 1.5, b = 0.75 and English stop-words removed."""

from __future__ import annotations

import math

import pytest

from toolex.retrieval import search


def _lucene(tf, df, n, dl, avgdl, k1=1.5, b=0.75):
    idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
    return idf * tf / (tf + k1 * (1 - b + b * dl / avgdl))


def test_scores_match_the_lucene_formula(lib_store):
    # task alpha, tokens after stop-word removal (bm25s: lower-case, \b\w\w+\b, "en" stop-words):
    # w1: name weather description get current weather city          (7 tokens, weather tf=2)
    # w2: name email description send email message recipient        (7 tokens)
    # w3: name stocks description get stock price company             (7 tokens)
    out = search(lib_store, "b", "bm25", [("qa", 0, "the weather")], depth=3, scope="task")
    rows = out.to_pylist()
    assert rows[0]["item_id"] == "w1"
    assert rows[0]["score"] == pytest.approx(_lucene(tf=2, df=1, n=3, dl=7, avgdl=7), rel=1e-5)
    assert rows[1]["score"] == 0.0  # "the" is a stop-word: no other document matches


def test_idf_is_computed_within_the_scope(lib_store):
    # in scope 'benchmark', 'weather' appears in 3 of 6 documents: a lower idf than in task alpha
    task = search(lib_store, "b", "bm25", [("qa", 0, "weather")], depth=1, scope="task")
    whole = search(lib_store, "b", "bm25", [("qa", 0, "weather")], depth=1, scope="benchmark")
    assert task.to_pylist()[0]["score"] > whole.to_pylist()[0]["score"] > 0
