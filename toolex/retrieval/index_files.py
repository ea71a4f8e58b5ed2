"""Where a dense index lives on disk: one LanceDB table per (benchmark, embedder, rendering) in
``<store>.lance/`` beside the DuckDB file (a temporary folder for ``:memory:`` stores), and its
sidecar ``<table>.toolex.json``, written atomically, recording the index built and the size and
CRC-32 of every file the table is read from (:func:`table_files`);
:class:`~toolex.retrieval.index.DenseIndex` rebuilds a table whose files differ in any byte
(an unreadable sidecar counts as no sidecar).

Why content and not sizes: Lance keeps no checksum of its own, so a flipped byte in a data file
is read as a different vector, silently (issue 27: sizes alone let 9 of 10 same-size damages
through, and a run then ranked half its rows differently). CRC-32 rather than a cryptographic
hash: it guards against damage, not tampering (whoever can rewrite a data file can rewrite the
sidecar), and takes half SHA-256's time: 0.31 s against 0.65 s over a 200k-row, 256-d table (206 MB,
files cached, load 27; ``python benchmarks/bench_index_check.py``).
"""

from __future__ import annotations

import json
import os
import tempfile
import weakref
import zlib
from collections.abc import Mapping
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


def write_sidecar(path: Path, value: Mapping[str, object]) -> None:
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


# What a Lance table is read from: its data, deletion and index files, and its version
# manifests (a damaged manifest can misstate a fragment's rows as well as fail to parse).
_READ_FROM = ("data", "_deletions", "_indices", "_versions")
_CHUNK = 1 << 22


def table_files(table_dir: Path) -> dict[str, dict[str, int]]:
    """``{relative path: {"size": bytes, "crc32": checksum}}`` of every file one Lance table is
    read from (in ``_versions``, the manifests only: Lance rewrites its version hint)."""
    return {
        rel: {"size": path.stat().st_size, "crc32": _crc32(path)} for rel, path in _files(table_dir)
    }


def files_match(table_dir: Path, recorded: object) -> bool:
    """Whether the table's files are exactly those ``recorded`` by :func:`table_files`, byte for
    byte: the names and sizes first (cheap), then each file's checksum until one differs."""
    # sidecars before issue 27 recorded sizes alone (ints): such a table is rebuilt once
    if not isinstance(recorded, dict) or not all(isinstance(v, dict) for v in recorded.values()):
        return False
    files = dict(_files(table_dir))
    sizes = {rel: path.stat().st_size for rel, path in files.items()}
    if {rel: v.get("size") for rel, v in recorded.items()} != sizes:
        return False
    return all(_crc32(path) == recorded[rel].get("crc32") for rel, path in files.items())


def _files(table_dir: Path) -> list[tuple[str, Path]]:
    out = []
    for sub in _READ_FROM:
        folder = table_dir / sub
        for f in sorted(folder.rglob("*")) if folder.is_dir() else []:
            if f.is_file() and (sub != "_versions" or f.suffix == ".manifest"):
                out.append((str(f.relative_to(table_dir)), f))
    return out


def _crc32(path: Path) -> int:
    crc = 0
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            crc = zlib.crc32(chunk, crc)
    return crc
