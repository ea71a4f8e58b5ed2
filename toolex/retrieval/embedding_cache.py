"""The embedding cache: ``embeddings(embedder, text_hash, vector)`` in the store.

Keyed by the embedder's model identity and the sha256 of the exact text embedded (after
truncation to the model's limit). Re-indexing an unchanged library therefore embeds nothing; a
changed item is re-embedded alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from toolex.progress import progress
from toolex.retrieval.base import EmbedStats
from toolex.retrieval.embedders import Embedder
from toolex.store import Store
from toolex.tooldoc.render import truncate

EMBED_BATCH = 128


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def embed_cached(
    store: Store, embedder: Embedder, texts: Sequence[str], label: str = "embedding"
) -> tuple[np.ndarray, EmbedStats]:
    """Vectors of ``texts`` (rows in order), computing only those missing from the cache."""
    cut = [truncate(t, embedder.max_words) for t in texts]
    hashes = [text_hash(t) for t in cut]
    unique = list(dict.fromkeys(hashes))
    with store.registered("retrieval_wanted", pa.table({"text_hash": unique})):
        got = store.arrow("retrieval/020_cached_vectors.sql", {"embedder": embedder.key})
    have = set(got.column("text_hash").to_pylist())
    first_text = dict(zip(hashes, cut, strict=True))
    # Longest first, so each batch pads to similar lengths (transformers pay for the padding)
    # and the slowest batches come before the progress bar's rate settles.
    missing = sorted((h for h in unique if h not in have), key=lambda h: -len(first_text[h]))
    stats = EmbedStats(embedded=len(missing), cached=len(unique) - len(missing))

    fresh = np.zeros((0, embedder.dim), dtype=np.float32)
    if missing:
        parts = []
        with progress(f"{label} ({embedder.model})", len(missing)) as advance:
            for start in range(0, len(missing), EMBED_BATCH):
                batch = [first_text[h] for h in missing[start : start + EMBED_BATCH]]
                parts.append(embedder.embed(batch))
                advance(len(batch))
        fresh = np.concatenate(parts).astype(np.float32)
        vectors = pa.ListArray.from_arrays(
            pa.array(np.arange(0, fresh.size + 1, embedder.dim, dtype=np.int32)),
            pa.array(fresh.ravel()),
        )
        with store.registered("retrieval_new", pa.table({"text_hash": missing, "vector": vectors})):
            store.execute("retrieval/021_store_vectors.sql", {"embedder": embedder.key})

    cached = _matrix(got.column("vector"), embedder.dim)
    row_of = {h: i for i, h in enumerate(got.column("text_hash").to_pylist())}
    row_of.update({h: len(row_of) + i for i, h in enumerate(missing)})
    matrix = np.concatenate([cached, fresh]) if len(fresh) else cached
    return matrix[np.fromiter((row_of[h] for h in hashes), np.int64, len(hashes))], stats


def _matrix(column: pa.ChunkedArray, dim: int) -> np.ndarray:
    if len(column) == 0:
        return np.zeros((0, dim), dtype=np.float32)
    flat: np.ndarray = pa.concat_arrays([c.flatten() for c in column.chunks]).to_numpy(
        zero_copy_only=False
    )
    return flat.astype(np.float32, copy=False).reshape(-1, dim)
