"""The embedding cache: ``embeddings(embedder, text_hash, vector)`` in the store.

Keyed by the embedder's model identity and the sha256 of the exact text embedded (after
truncation to the model's limit). Re-indexing an unchanged library therefore embeds nothing; a
changed item is re-embedded alone.

Vectors are stored as they are computed, every ``FLUSH_ROWS`` rows or ``FLUSH_SECONDS`` (as the
pipeline stores its outcomes), and what was computed is stored even when a later batch fails or
the run is interrupted: an endpoint's refusal, a dropped connection, Ctrl-C or SIGTERM halfway
through a library of 200,000 tools costs the requests in flight, never the ones paid for before
them (an endpoint's vectors come request by request, each kept as it comes back).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator, Sequence

import numpy as np
import pyarrow as pa

from toolex.errors import ModelUnavailableError
from toolex.progress import progress
from toolex.retrieval.base import EmbedStats
from toolex.retrieval.embedders import Embedder
from toolex.store import Store
from toolex.tooldoc.render import truncate

FLUSH_ROWS = 2048
FLUSH_SECONDS = 2.0


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
    cached = _matrix(got.column("vector"))
    _learn_width(embedder, cached)

    parts: list[np.ndarray] = []
    embedded: list[str] = []  # the hashes of the rows of ``parts``, in the order they came
    if missing:
        embedder.bind(store)
        writer = _CacheWriter(store, embedder)
        step = max(1, embedder.texts_per_call)
        try:
            with progress(f"{label} ({embedder.model})", len(missing)) as advance:
                for start in range(0, len(missing), step):
                    batch = missing[start : start + step]
                    for offset, got_back in _parts(embedder, [first_text[h] for h in batch]):
                        vectors = np.asarray(got_back).astype(np.float32, copy=False)
                        _learn_width(embedder, vectors)
                        came = batch[offset : offset + len(vectors)]
                        parts.append(vectors)
                        embedded.extend(came)
                        writer.add(came, vectors)
                    advance(len(batch))
        finally:
            writer.flush()  # what was embedded is kept, however the loop ended
    fresh = np.concatenate(parts) if parts else np.zeros((0, embedder.dim), np.float32)

    row_of = {h: i for i, h in enumerate(got.column("text_hash").to_pylist())}
    row_of.update({h: len(row_of) + i for i, h in enumerate(embedded)})
    if len(cached) == 0:
        cached = np.zeros((0, embedder.dim), np.float32)
    matrix = np.concatenate([cached, fresh]) if len(fresh) else cached
    return matrix[np.fromiter((row_of[h] for h in hashes), np.int64, len(hashes))], stats


class _CacheWriter:
    """Stores fresh vectors in short statements: every FLUSH_ROWS rows or FLUSH_SECONDS."""

    def __init__(self, store: Store, embedder: Embedder) -> None:
        self.store, self.embedder = store, embedder
        self.hashes: list[str] = []
        self.vectors: list[np.ndarray] = []
        self.last = time.monotonic()

    def add(self, hashes: Sequence[str], vectors: np.ndarray) -> None:
        self.hashes.extend(hashes)
        self.vectors.append(vectors)
        if len(self.hashes) >= FLUSH_ROWS or time.monotonic() - self.last > FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        if not self.hashes:
            return
        fresh = np.concatenate(self.vectors)
        dim = fresh.shape[1]
        vectors = pa.ListArray.from_arrays(
            pa.array(np.arange(0, fresh.size + 1, dim, dtype=np.int32)),
            pa.array(fresh.ravel()),
        )
        table = pa.table({"text_hash": self.hashes, "vector": vectors})
        # in a transaction: one commit with its count inside (alone, the count committed apart)
        with self.store.registered("retrieval_new", table), self.store.transaction():
            self.store.execute("retrieval/021_store_vectors.sql", {"embedder": self.embedder.key})
        self.hashes, self.vectors, self.last = [], [], time.monotonic()


def _parts(embedder: Embedder, texts: list[str]) -> Iterator[tuple[int, np.ndarray]]:
    """(index of its first text, its vectors) per piece of ``texts`` as each is embedded: an
    endpoint's requests as each comes back (stored as it comes), a local model's all at once."""
    parts = getattr(embedder, "embed_parts", None)
    if parts is not None:
        yield from parts(texts)
    else:
        yield 0, embedder.embed(texts)


def _learn_width(embedder: Embedder, vectors: np.ndarray) -> None:
    """An embedder of unknown width (an endpoint) takes that of the first vectors it sees;
    vectors of another width than the embedder's are refused before they reach the cache."""
    if vectors.shape[0] == 0:
        return
    width = int(vectors.shape[1])
    if not embedder.dim:
        embedder.dim = width
    elif width != embedder.dim:
        raise ModelUnavailableError(
            f"the embedder {embedder.spec!r} gave vectors of width {width}, not the "
            f"{embedder.dim} its cached vectors have; is another model served under that name?"
        )


def _matrix(column: pa.ChunkedArray) -> np.ndarray:
    """The cached vectors as one float32 matrix (rows of one width; 0 x 0 when none)."""
    if len(column) == 0:
        return np.zeros((0, 0), dtype=np.float32)
    flat: np.ndarray = pa.concat_arrays([c.flatten() for c in column.chunks]).to_numpy(
        zero_copy_only=False
    )
    return flat.astype(np.float32, copy=False).reshape(len(column), -1)
