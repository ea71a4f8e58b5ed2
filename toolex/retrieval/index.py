"""The dense side of the store: an embedding cache in DuckDB and vector tables in LanceDB.

Cache: ``embeddings(embedder, text_hash, vector)``, keyed by the embedder's model identity and the
sha256 of the exact text embedded (after truncation to the model's limit). Re-indexing an
unchanged library therefore embeds nothing; a changed item is re-embedded alone.

Index: one LanceDB table per (benchmark, embedder, rendering) in ``<store>.lance/`` beside the
DuckDB file (a temporary folder for ``:memory:`` stores). Cosine distance; exact (flat) search up to
``ANN_THRESHOLD`` rows, an IVF_HNSW_SQ index with exact re-ranking of ``REFINE_FACTOR``·k
candidates above it (threshold measured by ``benchmarks/bench_retrieval.py ann``). The table
is rewritten only when the library's signature (ids, scopes, text hashes) changes, or when its
files are damaged: the sidecar ``<table>.toolex.json`` (written atomically) records the size of
every data and index file, and a table whose files are missing or shorter is rebuilt from the
cache rather than trusted (an unreadable sidecar counts as no sidecar).

Scope filtering is a LanceDB prefilter on small integer codes (``task_code = 3``), one batched
search per scope value: integer codes we generate keep user strings out of the filter expression.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from toolex.errors import ToolexError
from toolex.progress import progress
from toolex.retrieval.base import EmbedStats, IndexInfo
from toolex.retrieval.embedders import Embedder
from toolex.retrieval.texts import Library
from toolex.store import Store
from toolex.tooldoc.render import truncate

EMBED_BATCH = 128
# Measured (benchmarks/bench_retrieval.py ann, 384-d, 200 queries, k=20, 2 busy cores): flat
# 2.1-4.4 ms/query at 30k rows vs IVF_HNSW_SQ 22 ms; at 100k flat 14-16 ms vs HNSW_SQ 11 ms with
# recall@20 0.998. IVF_PQ (+refine x10) reached only 0.71-0.85 recall@20, so it is not used.
ANN_THRESHOLD = 100_000  # rows; below it flat search is exact and as fast or faster
ANN_INDEX = "IVF_HNSW_SQ"
ANN_NPROBES = 32
REFINE_FACTOR = 10
TIE_MARGIN = 8  # extra rows fetched so ties at the k-th score are cut by the SQL rank rule
_MEMORY_DIRS: weakref.WeakKeyDictionary[Store, tempfile.TemporaryDirectory] = (
    weakref.WeakKeyDictionary()
)


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
    flat = pa.concat_arrays([c.flatten() for c in column.chunks]).to_numpy(zero_copy_only=False)
    return flat.astype(np.float32, copy=False).reshape(-1, dim)


def lance_dir(store: Store) -> Path:
    """``<db>.lance/`` beside the store file; a temporary folder for an in-memory store."""
    if store.path == ":memory:":
        if store not in _MEMORY_DIRS:
            _MEMORY_DIRS[store] = tempfile.TemporaryDirectory(prefix="toolex-lance-")
        return Path(_MEMORY_DIRS[store].name)
    return Path(f"{store.path}.lance")


def read_sidecar(path: Path) -> dict:
    """The sidecar's content; {} when it is missing, truncated or not a JSON object (the table
    is then rebuilt, which rewrites it)."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def write_sidecar(path: Path, value: dict) -> None:
    """Write the sidecar whole or not at all: a temporary file in the same folder, then
    os.replace (atomic on POSIX and Windows), so a crash never leaves half a file."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(value, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def table_files(table_dir: Path) -> dict[str, int]:
    """Size of every data, deletion and index file of one Lance table (relative paths)."""
    out = {}
    for sub in ("data", "_deletions", "_indices"):
        for f in sorted((table_dir / sub).rglob("*")) if (table_dir / sub).is_dir() else []:
            if f.is_file():
                out[str(f.relative_to(table_dir))] = f.stat().st_size
    return out


class DenseIndex:
    """The LanceDB table of one (benchmark, embedder, rendering), built from the cache."""

    def __init__(self, store: Store, embedder: Embedder, library: Library) -> None:
        # Lance's Rust logger warns "No existing dataset ... will be created" on every first
        # write; that is the normal path here, so keep its log to errors unless the user asks.
        os.environ.setdefault("LANCEDB_LOG", "error")
        import lancedb

        self.store, self.embedder, self.library = store, embedder, library
        raw = f"{library.benchmark}|{embedder.key}|{library.rendering}"
        slug = re.sub(r"[^A-Za-z0-9_-]+", "_", f"{library.benchmark}-{embedder.model}")[:60]
        self.name = f"{slug}-{library.rendering[:20]}-{hashlib.sha1(raw.encode()).hexdigest()[:10]}"
        self.folder = lance_dir(store)
        if self.folder.exists() and not self.folder.is_dir():
            raise ToolexError(
                f"{self.folder} is a file, but toolex keeps the store's vector index in a folder "
                "of that name beside the store; move the file away, then run the command again"
            )
        self.folder.mkdir(parents=True, exist_ok=True)
        self.db = lancedb.connect(str(self.folder))
        self.codes = {s: _codes(library.scope_values(s)) for s in ("task", "category")}
        self.info: IndexInfo | None = None

    def build(self) -> IndexInfo:
        """Embed what the cache lacks; rewrite the Lance table only if the library changed."""
        lib = self.library
        vectors, stats = embed_cached(self.store, self.embedder, lib.texts, "embedding tools")
        signature = hashlib.sha256(
            json.dumps(
                [lib.item_ids, lib.tasks, lib.categories, [text_hash(t) for t in lib.texts]]
            ).encode()
        ).hexdigest()
        meta_path = self.folder / f"{self.name}.toolex.json"
        meta = read_sidecar(meta_path)
        existing = self._existing()
        if (
            existing is not None
            and meta.get("signature") == signature
            and meta.get("files") == table_files(self.table_dir)  # nothing missing or cut
        ):
            self.table = existing
            self.info = IndexInfo(
                self.embedder.spec, self.name, len(lib), meta.get("ann", False), False, stats
            )
            return self.info
        table = pa.table(
            {
                "item_id": pa.array(lib.item_ids, pa.string()),
                "task_code": pa.array(self.codes["task"][0], pa.int32()),
                "category_code": pa.array(self.codes["category"][0], pa.int32()),
                "vector": pa.FixedSizeListArray.from_arrays(
                    pa.array(vectors.ravel(), pa.float32()), self.embedder.dim
                ),
            }
        )
        meta_path.unlink(missing_ok=True)  # no sidecar while the table is being rewritten
        ann = len(lib) >= ANN_THRESHOLD
        self.table = self._write_table(table, ann)
        write_sidecar(
            meta_path,
            {
                "signature": signature,
                "ann": ann,
                "rows": len(lib),
                "files": table_files(self.table_dir),
            },
        )
        self.info = IndexInfo(self.embedder.spec, self.name, len(lib), ann, True, stats)
        return self.info

    @property
    def table_dir(self) -> Path:
        return self.folder / f"{self.name}.lance"

    def _write_table(self, table: pa.Table, ann: bool):
        """Create (or overwrite) the Lance table; a table too damaged to overwrite is deleted
        and written afresh, and if even that fails the error says which folder to delete."""
        import shutil

        for attempt in range(2):
            try:
                out: Any = self.db.create_table(self.name, table, mode="overwrite")
                if ann:
                    out.create_index(
                        metric="cosine",
                        index_type=ANN_INDEX,
                        num_partitions=max(1, int(np.sqrt(len(table)))),
                        vector_column_name="vector",
                    )
                return out
            except Exception as exc:  # Lance raises OSError, RuntimeError, ValueError...
                if attempt:
                    raise ToolexError(
                        f"the vector index table {self.table_dir} cannot be rewritten "
                        f"({type(exc).__name__}: {str(exc).splitlines()[0][:200]}); delete "
                        "that folder and run `toolex index` again (the embeddings are cached "
                        "in the store, so nothing is re-embedded)"
                    ) from exc
                if self.table_dir.is_dir():
                    shutil.rmtree(self.table_dir, ignore_errors=True)
                else:  # a file where the table's folder goes
                    self.table_dir.unlink(missing_ok=True)
        raise AssertionError("unreachable")

    def _existing(self):
        try:
            return self.db.open_table(self.name)
        except Exception:  # missing, or a manifest Lance cannot read: rebuilt by build()
            return None

    def search(
        self, queries: np.ndarray, scope: str, scope_value: str | None, n_items: int, k: int
    ) -> pa.Table:
        """Top ``k`` (+ a tie margin) items per query row: columns query_index, item_id, score."""
        if self.info is None:
            self.build()
        limit = min(k + TIE_MARGIN, n_items)
        q = self.table.search(queries if len(queries) > 1 else queries[0])
        q = q.distance_type("cosine").select(["item_id", "_distance"]).limit(limit)
        if scope in self.codes:
            code = self.codes[scope][1][scope_value]
            q = q.where(f"{scope}_code = {int(code)}", prefilter=True)
        if self.info and self.info.ann:
            q = q.nprobes(ANN_NPROBES).refine_factor(REFINE_FACTOR)
        try:
            hits = q.to_arrow()
        except Exception as exc:  # a data file removed or cut since build(): Lance's own error
            raise ToolexError(
                f"the vector index table {self.table_dir} is damaged "
                f"({type(exc).__name__}: {str(exc).splitlines()[0][:200]}); run the command "
                "again: it checks the index files and rebuilds a damaged table from the cache"
            ) from exc
        if "query_index" not in hits.column_names:
            hits = hits.append_column("query_index", pa.array(np.zeros(len(hits), np.int32)))
        score = pa.array(1.0 - hits.column("_distance").to_numpy().astype(np.float64))
        return pa.table(
            {
                "query_index": hits.column("query_index"),
                "item_id": hits.column("item_id"),
                "score": score,
            }
        )


def _codes(values: list[str | None]) -> tuple[list[int], dict[str | None, int]]:
    """Integer code per value (sorted order), -1 for NULL; and the value -> code map."""
    mapping: dict[str | None, int] = {
        v: i for i, v in enumerate(sorted({v for v in values if v is not None}))
    }
    return [mapping.get(v, -1) if v is not None else -1 for v in values], mapping
