"""Hostile labels and ids (issue 27.2), by family, for tests/attacks/test_inputs.py: inputs that
loaded before and then gave a failing `check` or a wrong number. Each class is refused with file,
line and field, or loads by a documented rule (``valid``):

* ids: a newline, tab, NUL (JSON ``\\u0000``), carriage return, unit separator or line separator
  in an item or query id, in every loader (a literal ``%00`` or a space is a valid id);
* slots: a negative slot, a slot past the query's labels, a gap, a slot given twice (a repeated
  label in two slots merges, documented);
* sub-query runs: a slot below 0 or past the query's sub-queries;
* StableToolBench ids: two (tool_name, api_name) pairs joined by ``::`` into one id;
* BEIR scores: a fraction (1.5 was stored as 1, 0.4 skipped);
* combinations: fewer tools than slots, a slot out of range.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from attacks.conftest import PLAIN
from attacks.hostile_files import Case
from toolex.loaders import load_beir, load_plain, load_stabletoolbench, load_toolret
from toolex.loaders.trec_ids import trec_escape
from toolex.runs.imports import import_run
from toolex.store import Store

Run = Callable[[Store, Path], object]

BAD_IDS = {
    "newline": "a\nb",
    "tab": "a\tb",
    "NUL": "a\u0000b",
    "carriage return": "a\rb",
    "unit separator": "a\u001fb",
    "line separator": "a\u2028b",
    "DEL": "a\u007fb",
}
GOOD_IDS = {"a literal %00": "a%00b", "a space": "a b", "a leading space": " ab"}


def _jsonl(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def _plain(
    items: list[dict[str, Any]], queries: list[dict[str, Any]], qrels: list[dict[str, Any]]
) -> Run:
    def run(store: Store, tmp: Path) -> object:
        paths = []
        for name, rows in (("items", items), ("queries", queries), ("qrels", qrels)):
            paths.append(tmp / f"{name}.jsonl")
            paths[-1].write_text(_jsonl(rows), encoding="utf-8")
        return load_plain(store, *paths, name="plain", replace=True)

    return run


ITEMS = [{"id": "t1", "text": "merge PDFs"}, {"id": "t2", "text": "split PDFs"}]
QUERIES = [{"id": "q1", "text": "merge then split"}]


def id_cases() -> Iterator[Case]:
    for name, bad in {**BAD_IDS, **GOOD_IDS}.items():
        ok = name in GOOD_IDS
        items = [{"id": bad, "text": "merge PDFs"}, ITEMS[1]]
        qrels = [{"query_id": "q1", "item_id": bad}]
        yield Case("ids", f"plain item id: {name}", ok, _plain(items, QUERIES, qrels))
        queries = [{"id": bad, "text": "merge"}]
        qrels = [{"query_id": bad, "item_id": "t1"}]
        yield Case("ids", f"plain query id: {name}", ok, _plain(ITEMS, queries, qrels))
        yield Case("ids", f"toolret tool id: {name}", ok, _toolret(bad, "q1"))
        yield Case("ids", f"toolret query id: {name}", ok, _toolret("t1", bad))
        yield Case("ids", f"stabletoolbench tool_name: {name}", ok, _stb([(bad, "get")]))
        yield Case("ids", f"stabletoolbench api_name: {name}", ok, _stb([("weather", bad)]))
        yield Case("ids", f"beir corpus id: {name}", ok, _beir(doc=bad))
        yield Case("ids", f"beir query id: {name}", ok, _beir(query=bad))


def _toolret(tool_id: str, query_id: str) -> Run:
    def run(store: Store, tmp: Path) -> object:
        task = tmp / "toolret" / "apibank"
        task.mkdir(parents=True, exist_ok=True)
        tools = [{"id": tool_id, "documentation": {"name": "a", "description": "find a"}}]
        queries = [{"id": query_id, "query": "find a", "labels": [{"id": tool_id}]}]
        (task / "tools.json").write_text(json.dumps(tools), encoding="utf-8")
        (task / "queries.json").write_text(json.dumps(queries), encoding="utf-8")
        return load_toolret(store, task.parent, name="plain", replace=True)

    return run


def _stb(pairs: list[tuple[str, str]], relevant: list[tuple[str, str]] | None = None) -> Run:
    def run(store: Store, tmp: Path) -> object:
        folder = tmp / "stb" / "test_instruction"
        folder.mkdir(parents=True, exist_ok=True)
        apis = [{"tool_name": t, "api_name": a, "api_description": f"{a} of {t}"} for t, a in pairs]
        rel = [list(p) for p in (relevant or pairs[:1])]
        record = {"query_id": 1, "query": "do it", "api_list": apis, "relevant APIs": rel}
        (folder / "G1_instruction.json").write_text(json.dumps([record]), encoding="utf-8")
        return load_stabletoolbench(store, folder.parent, name="plain", replace=True)

    return run


def _beir(doc: str = "d1", query: str = "q1", scores: tuple[str, ...] = ("1",)) -> Run:
    def run(store: Store, tmp: Path) -> object:
        root = tmp / "beir"
        (root / "qrels").mkdir(parents=True, exist_ok=True)
        corpus = [{"_id": doc, "title": "merge", "text": "merge PDFs"},
                  {"_id": "d2", "title": "split", "text": "split PDFs"}]  # fmt: skip
        (root / "corpus.jsonl").write_text(_jsonl(corpus), encoding="utf-8")
        (root / "queries.jsonl").write_text(_jsonl([{"_id": query, "text": "merge"}]))
        # TREC qrels lines, ids escaped as `toolex export trec-qrels` writes them: a newline
        # reaches the loader as %0A, NUL as written
        lines = [f"{trec_escape(query)} 0 {trec_escape(d)} {s}"
                 for d, s in zip((doc, "d2"), scores, strict=False)]  # fmt: skip
        (root / "qrels" / "test.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
        return load_beir(store, root, name="plain", replace=True)

    return run


SLOT_CASES: list[tuple[str, list[int | None], bool]] = [
    ("negative slot", [-1, 0], False),
    ("slot past the labels (5 on a 1-label query)", [5], False),
    ("1-based slots", [1, 2], False),
    ("a gap (0, 2)", [0, 2], False),
    ("slot given twice", [0, 0], False),
    ("slots in reverse file order", [1, 0], True),
    ("one slot given, the next by file order", [0, None], True),
]


def slot_cases() -> Iterator[Case]:
    for name, slots, ok in SLOT_CASES:
        qrels = [{"query_id": "q1", "item_id": ITEMS[i]["id"]} | ({} if s is None else {"slot": s})
                 for i, s in enumerate(slots)]  # fmt: skip
        yield Case("slots", name, ok, _plain(ITEMS, QUERIES, qrels))
    repeat = [{"query_id": "q1", "item_id": "t1", "slot": 0},
              {"query_id": "q1", "item_id": "t1", "slot": 1},
              {"query_id": "q1", "item_id": "t2", "slot": 2}]  # fmt: skip
    yield Case("slots", "one tool in two slots (merged, documented)", True,
               _plain(ITEMS, QUERIES, repeat))  # fmt: skip
    edge = [{"id": "q1", "text": "merge then split", "dependencies": [{"from": 3, "to": 0}]}]
    yield Case("slots", "an edge naming slot 3 of a 2-label query", False,
               _plain(ITEMS, edge, repeat[1:]))  # fmt: skip
    for name, scores, ok in [
        ("score 1.5", ("1", "1.5"), False),
        ("score 0.4", ("1", "0.4"), False),
        ("score -0.5", ("1", "-0.5"), False),
        ("score 2.5e0", ("1", "2.5e0"), False),
        ("score 0 (not relevant: skipped, documented)", ("1", "0"), True),
        ("score 2.0", ("1", "2.0"), True),
    ]:
        yield Case("beir scores", name, ok, _beir(scores=scores))
    for name, pairs, relevant, ok in [
        ("tool a::b + API c and tool a + API b::c", [("a::b", "c"), ("a", "b::c")], None, False),
        ("a label that joins into another API's id", [("a::b", "c")], [("a", "b::c")], False),
        ("one API listed twice", [("a", "b"), ("a", "b")], None, True),
        ("a :: inside a name, no collision", [("a::b", "c")], None, True),
    ]:
        yield Case("stabletoolbench ids", name, ok, _stb(pairs, relevant))


def _first(path: Path) -> str:
    first: str = json.loads(path.read_text().splitlines()[0])["id"]
    return first


def import_cases() -> Iterator[Case]:
    """Against the plain fixture: query s1 has 2 labels (slots 0, 1), s2 has 1."""

    def combos(rows: list[dict[str, Any]]) -> Run:
        def run(store: Store, tmp: Path) -> object:
            from toolex.expansions.combinations import import_combinations

            path = tmp / "c.jsonl"
            path.write_text(_jsonl(rows))
            return import_combinations(store, path, benchmark="plain", expansion="e")

        return run

    def subquery_run(slots: list[int]) -> Run:
        def run(store: Store, tmp: Path) -> object:
            path = tmp / "r.csv"
            pairs = [(s, item) for s in slots for item in ("pdf-merge", "pdf-split")]
            rows = [f"s1,{s},{item},{1 - n / 10}" for n, (s, item) in enumerate(pairs)]
            path.write_text("query_id,slot,item_id,score\n" + "\n".join(rows) + "\n")
            return import_run(store, path, run="r", benchmark="plain", level="subquery")

        return run

    assert _first(PLAIN / "queries.jsonl") == "s1"
    one = {"query_id": "s1", "combo_id": 1}
    for name, rows, ok in [
        ("fewer tools than slots", [one | {"item_id": "pdf-merge"}], False),
        ("slot 2 of a 2-slot query",
         [one | {"item_id": "img-resize", "slot": s} for s in (0, 1, 2)], False),
        ("slot -1", [one | {"item_id": "img-resize", "slot": s} for s in (-1, 0)], False),
        ("three tools by file order on 2 slots",
         [one | {"item_id": i} for i in ("img-resize", "pdf-split", "pdf-merge")], False),
        ("one tool in both slots", [one | {"item_id": "img-resize", "slot": s} for s in (0, 1)],
         True),
    ]:  # fmt: skip
        yield Case("combinations", name, ok, combos(rows))
    for slots, ok in (([-1, 0], False), ([0, 2], False), ([9], False), ([0, 1], True)):
        yield Case("sub-query runs", f"slots {slots} on a 2-slot query", ok, subquery_run(slots))


FAMILIES = {"labels: ids": id_cases, "labels: slots": slot_cases, "labels: imports": import_cases}
