"""A malformed copy of each real format fails with file, line/record and field — and the store,
already holding that benchmark, is unchanged (table counts and the benchmarks row).

Every broken load uses the same benchmark name with ``replace=True``: the strictest case, since
a half-done swap would delete the stored benchmark.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from loaders.conftest import store_state
from toolex.errors import InputError
from toolex.loaders import load_beir, load_plain, load_stabletoolbench, load_toolret
from toolex.store import Store

DATA = Path(__file__).resolve().parents[1] / "data"


# what a mutation returns: (file, line, record, field, the message's start)
Case = tuple[Path, int, str | None, str | None, str]
Mutate = Callable[[Path], Case]
# a BEIR or plain case: (file name, line, the new line, record, field, the message's start)
CopyCase = tuple[str, int, str, str | None, str | None, str]


def _line_of(text: str, needle: str, delta: int = 0) -> int:
    return text[: text.index(needle)].count("\n") + 1 + delta


def _dump(path: Path, value: object) -> str:
    text = json.dumps(value, indent=1, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    return text


@pytest.fixture(scope="module")
def world(
    shared_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Store, dict[str, object]]]:
    """A store holding real apibank, real G3_instruction, the BEIR and plain fixtures."""
    root = tmp_path_factory.mktemp("world")
    store = Store.open(root / "w.duckdb")
    load_toolret(store, shared_data / "toolret", tasks=["apibank"])
    load_stabletoolbench(store, shared_data / "stabletoolbench", groups=["G3_instruction"])
    load_beir(store, DATA / "beir")
    p = DATA / "plain"
    load_plain(store, p / "items.jsonl", p / "queries.jsonl", p / "qrels.jsonl", name="plain")
    yield store, store_state(store)
    store.close()


# -- ToolRet (a copy of the real apibank task) -------------------------------------------------


def _toolret_copy(shared_data: Path, tmp: Path) -> Path:
    dst = tmp / "toolret" / "apibank"
    shutil.copytree(shared_data / "toolret" / "apibank", dst)
    return dst


def toolret_malformed(d: Path) -> tuple[Path, int, None, None, str]:
    f = d / "queries.json"
    text = f.read_text(encoding="utf-8")
    f.write_text(
        text.replace('"id": "apibank_query_5"', '"id" "apibank_query_5"'), encoding="utf-8"
    )
    return (
        f,
        _line_of(text, '"id": "apibank_query_5"'),
        None,
        None,
        r"malformed JSON at line \d+, column 14",
    )  # 8 spaces, "id", a space: the stray quote


def toolret_missing(d: Path) -> tuple[Path, int, str, str, str]:
    f = d / "queries.json"
    recs = json.loads(f.read_text(encoding="utf-8"))
    del recs[7]["query"]
    text = _dump(f, recs)
    return (
        f,
        _line_of(text, '"id": "apibank_query_7"', -1),
        "apibank_query_7",
        "query",
        "missing required field",
    )


def toolret_duplicate(d: Path) -> tuple[Path, int, str, str, str]:
    f = d / "tools.json"
    recs = json.loads(f.read_text(encoding="utf-8"))
    recs[5]["id"] = "apibank_tool_4"
    text = _dump(f, recs)
    line = _line_of(text[text.index('"id": "apibank_tool_4"') + 5 :], '"id": "apibank_tool_4"', -1)
    line += _line_of(text, '"id": "apibank_tool_4"') - 1
    return f, line, "apibank_tool_4", "id", "duplicate item id 'apibank_tool_4'"


def toolret_dangling(d: Path) -> tuple[Path, int, str, str, str]:
    f = d / "queries.json"
    recs = json.loads(f.read_text(encoding="utf-8"))
    recs[3]["labels"][0]["id"] = "apibank_tool_999"
    text = _dump(f, recs)
    return (
        f,
        _line_of(text, '"id": "apibank_query_3"', -1),
        "apibank_query_3",
        "labels",
        "qrel names no item: 'apibank_tool_999'",
    )


def toolret_empty(d: Path) -> tuple[Path, int, str, str, str]:
    f = d / "queries.json"
    recs = json.loads(f.read_text(encoding="utf-8"))
    recs[2]["query"] = "   "
    text = _dump(f, recs)
    return (
        f,
        _line_of(text, '"id": "apibank_query_2"', -1),
        "apibank_query_2",
        "query",
        "empty text",
    )


def _bad_byte(f: Path, needle: bytes) -> tuple[Path, int, None, None, str]:
    data = f.read_bytes()
    pos = data.index(needle)
    f.write_bytes(data[:pos] + b"\xff" + data[pos:])
    return (
        f,
        data.count(b"\n", 0, pos) + 1,
        None,
        None,
        f"not UTF-8: byte 0xff at byte offset {pos}",
    )


def toolret_encoding(d: Path) -> Case:
    return _bad_byte(d / "tools.json", b"GetUserToken")


@pytest.mark.parametrize(
    "mutate",
    [
        toolret_malformed,
        toolret_missing,
        toolret_duplicate,
        toolret_dangling,
        toolret_empty,
        toolret_encoding,
    ],
)
def test_toolret_malformed_copy(
    world: tuple[Store, dict[str, object]], shared_data: Path, tmp_path: Path, mutate: Mutate
) -> None:
    store, before = world
    folder = _toolret_copy(shared_data, tmp_path)
    path, line, record, field, message = mutate(folder)
    with pytest.raises(InputError) as exc:
        load_toolret(store, folder.parent, replace=True)
    _check(exc.value, path, line, record, field, message)
    assert store_state(store) == before


# -- StableToolBench (a copy of the real G3_instruction group) --------------------------------


def _stb_copy(shared_data: Path, tmp: Path) -> Path:
    dst = tmp / "stb" / "test_instruction"
    dst.mkdir(parents=True)
    shutil.copy(shared_data / "stabletoolbench/test_instruction/G3_instruction.json", dst)
    return dst / "G3_instruction.json"


def _stb_edit(f: Path, edit: Callable[[list[dict[str, Any]]], object]) -> tuple[str, object]:
    recs = json.loads(f.read_text(encoding="utf-8"))
    qid = edit(recs)
    text = _dump(f, recs)
    return text, qid


def stb_malformed(f: Path) -> tuple[Path, int, None, None, str]:
    text = f.read_text(encoding="utf-8")
    f.write_text(text.replace('"query_id": ', '"query_id" ', 1), encoding="utf-8")
    return f, _line_of(text, '"query_id": '), None, None, "malformed JSON at line"


def stb_missing(f: Path) -> tuple[Path, Any, str, str, str]:
    def edit(recs: list[dict[str, Any]]) -> object:
        del recs[2]["query"]
        return recs[2]["query_id"]

    text, qid = _stb_edit(f, edit)
    line = text[: text.index(f'"query_id": {qid}')].rindex("\n {")
    return (
        f,
        text[:line].count("\n") + 2,
        f"G3_instruction:{qid}",
        "query",
        "missing required field",
    )


def stb_duplicate(f: Path) -> tuple[Path, Any, str, str, str]:
    def edit(recs: list[dict[str, Any]]) -> object:
        recs[4]["query_id"] = recs[3]["query_id"]
        return recs[3]["query_id"]

    text, qid = _stb_edit(f, edit)
    second = text.index(f'"query_id": {qid}', text.index(f'"query_id": {qid}') + 1)
    line = text[:second].rindex("\n {")
    return f, text[:line].count("\n") + 2, f"G3_instruction:{qid}", "id", "duplicate query id"


def stb_dangling(f: Path) -> tuple[Path, Any, str, str, str]:
    def edit(recs: list[dict[str, Any]]) -> object:
        recs[1]["relevant APIs"][0] = ["NoTool", "nope"]
        return recs[1]["query_id"]

    text, qid = _stb_edit(f, edit)
    line = text[: text.index(f'"query_id": {qid}')].rindex("\n {")
    return (
        f,
        text[:line].count("\n") + 2,
        f"G3_instruction:{qid}",
        "relevant APIs",
        "qrel names no item: 'NoTool::nope'",
    )


def stb_empty(f: Path) -> tuple[Path, int, str, str, str]:
    def edit(recs: list[dict[str, Any]]) -> object:
        recs[0]["query"] = ""
        return recs[0]["query_id"]

    _, qid = _stb_edit(f, edit)
    return f, 2, f"G3_instruction:{qid}", "query", "empty text"


def stb_encoding(f: Path) -> Case:
    return _bad_byte(f, b'"query":')


@pytest.mark.parametrize(
    "mutate", [stb_malformed, stb_missing, stb_duplicate, stb_dangling, stb_empty, stb_encoding]
)
def test_stabletoolbench_malformed_copy(
    world: tuple[Store, dict[str, object]], shared_data: Path, tmp_path: Path, mutate: Mutate
) -> None:
    store, before = world
    f = _stb_copy(shared_data, tmp_path)
    path, line, record, field, message = mutate(f)
    with pytest.raises(InputError) as exc:
        load_stabletoolbench(store, f.parent.parent, replace=True)
    _check(exc.value, path, line, record, field, message)
    assert store_state(store) == before


# -- BEIR and plain (copies of the committed fixtures) ----------------------------------------


def _lines_edit(f: Path, lineno: int, new: str | None) -> None:
    lines = f.read_text(encoding="utf-8").split("\n")
    lines[lineno - 1] = new if new is not None else lines[lineno - 1]
    f.write_text("\n".join(lines), encoding="utf-8")


BEIR_CASES = [
    (
        "corpus.jsonl",
        2,
        '{"_id": "t2", "title": "forecast" "text": "x"}',
        None,
        None,
        "malformed JSON line",
    ),
    (
        "corpus.jsonl",
        3,
        '{"title": "convert_currency", "text": "Convert."}',
        None,
        "_id",
        "missing required field",
    ),
    (
        "corpus.jsonl",
        3,
        '{"_id": "t1", "title": "again", "text": "dup"}',
        "t1",
        "id",
        "duplicate item id 't1'",
    ),
    ("qrels/test.tsv", 3, "q1\tt9\t1", "q1", "corpus-id", "qrel names no item: 't9'"),
    ("queries.jsonl", 2, '{"_id": "q2", "text": " "}', "q2", "text", "empty text"),
]


@pytest.mark.parametrize("case", BEIR_CASES, ids=[c[-1] for c in BEIR_CASES])
def test_beir_malformed_copy(
    world: tuple[Store, dict[str, object]], tmp_path: Path, case: CopyCase
) -> None:
    store, before = world
    name, line, new, record, field, message = case
    root = tmp_path / "beir"
    shutil.copytree(DATA / "beir", root)
    _lines_edit(root / name, line, new)
    with pytest.raises(InputError) as exc:
        load_beir(store, root, name="beir", replace=True)
    _check(exc.value, root / name, line, record, field, message)
    assert store_state(store) == before


def test_beir_encoding(world: tuple[Store, dict[str, object]], tmp_path: Path) -> None:
    store, before = world
    root = tmp_path / "beir"
    shutil.copytree(DATA / "beir", root)
    path, line, record, field, message = _bad_byte(root / "queries.jsonl", b"Paris")
    with pytest.raises(InputError) as exc:
        load_beir(store, root, name="beir", replace=True)
    _check(exc.value, path, line, record, field, message)
    assert store_state(store) == before


PLAIN_CASES = [
    ("items.jsonl", 1, '{"id": "pdf-merge", "text": "Merge"', None, None, "malformed JSON line"),
    ("queries.jsonl", 2, '{"id": "s2"}', "s2", "text", "missing required field"),
    ("items.jsonl", 3, '{"id": "pdf-merge", "text": "x"}', "pdf-merge", "id", "duplicate item id"),
    (
        "qrels.jsonl",
        3,
        '{"query_id": "s2", "item_id": "nope"}',
        "s2",
        "item_id",
        "qrel names no item: 'nope'",
    ),
    ("items.jsonl", 3, '{"id": "img-resize", "text": ""}', "img-resize", "text", "empty text"),
]


@pytest.mark.parametrize("case", PLAIN_CASES, ids=[c[-1] for c in PLAIN_CASES])
def test_plain_malformed_copy(
    world: tuple[Store, dict[str, object]], tmp_path: Path, case: CopyCase
) -> None:
    store, before = world
    name, line, new, record, field, message = case
    root = tmp_path / "plain"
    shutil.copytree(DATA / "plain", root)
    _lines_edit(root / name, line, new)
    with pytest.raises(InputError) as exc:
        load_plain(
            store,
            root / "items.jsonl",
            root / "queries.jsonl",
            root / "qrels.jsonl",
            name="plain",
            replace=True,
        )
    _check(exc.value, root / name, line, record, field, message)
    assert store_state(store) == before


def test_plain_encoding(world: tuple[Store, dict[str, object]], tmp_path: Path) -> None:
    store, before = world
    root = tmp_path / "plain"
    shutil.copytree(DATA / "plain", root)
    path, line, record, field, message = _bad_byte(root / "qrels.jsonl", b"img-resize")
    with pytest.raises(InputError) as exc:
        load_plain(
            store,
            root / "items.jsonl",
            root / "queries.jsonl",
            root / "qrels.jsonl",
            name="plain",
            replace=True,
        )
    _check(exc.value, path, line, record, field, message)
    assert store_state(store) == before


def _check(
    err: InputError, path: Path, line: int, record: str | None, field: str | None, message: str
) -> None:
    import re

    assert err.path == str(path)
    assert err.line == line
    assert err.record == record
    assert err.field == field
    assert re.search(message, str(err)), str(err)
