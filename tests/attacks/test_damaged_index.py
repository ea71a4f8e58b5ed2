"""Damaged vector indexes: a truncated, garbage or misshapen sidecar, missing or cut Lance data
files, a missing manifest, a file where the index folder goes, and same-size damage: one byte
flipped in a data file, a manifest or an approximate index (issue 27, point 6: sizes alone let 9
of 10 through). The index notices, rebuilds from the embedding cache (no model call) and
searches correctly, or says exactly what to do; nothing is reported "unchanged" that is not,
damage met mid-search is rebuilt there and then, and nothing crashes."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from retrieval.conftest import HashEmbedder

from attacks.tally import Tally
from toolex.errors import ToolexError
from toolex.retrieval.index import DenseIndex
from toolex.retrieval.index_files import lance_dir, read_sidecar
from toolex.retrieval.texts import load_library
from toolex.store import Store


def _index(store: Store, embedder: HashEmbedder) -> DenseIndex:
    return DenseIndex(store, embedder, load_library(store, "b"))


def _search(index: DenseIndex, embedder: HashEmbedder) -> list[list[str]]:
    queries = embedder.embed(["weather in Paris", "translate text", "rain tomorrow"])
    hits = index.search(np.asarray(queries), "benchmark", None, 6, 3).to_pylist()
    return [[h["item_id"] for h in hits if h["query_index"] == q] for q in range(3)]


def _data_files(index: DenseIndex) -> list[Path]:
    return sorted((index.table_dir / "data").glob("*"))


def _sidecar(index: DenseIndex) -> Path:
    return index.folder / f"{index.name}.toolex.json"


def _flip(path: Path, seed: int) -> None:
    """One byte inverted at a seeded position: the file keeps its size."""
    at = random.Random(seed).randrange(path.stat().st_size)
    with path.open("r+b") as fh:
        fh.seek(at)
        byte = fh.read(1)[0]
        fh.seek(at)
        fh.write(bytes([byte ^ 0xFF]))


def _manifest(index: DenseIndex) -> Path:
    [path] = (index.table_dir / "_versions").glob("*.manifest")  # old versions are deleted
    return path


def _cut(path: Path) -> None:
    with path.open("r+b") as fh:
        fh.truncate(path.stat().st_size // 2)


def _replace_by_file(ix: DenseIndex) -> None:
    shutil.rmtree(ix.table_dir)
    ix.table_dir.write_text("x")


def _data_flipped(n: int) -> Callable[[DenseIndex], None]:
    return lambda ix: _flip(_data_files(ix)[0], n)


def _manifest_flipped(n: int) -> Callable[[DenseIndex], None]:
    return lambda ix: _flip(_manifest(ix), n)


# what each damage returns (bytes written, say) is ignored
DAMAGE: dict[str, Callable[[DenseIndex], object]] = {
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
    "table folder replaced by a file": _replace_by_file,
}


DAMAGE |= {f"data file byte flipped (seed {n})": _data_flipped(n) for n in range(12)}
DAMAGE |= {f"manifest byte flipped (seed {n})": _manifest_flipped(n) for n in range(3)}


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_a_damaged_index_is_rebuilt_from_the_cache(
    lib_store: Store, hash_embedder: HashEmbedder, kind: str
) -> None:
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


def test_damage_met_mid_search_is_rebuilt_there_and_then(
    lib_store: Store, hash_embedder: HashEmbedder
) -> None:
    """Files removed after the check: the search that meets it rewrites the table from the
    cache and searches again (it used to say "run the command again", which failed again)."""
    index = _index(lib_store, hash_embedder)
    index.build()
    expected = _search(index, hash_embedder)
    for f in _data_files(index):
        f.unlink()
    calls = hash_embedder.calls
    assert _search(index, hash_embedder) == expected
    assert index.info is not None and index.info.rebuilt
    assert hash_embedder.calls == calls + 1  # the queries only: the library came cached
    assert not _index(lib_store, hash_embedder).build().rebuilt  # and it stays whole


def test_a_table_that_fails_again_once_rewritten_says_which_folder_to_delete(
    lib_store: Store, hash_embedder: HashEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    import toolex.retrieval.index as index_mod

    index = _index(lib_store, hash_embedder)
    index.build()

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("LanceError(IO): unexpected end of file")

    monkeypatch.setattr(index_mod, "vector_search", broken)
    with pytest.raises(ToolexError, match="again once rewritten.*delete that folder"):
        _search(index, hash_embedder)


@pytest.fixture
def ann_index(
    store: Store, hash_embedder: HashEmbedder, monkeypatch: pytest.MonkeyPatch
) -> DenseIndex:
    """600 items above a lowered threshold: the table gets an approximate index."""
    import pyarrow as pa

    import toolex.retrieval.index as index_mod

    monkeypatch.setattr(index_mod, "ANN_THRESHOLD", 100)
    rng = np.random.default_rng(0)
    words = ["weather", "paris", "translate", "text", "rain", "tomorrow", *map(str, range(50))]
    texts = [" ".join(rng.choice(words, 6)) for _ in range(600)]
    items = pa.table({"item_id": [f"i{i:03d}" for i in range(600)], "text": texts})
    with store.registered("new_items", items):
        store.con.execute(
            "INSERT INTO items (benchmark, item_id, doc, text) "
            "SELECT 'b', item_id, '{}', text FROM new_items"
        )
    return _index(store, hash_embedder)


@pytest.mark.parametrize("seed", range(5))
def test_a_flipped_byte_in_the_approximate_index_is_noticed(
    ann_index: DenseIndex, hash_embedder: HashEmbedder, seed: int
) -> None:
    tally = Tally("damaged vector indexes")
    assert ann_index.build().ann
    expected = _search(ann_index, hash_embedder)
    files = sorted(p for p in (ann_index.table_dir / "_indices").rglob("*") if p.is_file())
    _flip(files[seed % len(files)], seed)
    again = _index(ann_index.store, hash_embedder)
    info = again.build()
    got = _search(again, hash_embedder)
    tally.record(
        f"index byte flipped (seed {seed})", "correct result" if info.rebuilt else "traceback"
    )
    assert info.rebuilt and got == expected
    tally.check()


def test_a_sidecar_of_sizes_alone_is_rebuilt_once_and_the_folder_keeps_one_copy(
    lib_store: Store, hash_embedder: HashEmbedder
) -> None:
    from toolex.retrieval.index_files import write_sidecar

    index = _index(lib_store, hash_embedder)
    index.build()
    meta = read_sidecar(_sidecar(index))
    meta["files"] = {rel: v["size"] for rel, v in meta["files"].items()}  # as before issue 27
    write_sidecar(_sidecar(index), meta)
    assert _index(lib_store, hash_embedder).build().rebuilt
    assert not _index(lib_store, hash_embedder).build().rebuilt
    assert len(_data_files(index)) == 1  # two writes, one copy: old versions were deleted


def test_a_file_named_like_the_index_folder_is_a_clear_error(
    lib_store: Store, hash_embedder: HashEmbedder
) -> None:
    folder = lance_dir(lib_store)
    folder.write_text("not a folder")
    with pytest.raises(ToolexError, match="is a file.*move the file away"):
        _index(lib_store, hash_embedder)


def test_the_sidecar_is_replaced_whole(
    lib_store: Store, hash_embedder: HashEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash while writing the sidecar leaves the old one (or none), never half a file."""
    import os

    index = _index(lib_store, hash_embedder)
    index.build()
    sidecar = _sidecar(index)
    before = sidecar.read_bytes()

    def crash(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    lib_store.con.execute("UPDATE items SET text = 'name: x' WHERE item_id = 'w1'")
    with pytest.raises(OSError):
        _index(lib_store, hash_embedder).build()
    assert not sidecar.exists() or sidecar.read_bytes() == before
    assert not [p for p in sidecar.parent.iterdir() if p.name.startswith(f".{sidecar.name}")]
