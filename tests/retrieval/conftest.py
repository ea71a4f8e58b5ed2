"""Fixture rows for retrieval tests, inserted directly (no loader), and a counting embedder."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence

import numpy as np
import pytest

from toolex.store import Store

# (item_id, task, category, text)
ITEMS = [
    ("w1", "alpha", "web", "name: weather\ndescription: get the current weather for a city"),
    ("w2", "alpha", "web", "name: email\ndescription: send an email message to a recipient"),
    ("w3", "alpha", "web", "name: stocks\ndescription: get the stock price of a company"),
    ("c1", "beta", "code", "name: forecast\ndescription: weather forecast for the next days"),
    ("c2", "beta", "code", "name: translate\ndescription: translate text between languages"),
    ("c3", "gamma", "code", "name: rain\ndescription: will it rain, precipitation weather"),
]
# (query_id, task, category, text, instruction, labels)
QUERIES = [
    ("qa", "alpha", "web", "what is the weather in Paris", "Find a weather tool", ["w1"]),
    ("qb", "beta", "code", "translate this and give the forecast", None, ["c2", "c1"]),
    ("qc", "gamma", "code", "is rain expected", None, ["c3"]),
]


def fill(store: Store, benchmark: str = "b") -> Store:
    for iid, task, cat, text in ITEMS:
        store.con.execute(
            "INSERT INTO items (benchmark, item_id, name, task, category, doc, text) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [benchmark, iid, iid, task, cat, json.dumps({"name": iid}), text],
        )
    for qid, task, cat, text, inst, labels in QUERIES:
        store.con.execute(
            "INSERT INTO queries VALUES (?, ?, ?, ?, ?, ?)", [benchmark, qid, task, cat, text, inst]
        )
        for slot, iid in enumerate(labels):
            store.con.execute(
                "INSERT INTO qrels VALUES (?, ?, ?, 1, ?)", [benchmark, qid, iid, slot]
            )
    store.con.execute(
        "INSERT INTO benchmarks (benchmark, format, source, revision) "
        "VALUES (?, 'plain', 'fixture', 'r1')",
        [benchmark],
    )
    return store


@pytest.fixture
def lib_store(store: Store) -> Store:
    return fill(store)


class HashEmbedder:
    """Bag of words hashed into 64 buckets: deterministic, model-free, and it counts its calls."""

    def __init__(self) -> None:
        self.spec = self.model = "hash"
        self.key = "hash-v1"
        self.dim = 64
        self.max_words: int | None = 50
        self.texts_per_call = 128
        self.calls = 0
        self.texts: list[str] = []

    def bind(self, store: Store) -> None:
        pass

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        self.texts.extend(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


@pytest.fixture
def hash_embedder() -> HashEmbedder:
    return HashEmbedder()
