"""Where a dense index lives on disk: one LanceDB table per (benchmark, embedder, rendering) in
``<store>.lance/`` beside the DuckDB file (a temporary folder for ``:memory:`` stores), and its
sidecar ``<table>.toolex.json``, written atomically, recording the index built and the size of
every data and index file (:class:`~toolex.retrieval.index.DenseIndex` rebuilds a table whose
files are missing or shorter; an unreadable sidecar counts as no sidecar).
"""

from __future__ import annotations

import json
import os
import tempfile
import weakref
from pathlib import Path
from typing import Any

from toolex.store import Store

_MEMORY_DIRS: weakref.WeakKeyDictionary[Store, tempfile.TemporaryDirectory[str]] = (
    weakref.WeakKeyDictionary()
)


def lance_dir(store: Store) -> Path:
    """``<db>.lance/`` beside the store file; a temporary folder for an in-memory store."""
    if store.path == ":memory:":
        if store not in _MEMORY_DIRS:
            _MEMORY_DIRS[store] = tempfile.TemporaryDirectory(prefix="toolex-lance-")
        return Path(_MEMORY_DIRS[store].name)
    return Path(f"{store.path}.lance")


def read_sidecar(path: Path) -> dict[str, Any]:
    """The sidecar's content; {} when it is missing, truncated or not a JSON object (the table
    is then rebuilt, which rewrites it)."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def write_sidecar(path: Path, value: dict[str, Any]) -> None:
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
