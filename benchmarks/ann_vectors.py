"""The vectors bench_ann.py searches, and their exact top-k.

Two libraries (see bench_ann.py's docstring for why each): ``RealManifold``, rows near the real
tool embeddings of ../shared/data with real queries, and ``Blobs``, isotropic clusters (the
synthetic worst case). Both hand out their rows chunk by chunk, so a 1M-row library never sits
whole in memory; ``Exact`` keeps the ground truth the same way and ``build_table`` writes the
rows to a Lance table beside it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np
import pyarrow as pa
import reads

if TYPE_CHECKING:
    from lancedb.table import Table

SHARED = Path(__file__).resolve().parents[2] / "shared"


class VectorData(Protocol):
    """A library of unit vectors (``chunks``) and the queries searched in it."""

    name: str
    dim: int

    def chunks(self, rows: int, chunk: int = 50_000) -> Iterator[np.ndarray]: ...

    def queries(self, rows: int, n: int) -> np.ndarray: ...


class Blobs:
    """Isotropic clusters: the worst case (see bench_ann.py's docstring)."""

    name = "blobs"
    dim = 384  # the shared MiniLM's width

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def _centres(self, rows: int) -> tuple[np.ndarray, np.ndarray]:
        rng = np.random.default_rng(self.seed)
        n = max(8, rows // 400)
        weights = 1.0 / np.arange(1, n + 1) ** 0.8  # Zipf-like family sizes
        return rng.standard_normal((n, self.dim)).astype(np.float32), weights / weights.sum()

    def chunks(self, rows: int, chunk: int = 50_000) -> Iterator[np.ndarray]:
        centres, weights = self._centres(rows)
        for start in range(0, rows, chunk):
            part = np.random.default_rng([self.seed, start])
            which = part.choice(len(centres), min(chunk, rows - start), p=weights)
            yield unit(centres[which] + 0.6 * part.standard_normal((len(which), self.dim)))

    def queries(self, rows: int, n: int) -> np.ndarray:
        centres, weights = self._centres(rows)
        rng = np.random.default_rng([self.seed, 1 << 40])
        return unit(
            centres[rng.choice(len(centres), n, p=weights)]
            + 0.6 * rng.standard_normal((n, self.dim))
        )


class RealManifold:
    """Rows near real tool embeddings, queries real (see bench_ann.py's docstring)."""

    name = "real"

    def __init__(self, cache: Path, seed: int = 0) -> None:
        self.seed = seed
        self.docs, self.real_queries = real_vectors(cache)
        self.dim: int = self.docs.shape[1]
        self.noise = 0.15 / np.sqrt(self.dim)  # per dimension: a vector of norm ~0.15
        # Each real tool's 10 nearest real tools: a new row lies between a tool and one of them.
        near = np.zeros((len(self.docs), 10), np.int64)
        for s in range(0, len(self.docs), 2048):
            sims = self.docs[s : s + 2048] @ self.docs.T
            for r in range(len(sims)):
                sims[r, s + r] = -np.inf
            near[s : s + 2048] = np.argpartition(-sims, 10, axis=1)[:, :10]
        self.near = near

    def chunks(self, rows: int, chunk: int = 50_000) -> Iterator[np.ndarray]:
        m = len(self.docs)
        for start in range(0, rows, chunk):
            rng = np.random.default_rng([self.seed, start])
            idx = np.arange(start, min(rows, start + chunk))
            i = idx % m
            j = self.near[i, rng.integers(0, 10, len(i))]
            alpha = rng.uniform(0, 0.5, (len(i), 1)).astype(np.float32)
            alpha[idx < m] = 0  # the first rows are the real tools themselves
            noise = self.noise * rng.standard_normal((len(i), self.dim)).astype(np.float32)
            noise[idx < m] = 0
            yield unit((1 - alpha) * self.docs[i] + alpha * self.docs[j] + noise)

    def queries(self, rows: int, n: int) -> np.ndarray:
        rng = np.random.default_rng([self.seed, 1 << 40])
        chosen: np.ndarray = self.real_queries[rng.choice(len(self.real_queries), n, replace=False)]
        return chosen


def real_vectors(cache: Path) -> tuple[np.ndarray, np.ndarray]:
    """WordLlama vectors of every tool and query of the shared ToolRet tasks and StableToolBench,
    embedded once and kept in ``cache``."""
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / "wordllama_toolret_stb.npz"
    if path.exists():
        got = np.load(path)
        return got["docs"], got["queries"]
    from toolex.loaders import load_stabletoolbench, load_toolret
    from toolex.retrieval.embedders import make_embedder
    from toolex.store import Store
    from toolex.tooldoc.render import truncate

    store = Store.memory()
    load_toolret(store, SHARED / "data" / "toolret")
    load_stabletoolbench(store, SHARED / "data" / "stabletoolbench")
    embedder = make_embedder("wordllama")
    out: dict[str, np.ndarray] = {}
    for table in ("items", "queries"):
        texts = [t for (t,) in reads.rows(store, f"SELECT text FROM {table} ORDER BY ALL")]
        t0 = time.perf_counter()
        vecs = [
            embedder.embed([truncate(t, embedder.max_words) for t in texts[s : s + 128]])
            for s in range(0, len(texts), 128)
        ]
        out["docs" if table == "items" else "queries"] = unit(np.concatenate(vecs))
        print(f"embedded {len(texts)} {table} in {time.perf_counter() - t0:.0f} s", flush=True)
    np.savez(path, docs=out["docs"], queries=out["queries"])
    return out["docs"], out["queries"]


def unit(v: np.ndarray) -> np.ndarray:
    """``v``'s rows scaled to norm 1, as float32."""
    scaled: np.ndarray = (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)
    return scaled


class Exact:
    """Exact top-k per query, accumulated chunk by chunk (a 1M x 384 library never sits whole)."""

    def __init__(self, queries: np.ndarray, k: int) -> None:
        self.q, self.k = queries.astype(np.float64), k
        self.best_s = np.full((len(queries), 0), -np.inf)
        self.best_i = np.zeros((len(queries), 0), np.int64)

    def add(self, vectors: np.ndarray, ids: np.ndarray) -> None:
        s = np.concatenate([self.best_s, self.q @ vectors.astype(np.float64).T], axis=1)
        i = np.concatenate([self.best_i, np.broadcast_to(ids, (len(self.q), len(ids)))], axis=1)
        top = np.argpartition(-s, min(self.k, s.shape[1]) - 1, axis=1)[:, : self.k]
        self.best_s = np.take_along_axis(s, top, 1)
        self.best_i = np.take_along_axis(i, top, 1)

    def sets(self) -> list[set[str]]:
        return [{str(i) for i in row} for row in self.best_i]


def build_table(
    folder: Path, data: VectorData, rows: int, n_queries: int, k: int, scopes: int
) -> tuple[Table, np.ndarray, Exact, Exact | None]:
    """Write ``rows`` of ``data`` to a Lance table; return it, the queries and their exact top-k
    (over every row, and over scope 0 when ``scopes``)."""
    import lancedb

    queries = data.queries(rows, n_queries)
    exact = Exact(queries, k)
    exact_scoped = Exact(queries, k) if scopes else None
    batches = []
    offset = 0
    for v in data.chunks(rows):
        ids = np.arange(offset, offset + len(v))
        scope = (ids % scopes if scopes else ids * 0).astype(np.int32)
        exact.add(v, ids)
        if exact_scoped is not None:
            exact_scoped.add(v[scope == 0], ids[scope == 0])
        batches.append(
            pa.record_batch(
                {
                    "item_id": pa.array(ids.astype(str)),
                    "scope_code": pa.array(scope),
                    "vector": pa.FixedSizeListArray.from_arrays(pa.array(v.ravel()), data.dim),
                }
            )
        )
        offset += len(v)
    db = lancedb.connect(str(folder))
    table = db.create_table("t", pa.Table.from_batches(batches), mode="overwrite")
    return table, queries, exact, exact_scoped
