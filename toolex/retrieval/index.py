"""The dense index: the LanceDB table of one (benchmark, embedder, rendering), built from the
embedding cache (:mod:`toolex.retrieval.embedding_cache`) and searched by vector
(:mod:`toolex.retrieval.ann`).

The table lives in ``<store>.lance/`` (:mod:`toolex.retrieval.index_files`) and is rewritten only
when the library's signature (ids, scopes, text hashes) or the index toolex builds changes, or
when its files are damaged: the sidecar records the index and the size and checksum of every file
the table is read from, and a table whose files differ in any byte is rebuilt from the cache
rather than trusted. A search that Lance fails (a file removed or cut since the check) rebuilds
the table the same way and searches again; only a table that cannot be rewritten is an error.
Old versions are deleted after each write, so the folder holds one copy of the table.

Scope filtering is a LanceDB prefilter on small integer codes (``task_code = 3``), one batched
search per scope value: integer codes we generate keep user strings out of the filter expression.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from datetime import timedelta
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pyarrow as pa

from toolex.errors import ToolexError
from toolex.retrieval.ann import ANN_THRESHOLD, DEFAULT_ANN, AnnParams, vector_search
from toolex.retrieval.base import IndexInfo
from toolex.retrieval.embedders import Embedder
from toolex.retrieval.embedding_cache import embed_cached, text_hash
from toolex.retrieval.index_files import (
    files_match,
    lance_dir,
    read_sidecar,
    table_files,
    write_sidecar,
)
from toolex.retrieval.lance_import import import_lancedb
from toolex.retrieval.texts import Library
from toolex.store import Store

TIE_MARGIN = 8  # extra rows fetched so ties at the last kept score are cut by the SQL rank rule


class DenseIndex:
    """The LanceDB table of one (benchmark, embedder, rendering), built from the cache."""

    def __init__(self, store: Store, embedder: Embedder, library: Library) -> None:
        # Lance's Rust logger warns "No existing dataset ... will be created" on every first
        # write; that is the normal path here, so keep its log to errors unless the user asks.
        os.environ.setdefault("LANCEDB_LOG", "error")
        lancedb = import_lancedb()

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
        if self.info is None:
            self.info = self._build(trust=True)
        return self.info

    def _build(self, trust: bool) -> IndexInfo:
        """Check the stored table (unless ``trust`` is False: rewrite it regardless) and
        rewrite it from the cache when it is stale or damaged."""
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
        existing = self._existing() if trust else None
        if (
            existing is not None
            and meta.get("signature") == signature
            # the index toolex builds today (sidecars before issue 11 name none: flat, or stale)
            and meta.get("index", "flat" if not meta.get("ann") else None) == kind
            and files_match(self.table_dir, meta.get("files"))  # every byte as written
        ):
            self.table = existing
            return IndexInfo(self.embedder.spec, self.name, len(lib), ann, False, stats)
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
        return IndexInfo(self.embedder.spec, self.name, len(lib), ann, True, stats)

    @property
    def table_dir(self) -> Path:
        return self.folder / f"{self.name}.lance"

    def _write_table(self, table: pa.Table, ann: bool) -> Any:
        """Create (or overwrite) the Lance table; a table too damaged to overwrite is deleted
        and written afresh, and if even that fails the error says which folder to delete."""
        import shutil

        for attempt in range(2):
            try:
                out: Any = self.db.create_table(self.name, table, mode="overwrite")
                if ann:
                    DEFAULT_ANN.create(out, len(table))
                _drop_old_versions(out)
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

    def _existing(self) -> Any:
        """The Lance table as stored, or None."""
        try:
            return self.db.open_table(self.name)
        except Exception:  # missing, or a manifest Lance cannot read: rebuilt by build()
            return None

    def search(
        self, queries: np.ndarray, scope: str, scope_value: str | None, n_items: int, depth: int
    ) -> pa.Table:
        """Top ``depth`` (+ a tie margin) items per query row: query_index, item_id, score."""
        info = self.build()
        limit = min(depth + TIE_MARGIN, n_items)
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
            hits = self._search_rebuilt(exc, queries, limit, where, ann)
        score = pa.array(1.0 - hits.column("_distance").to_numpy().astype(np.float64))
        return pa.table(
            {
                "query_index": hits.column("query_index"),
                "item_id": hits.column("item_id"),
                "score": score,
            }
        )

    def _search_rebuilt(
        self,
        exc: Exception,
        queries: np.ndarray,
        limit: int,
        where: str | None,
        ann: AnnParams | None,
    ) -> pa.Table:
        """Lance failed a search on a table that passed its check when built (a file removed or
        cut since): rewrite the table from the cache, as a damaged one found by the check is,
        and search again; a second failure says which folder to delete."""
        self.info = self._build(trust=False)
        try:
            return vector_search(self.table, queries, limit, where, ann)
        except Exception as again:
            raise ToolexError(
                f"the vector index table {self.table_dir} failed a search "
                f"({type(exc).__name__}: {str(exc).splitlines()[0][:200]}) and again once "
                f"rewritten ({type(again).__name__}: {str(again).splitlines()[0][:200]}); "
                "delete that folder and run `toolex index` again (the embeddings are cached "
                "in the store, so nothing is re-embedded)"
            ) from again


class _Versioned(Protocol):
    def optimize(self, *, cleanup_older_than: timedelta, delete_unverified: bool) -> object: ...


def _drop_old_versions(table: _Versioned) -> None:
    """Delete the versions an overwrite left behind: the folder then holds one copy of the
    table (each rebuild used to add one), and the check reads only the files in use. No other
    process reads the table meanwhile (the store's write lock is held); a failed clean-up costs
    disk space, not correctness."""
    import contextlib
    import warnings

    with contextlib.suppress(Exception), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Lance warns about concurrent readers of old versions
        table.optimize(cleanup_older_than=timedelta(0), delete_unverified=True)


def _codes(values: list[str | None]) -> tuple[list[int], dict[str | None, int]]:
    """Integer code per value (sorted order), -1 for NULL; and the value -> code map."""
    mapping: dict[str | None, int] = {
        v: i for i, v in enumerate(sorted({v for v in values if v is not None}))
    }
    return [mapping.get(v, -1) if v is not None else -1 for v in values], mapping
