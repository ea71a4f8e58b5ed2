"""The hostile input files of tests/attacks/test_inputs.py, by family: what every loader meets
(deep nesting, NaN and Infinity, numbers beyond 32 bits or a float, digit look-alikes,
non-string fields, broken UTF-8, truncated and misshapen JSON, folders and symlink loops where
files go, files with nothing to load). Each ``Case`` says whether the input is valid after all
and how to feed it to a store. What is imported into a loaded benchmark (runs, docs,
expansions) is in hostile_imports.py."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from attacks.conftest import PLAIN
from toolex.loaders import load_beir, load_plain, load_stabletoolbench, load_toolret
from toolex.loaders.result import LoadResult
from toolex.store import Store


def deep(n: int) -> str:
    return "[" * n + "]" * n


NUMBER_TRAPS = {  # JSON text of a relevance/slot value -> loads?
    '"\u00b2"': False,
    '"--1"': False,
    '"1_000"': False,
    '"\uff11"': False,  # fullwidth one
    '"1 2"': False,
    '"0x10"': False,
    '""': False,
    "2147483648": False,
    "-2147483649": False,
    "1e12": False,
    str(10**30): False,
    '"99999999999"': False,
    "1.5": False,
    "true": False,
    "[1]": False,
    '"7"': True,
    "2.0": True,
    "3": True,
}
DOC_TRAPS = {  # JSON text of a documentation value -> loads?
    "deep 150": (f'{{"name": "a", "x": {deep(150)}}}', False),
    "deep 5000": (f'{{"name": "a", "x": {deep(5000)}}}', False),
    "NaN": ('{"name": "a", "x": NaN}', False),
    "Infinity": ('{"name": "a", "x": -Infinity}', False),
    "1e999": ('{"name": "a", "x": 1e999}', False),
    "5000 digits": ('{"name": "a", "x": ' + "7" * 5000 + "}", False),
    "a JSON string of deep JSON": (json.dumps('{"x": ' + deep(3000) + "}"), False),
    "a list": ('["a"]', False),
    "a number": ("5", False),
    "empty object": ("{}", False),
    "nesting 40 deep": ('{"name": "a", "x": ' + deep(40) + "}", True),
}
FILE_TRAPS = {  # whole-file text -> loads? (a JSON array of records is expected)
    "empty file": ("", False),
    "only [": ("[", False),
    "unterminated string": ('[{"id": "t1', False),
    "trailing garbage": ('[{"id": "t1", "documentation": {"name": "a"}}] xyz', False),
    "elements not objects": ("[1, 2]", False),
    "top-level string": ('"tools"', False),
    "top-level null": ("null", False),
    "deep array": (deep(200000), False),
    "BOM then array": ('\ufeff[{"id": "t1", "documentation": {"name": "a"}}]', True),
}


@dataclass
class Case:
    family: str
    name: str
    valid: bool
    run: Callable[[Store, Path], object]


def _toolret(tmp: Path, tools: str, queries: str | None = None, suffix: str = ".json") -> Path:
    task = tmp / "toolret" / "apibank"
    task.mkdir(parents=True, exist_ok=True)
    (task / f"tools{suffix}").write_text(tools, encoding="utf-8")
    default_q = '[{"id": "q1", "query": "find a", "labels": [{"id": "t1"}]}]'
    (task / "queries.json").write_text(queries or default_q, encoding="utf-8")
    return task.parent


def toolret_cases() -> Iterator[Case]:
    def load(
        tools: str, queries: str | None = None, suffix: str = ".json"
    ) -> Callable[[Store, Path], LoadResult]:
        def run(store: Store, tmp: Path) -> LoadResult:
            root = _toolret(tmp, tools, queries, suffix)
            return load_toolret(store, root, name="plain", replace=True)

        return run

    for name, (doc, ok) in DOC_TRAPS.items():
        tools = f'[{{"id": "t1", "documentation": {doc}}}]'
        yield Case("toolret", f"documentation: {name}", ok, load(tools))
        line = f'{{"id": "t1", "documentation": {doc}}}\n'
        yield Case("toolret", f"documentation (jsonl): {name}", ok, load(line, suffix=".jsonl"))
    for name, (text, ok) in FILE_TRAPS.items():
        yield Case("toolret", f"tools.json: {name}", ok, load(text))
    tools = '[{"id": "t1", "documentation": {"name": "a"}}]'
    for value, ok in NUMBER_TRAPS.items():
        q = f'[{{"id": "q1", "query": "find a", "labels": [{{"id": "t1", "relevance": {value}}}]}}]'
        yield Case("toolret", f"relevance {value}", ok, load(tools, q))
    for labels, ok in {
        json.dumps(deep(3000)): False,
        '"[{\\"id\\": \\"t1\\"}]"': True,
        '"not json"': False,
        "[]": False,
        '[{"id": ["t1"]}]': False,
        '[{"id": null}]': False,
    }.items():
        q = f'[{{"id": "q1", "query": "find a", "labels": {labels}}}]'
        yield Case("toolret", f"labels {labels[:30]}", ok, load(tools, q))


def _stb(tmp: Path, records: str, ids: Callable[[Path], object] | None = None) -> Path:
    root = tmp / "stb"
    (root / "test_instruction").mkdir(parents=True, exist_ok=True)
    (root / "test_instruction" / "G1_instruction.json").write_text(records, encoding="utf-8")
    if ids:
        (root / "test_query_ids").mkdir(exist_ok=True)
        ids(root / "test_query_ids" / "G1_instruction.json")
    return root


def stb_cases() -> Iterator[Case]:
    def record(api_name: str = '"get"', tool: str = '"weather"', rel: str | None = None) -> str:
        rel = rel or f"[[{tool}, {api_name}]]"
        return (
            f'[{{"query_id": 1, "query": "forecast please", "api_list": [{{"tool_name": {tool}, '
            f'"api_name": {api_name}, "api_description": "daily"}}], "relevant APIs": {rel}}}]'
        )

    def load(
        records: str, ids: Callable[[Path], object] | None = None
    ) -> Callable[[Store, Path], LoadResult]:
        def run(store: Store, tmp: Path) -> LoadResult:
            return load_stabletoolbench(store, _stb(tmp, records, ids), name="plain", replace=True)

        return run

    for api_name, ok in {
        "7": True,  # a number is kept as its text
        "[1]": False,
        '{"a": 1}': False,
        "null": False,
        "true": False,
        '""': False,
        "1e999": False,
    }.items():
        rel = '[["weather", "7"]]' if api_name == "7" else None
        yield Case("stabletoolbench", f"api_name {api_name}", ok, load(record(api_name, rel=rel)))
    yield Case("stabletoolbench", "tool_name a list", False, load(record(tool="[1]")))
    yield Case("stabletoolbench", "relevant APIs of numbers", False, load(record(rel="[[1, 2]]")))

    def loop(p: Path) -> None:
        os.symlink(p, p)

    def dangling(p: Path) -> None:
        os.symlink(p.parent / "nowhere.json", p)

    for name, make in {
        "a folder": lambda p: p.mkdir(),
        "a symlink loop": loop,
        "a dangling symlink": dangling,
        "a number": lambda p: p.write_text("5"),
        "deep JSON": lambda p: p.write_text(deep(5000)),
        "not UTF-8": lambda p: p.write_bytes(b'{"1": 0, "\xff": 0}'),
    }.items():
        yield Case("stabletoolbench", f"test_query_ids is {name}", False, load(record(), make))
    yield Case(
        "stabletoolbench", "test_query_ids keeps the query", True,
        load(record(), lambda p: p.write_text('{"1": 0}')),
    )  # fmt: skip


def _beir(tmp: Path, corpus: str, queries: str, qrels: str) -> Path:
    root = tmp / "beir"
    (root / "qrels").mkdir(parents=True, exist_ok=True)
    (root / "corpus.jsonl").write_text(corpus, encoding="utf-8", errors="surrogateescape")
    (root / "queries.jsonl").write_text(queries, encoding="utf-8")
    (root / "qrels" / "test.tsv").write_text(qrels, encoding="utf-8")
    return root


def beir_cases() -> Iterator[Case]:
    corpus = '{"_id": "d1", "title": "weather", "text": "daily forecast"}\n'
    queries = '{"_id": "q1", "text": "forecast please"}\n'

    def load(
        c: str = corpus, q: str = queries, score: str = "1"
    ) -> Callable[[Store, Path], LoadResult]:
        def run(store: Store, tmp: Path) -> LoadResult:
            qrels = f"query-id\tcorpus-id\tscore\nq1\td1\t{score}\n"
            return load_beir(store, _beir(tmp, c, q, qrels), name="plain", replace=True)

        return run

    for score, ok in {
        "inf": False,
        "-inf": False,
        "nan": False,
        "Infinity": False,
        "1e12": False,
        "1e999": False,
        "1_000": False,
        "99999999999": False,
        "0x10": False,
        "\uff11": False,
        "": False,
        "2.0": True,
        "1e0": True,
        "3": True,
    }.items():
        yield Case("beir", f"score {score!r}", ok, load(score=score))
    for meta, ok in {
        '{"task": 5}': True,
        '{"task": ["a"]}': True,  # not a string: ignored, as the loader documents
        '{"task": {"a": 1}, "category": true}': True,
        '{"instruction": 1.5}': True,
        '"metadata as a string"': True,
    }.items():
        q = f'{{"_id": "q1", "text": "forecast please", "metadata": {meta}}}\n'
        yield Case("beir", f"query metadata {meta}", ok, load(q=q))
        c = f'{{"_id": "d1", "title": "weather", "text": "daily", "metadata": {meta}}}\n'
        yield Case("beir", f"corpus metadata {meta}", ok, load(c=c))
    unparseable = {"deep 150", "deep 5000", "NaN", "Infinity", "1e999", "5000 digits"}
    for name, (doc, _) in DOC_TRAPS.items():  # any value is a valid extra field, if it parses
        c = '{"_id": "d1", "title": "weather", "text": "daily", "extra": ' + doc + "}\n"
        yield Case("beir", f"corpus field: {name}", name not in unparseable, load(c=c))
    yield Case("beir", "title a number", True, load(c='{"_id": "d1", "title": 5, "text": "x"}\n'))
    yield Case("beir", "corpus not UTF-8", False, load(c='{"_id": "d1", "text": "caf\udcff"}\n'))


def plain_cases() -> Iterator[Case]:
    def load(
        items: str, queries: str, qrels: str, suffix: str = ".jsonl"
    ) -> Callable[[Store, Path], LoadResult]:
        def run(store: Store, tmp: Path) -> LoadResult:
            paths = []
            for name, text in (("items", items), ("queries", queries), ("qrels", qrels)):
                path = tmp / f"{name}{suffix}"
                path.write_text(text, encoding="utf-8", errors="surrogateescape")
                paths.append(path)
            return load_plain(store, *paths, name="plain", replace=True)

        return run

    items = (PLAIN / "items.jsonl").read_text()
    queries = (PLAIN / "queries.jsonl").read_text()
    qrels = (PLAIN / "qrels.jsonl").read_text()
    yield Case("plain", "zero labels (empty qrels file)", False, load(items, queries, ""))
    yield Case("plain", "zero queries", False, load(items, "", qrels))
    yield Case("plain", "zero items", False, load("", queries, qrels))
    first_q = json.loads(queries.splitlines()[0])["id"]
    first_i = json.loads(items.splitlines()[0])["id"]
    for value, ok in {**NUMBER_TRAPS, '"0"': True, "0.0": True, "0": True}.items():
        for field in ("slot", "relevance"):
            # the query's one label fills slot 0 alone: a valid number past it is out of range
            ok_here = ok and (field != "slot" or value in ('"0"', "0.0", "0"))
            rec = f'{{"query_id": "{first_q}", "item_id": "{first_i}", "{field}": {value}}}\n'
            yield Case("plain", f"{field} {value}", ok_here, load(items, queries, rec))
    for name, (doc, ok) in DOC_TRAPS.items():
        rec = f'{{"id": "{first_i}", "doc": {doc}}}\n' + "\n".join(items.splitlines()[1:])
        yield Case("plain", f"doc: {name}", ok, load(rec, queries, qrels))

    def array(text: str) -> str:
        return json.dumps([json.loads(x) for x in text.splitlines() if x.strip()])

    for name, (text, ok) in FILE_TRAPS.items():
        if "BOM" in name:
            text = "\ufeff" + array(items)
        yield Case(
            "plain", f"items.json: {name}", ok, load(text, array(queries), array(qrels), ".json")
        )
    bad = items + '{"id": "x", "text": "\udcff"}\n'
    yield Case("plain", "items not UTF-8", False, load(bad, queries, qrels))


FAMILIES = {
    "toolret": toolret_cases,
    "stabletoolbench": stb_cases,
    "beir": beir_cases,
    "plain": plain_cases,
}
