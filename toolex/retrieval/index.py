"""The dense side of the store: an embedding cache in DuckDB and vector tables in LanceDB.

Cache: ``embeddings(embedder, text_hash, vector)``, keyed by the embedder's model identity and the
sha256 of the exact text embedded (after truncation to the model's limit). Re-indexing an
unchanged library therefore embeds nothing; a changed item is re-embedded alone.

Index: one LanceDB table per (benchmark, embedder, rendering) in ``<store>.lance/`` beside the
DuckDB file (a temporary folder for ``:memory:`` stores). Cosine distance; exact (flat) search up to
``ANN_THRESHOLD`` rows, an IVF_FLAT index above it (``DEFAULT_ANN``; chosen and tuned with
``benchmarks/bench_ann.py``). The table is rewritten only when the library's signature (ids,
scopes, text hashes) or the index toolex builds changes, or when its files are damaged: the
sidecar ``<table>.toolex.json`` (written atomically) records the index and the size of every
data and index file, and a table whose files are missing or shorter is rebuilt from the cache
rather than trusted (an unreadable sidecar counts as no sidecar).

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
from dataclasses import dataclass
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
ANN_THRESHOLD = 100_000  # rows; below it search is flat: exact, 5.5-14.5 ms/query at 50k rows
# Above it: IVF_FLAT, sqrt(rows) partitions, 192 probed, chosen with benchmarks/bench_ann.py
# (real WordLlama tool and query vectors, k=20, against exact search, 2 cores at load 5-14; two
# runs; the reference, flat search over 50k rows measured in the same runs: 6.2-14.5 ms/query):
#   rows   flat ms/query  IVF_FLAT ms/query  recall@20   (with 128 probes: recall 0.99/0.98/0.94)
#   100k     17.7-21.3         1.7-2.0       0.997-1.000
#   200k     20.0-76.7         2.0-2.2       0.993-0.997  (recall@100 0.994; 1/8 scope 0.991)
#   1M        129-139          5.8-12.0      0.972-0.979  (384 probes: 0.998 at 9.5 ms)
# IVF_FLAT keeps exact vectors, so it needs no re-ranking. The quantised indexes need it and
# were slower at lower recall: at 200k IVF_HNSW_SQ (the old default: nprobes 32, refine 10) 13.2
# ms and 0.849, nprobes 64 20.8 ms and 0.922; IVF_SQ at most 0.928, IVF_RQ 0.915 (3-8 ms); at
# 100k IVF_PQ at most 0.944 (16 ms, 4-min build). Their recall is bounded by the partitions
# probed, which re-ranking cannot raise.
ANN_INDEX = "IVF_FLAT"
ANN_PARTITION_ROWS: int | None = None  # rows per IVF partition; None = sqrt(rows) partitions
ANN_NPROBES = 192
REFINE_FACTOR: int | None = None  # exact re-ranking of REFINE_FACTOR x k candidates; none
# Query vectors per Lance call. Lance's exact re-ranking (refine_factor) opens the data file for
# each query of a call and holds it until the call returns: 1,000 queries on IVF_HNSW_SQ held
# 2,001 descriptors, so a 20k-query run in one call died with "Too many open files". IVF_FLAT
# needs no re-ranking and holds none; chunks bound the rest (any index type) at a few hundred.
SEARCH_BATCH = 64
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
        """Embed what the cache lacks; rewrite the Lance table only if the library changed.

        Once per DenseIndex: its library never changes (a changed library is a new Library and
        so a new DenseIndex), and the candidate stage searches batch after batch; re-checking
        meant hashing every tool's text, reading back every vector and re-opening the table,
        whose index Lance then read from disk again, for each batch of 256 sub-queries."""
        if self.info is not None:
            return self.info
        lib = self.library
        vectors, stats = embed_cached(self.store, self.embedder, lib.texts, "embedding tools")
        signature = hashlib.sha256(
            json.dumps(
                [lib.item_ids, lib.tasks, lib.categories, [text_hash(t) for t in lib.texts]]
            ).encode()
        ).hexdigest()
        meta_path = self.folder / f"{self.name}.toolex.json"
        meta = read_sidecar(meta_path)
        ann = len(lib) >= ANN_THRESHOLD
        kind = DEFAULT_ANN.built_as() if ann else "flat"
        existing = self._existing()
        if (
            existing is not None
            and meta.get("signature") == signature
            # the index toolex builds today (sidecars before issue 11 name none: flat, or stale)
            and meta.get("index", "flat" if not meta.get("ann") else None) == kind
            and meta.get("files") == table_files(self.table_dir)  # nothing missing or cut
        ):
            self.table = existing
            self.info = IndexInfo(self.embedder.spec, self.name, len(lib), ann, False, stats)
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
        self.table = self._write_table(table, ann)
        write_sidecar(
            meta_path,
            {
                "signature": signature,
                "ann": ann,
                "index": kind,
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
                    DEFAULT_ANN.create(out, len(table))
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
        info = self.build()
        limit = min(k + TIE_MARGIN, n_items)
        where = None
        if scope in self.codes:
            where = f"{scope}_code = {int(self.codes[scope][1][scope_value])}"
        # A scope smaller than the threshold is searched exactly even in an indexed table, as a
        # library that small is: the partitions an IVF search probes hold only part of a small
        # scope's items. Exactness costs there (a 25k scope of 200k rows: 9.6 ms/query flat, 1.5
        # with the index, recall 0.991; benchmarks/bench_ann.py --scopes 8).
        ann = DEFAULT_ANN if info.ann and n_items >= ANN_THRESHOLD else None
        try:
            hits = vector_search(self.table, queries, limit, where, ann)
        except Exception as exc:  # a data file removed or cut since build(): Lance's own error
            raise ToolexError(
                f"the vector index table {self.table_dir} is damaged "
                f"({type(exc).__name__}: {str(exc).splitlines()[0][:200]}); run the command "
                "again: it checks the index files and rebuilds a damaged table from the cache"
            ) from exc
        score = pa.array(1.0 - hits.column("_distance").to_numpy().astype(np.float64))
        return pa.table(
            {
                "query_index": hits.column("query_index"),
                "item_id": hits.column("item_id"),
                "score": score,
            }
        )


@dataclass(frozen=True)
class AnnParams:
    """One approximate index and how it is searched; ``benchmarks/bench_ann.py`` sweeps these."""

    index_type: str = ANN_INDEX
    partition_rows: int | None = ANN_PARTITION_ROWS
    nprobes: int = ANN_NPROBES
    refine_factor: int | None = REFINE_FACTOR
    sub_vectors: int | None = None  # IVF_PQ / IVF_HNSW_PQ only; None = Lance's default

    def built_as(self) -> str:
        """What the table holds (search-time parameters change no file): the sidecar's record."""
        return f"{self.index_type}/{self.partition_rows or 'sqrt'}/{self.sub_vectors or '-'}"

    def create(self, table: Any, rows: int) -> None:
        """Build this index on ``table``'s ``vector`` column (cosine), replacing any other."""
        from lancedb import index

        kinds: dict[str, Any] = {
            "IVF_FLAT": index.IvfFlat,
            "IVF_SQ": index.IvfSq,
            "IVF_PQ": index.IvfPq,
            "IVF_RQ": index.IvfRq,
            "IVF_HNSW_SQ": index.HnswSq,
            "IVF_HNSW_PQ": index.HnswPq,
        }
        parts = rows // self.partition_rows if self.partition_rows else int(np.sqrt(rows))
        extra = {"num_sub_vectors": self.sub_vectors} if self.sub_vectors else {}
        config = kinds[self.index_type](
            distance_type="cosine", num_partitions=max(1, parts), **extra
        )
        table.create_index("vector", config=config, replace=True)


