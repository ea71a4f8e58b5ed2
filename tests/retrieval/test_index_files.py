"""Issue 11: the approximate vector path keeps its open files flat. A 20k-query WordLlama run died
with 'Too many open files': Lance holds files per query of one call until the call returns, and
every query went in one call. Searches now go in SEARCH_BATCH chunks, and the index is the one
the sidecar names."""

from __future__ import annotations

import os
import resource

import numpy as np
import pyarrow as pa
import pytest

import toolex.retrieval.ann as ann_mod
import toolex.retrieval.index as index_mod
from retrieval.conftest import HashEmbedder
from toolex.retrieval import search
from toolex.retrieval.base import IndexInfo
from toolex.retrieval.dense import DenseRetriever
from toolex.retrieval.index_files import read_sidecar, write_sidecar
from toolex.store import Store

pytestmark = pytest.mark.skipif(
    not os.path.isdir("/proc/self/fd"), reason="counts open files in /proc/self/fd"
)


def _open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.fixture
def ann_store(store: Store, monkeypatch: pytest.MonkeyPatch) -> Store:
    """600 items, above a lowered threshold: the library gets the approximate index."""
    monkeypatch.setattr(index_mod, "ANN_THRESHOLD", 100)
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(300)]
    items = pa.table(
        {
            "item_id": [f"i{i:03d}" for i in range(600)],
            "text": [" ".join(rng.choice(words, 6)) for _ in range(600)],
        }
    )
    store.con.register("new_items", items)
    store.con.execute(
        "INSERT INTO items (benchmark, item_id, doc, text) "
        "SELECT 'a', item_id, '{}', text FROM new_items"
    )
    return store


def test_many_queries_in_one_search_stay_within_a_small_file_budget(
    ann_store: Store, hash_embedder: HashEmbedder
) -> None:
    r = DenseRetriever("hash", hash_embedder)
    rng = np.random.default_rng(1)
    words = [f"w{i}" for i in range(300)]
    texts = [(f"q{i}", 0, " ".join(rng.choice(words, 5))) for i in range(1000)]
    search(ann_store, "a", r, texts[:10], depth=5, scope="benchmark")  # build, open, warm
    assert r.index is not None and r.index.info is not None and r.index.info.ann
    # Lance's own threads and files are open by now; allow a bounded few per query of a chunk,
    # far below the 2,000 one 1,000-query call held with Lance's re-ranking (IVF_HNSW_SQ).
    budget = _open_files() + 4 * ann_mod.SEARCH_BATCH + 32
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(budget, hard), hard))
    try:
        hits = search(ann_store, "a", r, texts, depth=5, scope="benchmark")
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert hits.num_rows == 5 * len(texts)


def test_repeated_searches_keep_open_files_flat(
    ann_store: Store, hash_embedder: HashEmbedder
) -> None:
    r = DenseRetriever("hash", hash_embedder)
    texts = [(f"q{i}", 0, f"w{i} w{i + 1} w{i + 2}") for i in range(200)]
    search(ann_store, "a", r, texts, depth=5, scope="benchmark")
    before = _open_files()
    for _ in range(10):  # as the candidate stage does: one search() per batch of sub-queries
        search(ann_store, "a", r, texts, depth=5, scope="benchmark")
    assert _open_files() <= before + 2


def test_the_index_is_built_once_per_library_not_per_batch(
    ann_store: Store, hash_embedder: HashEmbedder
) -> None:
    r = DenseRetriever("hash", hash_embedder)
    texts = [("q", 0, "w1 w2 w3")]
    search(ann_store, "a", r, texts, depth=5, scope="benchmark")
    assert r.index is not None  # the first search built it
    calls, table = hash_embedder.calls, r.index.table
    search(ann_store, "a", r, texts, depth=5, scope="benchmark")
    # no second pass over the library's texts (the query text itself is cached too)
    assert hash_embedder.calls == calls
    assert r.index.table is table  # not re-opened, so Lance keeps its index in memory


def test_a_table_built_with_another_index_is_rebuilt(
    ann_store: Store, hash_embedder: HashEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolex.retrieval.texts import load_library

    lib = load_library(ann_store, "a")
    first = index_mod.DenseIndex(ann_store, hash_embedder, lib).build()
    assert first.ann and first.rebuilt
    assert not index_mod.DenseIndex(ann_store, hash_embedder, lib).build().rebuilt
    other = ann_mod.AnnParams(partition_rows=50)
    monkeypatch.setattr(index_mod, "DEFAULT_ANN", other)
    again = index_mod.DenseIndex(ann_store, hash_embedder, lib)
    assert again.build().rebuilt
    meta = read_sidecar(again.folder / f"{again.name}.toolex.json")
    assert meta["index"] == other.built_as()


def test_sidecars_from_before_issue_11_keep_flat_tables_and_rebuild_indexed_ones(
    ann_store: Store, hash_embedder: HashEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolex.retrieval.texts import load_library

    lib = load_library(ann_store, "a")
    for ann, rebuilt in ((False, False), (True, True)):
        monkeypatch.setattr(index_mod, "ANN_THRESHOLD", 100 if ann else 10**6)
        index = index_mod.DenseIndex(ann_store, hash_embedder, lib)
        index.build()
        sidecar = index.folder / f"{index.name}.toolex.json"
        meta = read_sidecar(sidecar)
        del meta["index"]  # as toolex wrote it before: an IVF_HNSW_SQ table said only "ann"
        write_sidecar(sidecar, meta)
        again = index_mod.DenseIndex(ann_store, hash_embedder, lib).build()
        assert (again.ann, again.rebuilt) == (ann, rebuilt)


def test_the_index_name_shown_is_the_one_built() -> None:
    assert IndexInfo("x", "t", 1, ann=True).index == ann_mod.ANN_INDEX.lower()
