"""The embedding cache: re-indexing an unchanged library calls the model zero times, a changed item
is re-embedded alone, and the LanceDB table is rewritten only when the library changed."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pyarrow as pa
import pytest

from retrieval.conftest import HashEmbedder
from toolex.retrieval.dense import DenseRetriever
from toolex.retrieval.embedding_cache import embed_cached
from toolex.retrieval.index_files import lance_dir
from toolex.retrieval.texts import load_library
from toolex.store import Store


def test_reindex_unchanged_library_makes_zero_model_calls(
    lib_store: Store, hash_embedder: HashEmbedder
) -> None:
    (first,) = DenseRetriever("hash", hash_embedder).build(lib_store, load_library(lib_store, "b"))
    assert (first.stats.embedded, first.stats.cached, first.rebuilt) == (6, 0, True)
    calls = hash_embedder.calls
    (again,) = DenseRetriever("hash", hash_embedder).build(lib_store, load_library(lib_store, "b"))
    assert hash_embedder.calls == calls  # zero model calls
    assert (again.stats.embedded, again.stats.cached, again.rebuilt) == (0, 6, False)


def test_changed_item_is_reembedded_alone(lib_store: Store, hash_embedder: HashEmbedder) -> None:
    DenseRetriever("hash", hash_embedder).build(lib_store, load_library(lib_store, "b"))
    lib_store.con.execute(
        "UPDATE items SET text = 'name: email\ndescription: send a letter' WHERE item_id = 'w2'"
    )
    hash_embedder.texts.clear()
    (info,) = DenseRetriever("hash", hash_embedder).build(lib_store, load_library(lib_store, "b"))
    assert hash_embedder.texts == ["name: email\ndescription: send a letter"]
    assert (info.stats.embedded, info.stats.cached, info.rebuilt) == (1, 5, True)
    assert lib_store.con.execute("SELECT count(*) FROM embeddings").fetchall()[0][0] == 7


def test_cached_vectors_equal_fresh_ones_and_keep_order(
    lib_store: Store, hash_embedder: HashEmbedder
) -> None:
    texts = ["b c", "a", "b c", "d"]
    first, s1 = embed_cached(lib_store, hash_embedder, texts)
    second, s2 = embed_cached(lib_store, hash_embedder, list(reversed(texts)))
    assert (s1.embedded, s1.cached, s2.embedded, s2.cached) == (3, 0, 0, 3)
    np.testing.assert_allclose(second, first[::-1], rtol=0, atol=1e-7)
    np.testing.assert_allclose(first, hash_embedder.embed(texts), rtol=0, atol=1e-7)


def test_truncation_to_max_words_before_hashing(
    lib_store: Store, hash_embedder: HashEmbedder
) -> None:
    hash_embedder.max_words = 2
    _, s = embed_cached(lib_store, hash_embedder, ["one two three", "one two four"])
    assert hash_embedder.texts == ["one two"]  # both cut to the same text, embedded once
    assert (s.embedded, s.cached) == (1, 0)


def test_lance_folder_beside_the_store(lib_store: Store) -> None:
    assert lance_dir(lib_store).name == "t.duckdb.lance"
    assert lance_dir(lib_store).parent == __import__("pathlib").Path(lib_store.path).parent


def test_ann_index_above_threshold_finds_the_exact_neighbours(
    store: Store, hash_embedder: HashEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json as _json

    import toolex.retrieval.ann as ann_mod
    import toolex.retrieval.index as index_mod
    from toolex.retrieval import search

    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(300)]
    for i in range(600):
        text = " ".join(rng.choice(words, 6))
        store.con.execute(
            "INSERT INTO items (benchmark, item_id, doc, text) VALUES ('a', ?, ?, ?)",
            [f"i{i:03d}", _json.dumps({}), text],
        )
    first = store.con.execute("SELECT text FROM items ORDER BY item_id LIMIT 20").fetchall()
    texts = [(f"q{i}", 0, t) for i, (t,) in enumerate(first)]
    flat = DenseRetriever("hash", hash_embedder)
    exact = search(store, "a", flat, texts, depth=5, scope="benchmark")
    monkeypatch.setattr(index_mod, "ANN_THRESHOLD", 100)
    hash_embedder.key = "hash-v1-ann"  # a fresh Lance table, built with the ANN index
    r = DenseRetriever("hash", hash_embedder)
    approx = search(store, "a", r, texts, depth=5, scope="benchmark")
    assert r.index is not None and r.index.info is not None  # the search built and opened it
    assert r.index.info.ann and r.describe()["index"] == ann_mod.ANN_INDEX.lower()
    assert r.describe()["ann"] == {**asdict(ann_mod.DEFAULT_ANN), "nprobes": ann_mod.ANN_NPROBES}

    def top1(t: pa.Table) -> set[tuple[str, str]]:
        return {(x["query_id"], x["item_id"]) for x in t.to_pylist() if x["rank"] == 1}

    assert len(top1(exact) & top1(approx)) >= 19  # exact distances in the probed partitions