DEFAULT_ANN = AnnParams()


def vector_search(
    table: Any, queries: np.ndarray, limit: int, where: str | None, ann: AnnParams | None
) -> pa.Table:
    """Nearest ``limit`` rows by cosine per query row: ``query_index, item_id, _distance``.

    ``ann=None`` searches exactly (flat), else with ``ann``'s probes (and re-ranking, if it
    asks for any). Queries go to Lance ``SEARCH_BATCH`` at a time (see there: why).
    """
    parts = []
    for start in range(0, len(queries), SEARCH_BATCH):
        chunk = queries[start : start + SEARCH_BATCH]
        q = table.search(chunk if len(chunk) > 1 else chunk[0]).distance_type("cosine")
        q = q.select(["item_id", "_distance"]).limit(limit)
        if where is not None:
            q = q.where(where, prefilter=True)
        if ann is None:
            q = q.bypass_vector_index()
        else:
            q = q.nprobes(ann.nprobes)
            if ann.refine_factor:
                q = q.refine_factor(ann.refine_factor)
        hits = q.to_arrow()
        index = (
            hits.column("query_index").to_numpy().astype(np.int64)
            if "query_index" in hits.column_names
            else np.zeros(len(hits), np.int64)
        )
        parts.append(
            pa.table(
                {
                    "query_index": pa.array(index + start, pa.int64()),
                    "item_id": hits.column("item_id"),
                    "_distance": hits.column("_distance"),
                }
            )
        )
    if not parts:
        return pa.table(
            {
                "query_index": pa.array([], pa.int64()),
                "item_id": pa.array([], pa.string()),
                "_distance": pa.array([], pa.float32()),
            }
        )
    return pa.concat_tables(parts)


def _codes(values: list[str | None]) -> tuple[list[int], dict[str | None, int]]:
    """Integer code per value (sorted order), -1 for NULL; and the value -> code map."""
    mapping: dict[str | None, int] = {
        v: i for i, v in enumerate(sorted({v for v in values if v is not None}))
    }
    return [mapping.get(v, -1) if v is not None else -1 for v in values], mapping
