"""Damaged vector indexes: a truncated, garbage or misshapen sidecar, missing or cut Lance data
files, a missing manifest, a file where the index folder goes. The index notices, rebuilds
from the embedding cache (no model call) and searches correctly, or says exactly what to do;
nothing is reported "unchanged" that is not, and nothing crashes."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from attacks.tally import Tally
from toolex.errors import ToolexError
from toolex.retrieval.index import DenseIndex
from toolex.retrieval.index_files import lance_dir, read_sidecar
from toolex.retrieval.texts import load_library


def _index(store, embedder) -> DenseIndex:
    return DenseIndex(store, embedder, load_library(store, "b"))


def _search(index: DenseIndex, embedder) -> list[list[str]]:
    queries = embedder.embed(["weather in Paris", "translate text", "rain tomorrow"])
    hits = index.search(np.asarray(queries), "benchmark", None, 6, 3).to_pylist()
    return [[h["item_id"] for h in hits if h["query_index"] == q] for q in range(3)]


def _data_files(index: DenseIndex) -> list[Path]:
    return sorted((index.table_dir / "data").glob("*"))


def _sidecar(index: DenseIndex) -> Path:
    return index.folder / f"{index.name}.toolex.json"


def _cut(path: Path) -> None:
    with path.open("r+b") as fh:
        fh.truncate(path.stat().st_size // 2)


DAMAGE: dict[str, Callable[[DenseIndex], None]] = {
    "sidecar cut in half": lambda ix: _cut(_sidecar(ix)),
    "sidecar emptied": lambda ix: _sidecar(ix).write_bytes(b""),
    "sidecar of random bytes": lambda ix: _sidecar(ix).write_bytes(random.randbytes(300)),
    "sidecar a JSON list": lambda ix: _sidecar(ix).write_text("[1, 2]"),
    "sidecar deleted": lambda ix: _sidecar(ix).unlink(),
    "data file deleted": lambda ix: _data_files(ix)[0].unlink(),
    "data file cut in half": lambda ix: _cut(_data_files(ix)[0]),
    "data file of random bytes": lambda ix: _data_files(ix)[0].write_bytes(random.randbytes(999)),
    "manifests deleted": lambda ix: shutil.rmtree(ix.table_dir / "_versions"),
    "table folder deleted": lambda ix: shutil.rmtree(ix.table_dir),
    "table folder replaced by a file": lambda ix: (
        shutil.rmtree(ix.table_dir),
        ix.table_dir.write_text("x"),
    ),
}


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_a_damaged_index_is_rebuilt_from_the_cache(lib_store, hash_embedder, kind):
    tally = Tally("damaged vector indexes")
    first = _index(lib_store, hash_embedder)
    first.build()
    expected = _search(first, hash_embedder)
    DAMAGE[kind](first)
    calls = hash_embedder.calls
    try:
        again = _index(lib_store, hash_embedder)
        info = again.build()
        got = _search(again, hash_embedder)
    except ToolexError as exc:
        tally.record(kind, "clean error")
        assert "toolex index" in str(exc) or "delete" in str(exc), str(exc)
    except Exception as exc:  # noqa: BLE001
        tally.record(f"{kind}: {type(exc).__name__}: {exc}", "traceback")
    else:
        tally.record(kind, "correct result" if got == expected and info.rebuilt else "traceback")
        assert info.rebuilt, f"{kind}: reported unchanged"
        assert got == expected
        assert hash_embedder.calls == calls + 1  # the queries only: the library came cached
        assert read_sidecar(_sidecar(again)).get("files")
    tally.check()


def test_damage_met_mid_search_is_a_message(lib_store, hash_embedder):
    index = _index(lib_store, hash_embedder)
    index.build()
    for f in _data_files(index):
        f.unlink()
    with pytest.raises(ToolexError, match="damaged.*run the command again"):
        _search(index, hash_embedder)
    again = _index(lib_store, hash_embedder)  # the next command rebuilds it
    assert again.build().rebuilt


def test_a_file_named_like_the_index_folder_is_a_clear_error(lib_store, hash_embedder):
    folder = lance_dir(lib_store)
    folder.write_text("not a folder")
    with pytest.raises(ToolexError, match="is a file.*move the file away"):
        _index(lib_store, hash_embedder)


def test_the_sidecar_is_replaced_whole(lib_store, hash_embedder, monkeypatch):
    """A crash while writing the sidecar leaves the old one (or none), never half a file."""
    import os

    index = _index(lib_store, hash_embedder)
    index.build()
    sidecar = _sidecar(index)
    before = sidecar.read_bytes()

    def crash(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    lib_store.con.execute("UPDATE items SET text = 'name: x' WHERE item_id = 'w1'")
    with pytest.raises(OSError):
        _index(lib_store, hash_embedder).build()
    assert not sidecar.exists() or sidecar.read_bytes() == before
    assert not [p for p in sidecar.parent.iterdir() if p.name.startswith(f".{sidecar.name}")]
