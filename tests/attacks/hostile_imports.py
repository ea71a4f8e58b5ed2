"""The hostile input files of tests/attacks/test_inputs.py that feed a benchmark already loaded:
run files (TREC and ToolRet JSON scores), augmented docs, imported combinations and sub-queries,
and ToolRet JSONL exports read back. The traps are hostile_files.py's."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from attacks.conftest import PLAIN
from attacks.hostile_files import DOC_TRAPS, NUMBER_TRAPS, Case, deep
from toolex.expansions.combinations import CombinationImport
from toolex.expansions.subqueries import SubqueryImport
from toolex.loaders import load_docs
from toolex.loaders.docs import DocsResult
from toolex.runs.imports import RunImport, import_run
from toolex.store import Store


def runs_cases() -> Iterator[Case]:
    def trec(score: str) -> Callable[[Store, Path], RunImport]:
        def run(store: Store, tmp: Path) -> RunImport:
            first_q = json.loads((PLAIN / "queries.jsonl").read_text().splitlines()[0])["id"]
            first_i = json.loads((PLAIN / "items.jsonl").read_text().splitlines()[0])["id"]
            path = tmp / "r.trec"
            path.write_text(f"{first_q} Q0 {first_i} 1 {score} tag\n")
            return import_run(store, path, run="r", benchmark="plain", replace=True)

        return run

    def toolret_json(text: str) -> Callable[[Store, Path], RunImport]:
        def run(store: Store, tmp: Path) -> RunImport:
            path = tmp / "r.json"
            path.write_text(text)
            return import_run(store, path, run="r", benchmark="plain", replace=True)

        return run

    for score, ok in {
        "1_000": False,
        "inf": False,
        "-inf": False,
        "nan": False,
        "Infinity": False,
        "1e999": False,
        "0x1p3": False,
        "\uff11": False,
        "1e5": True,
        "-0.5": True,
        "3": True,
    }.items():
        yield Case("runs", f"TREC score {score!r}", ok, trec(score))
    first_q = json.loads((PLAIN / "queries.jsonl").read_text().splitlines()[0])["id"]
    first_i = json.loads((PLAIN / "items.jsonl").read_text().splitlines()[0])["id"]
    for value, ok in {
        "1e999": False,
        "NaN": False,
        "Infinity": False,
        str(10**400): False,
        '"1"': False,
        "true": False,
        deep(3000): False,
        "0.5": True,
    }.items():
        text = f'{{"{first_q}": {{"{first_i}": {value}}}}}'
        yield Case("runs", f"toolret-json score {value[:20]}", ok, toolret_json(text))


def docs_cases() -> Iterator[Case]:
    first_i = json.loads((PLAIN / "items.jsonl").read_text().splitlines()[0])["id"]
    for name, (doc, ok) in DOC_TRAPS.items():

        def run(store: Store, tmp: Path, doc: str = doc) -> DocsResult:
            path = tmp / "docs.jsonl"
            path.write_text(f'{{"id": "{first_i}", "augmented": {doc}}}\n')
            return load_docs(store, path, benchmark="plain", rendering="aug", replace=True)

        yield Case("docs", f"augmented doc: {name}", ok, run)


def imports_cases() -> Iterator[Case]:
    from toolex.expansions.combinations import import_combinations
    from toolex.expansions.subqueries import import_subqueries
    from toolex.exports import read_toolret_jsonl

    first_q = json.loads((PLAIN / "queries.jsonl").read_text().splitlines()[0])["id"]
    first_i = json.loads((PLAIN / "items.jsonl").read_text().splitlines()[0])["id"]

    def combos(text: str) -> Callable[[Store, Path], CombinationImport]:
        def run(store: Store, tmp: Path) -> CombinationImport:
            path = tmp / "c.jsonl"
            path.write_text(text)
            return import_combinations(store, path, benchmark="plain", expansion="e")

        return run

    def subqueries(text: str) -> Callable[[Store, Path], SubqueryImport]:
        def run(store: Store, tmp: Path) -> SubqueryImport:
            path = tmp / "s.jsonl"
            path.write_text(text)
            return import_subqueries(store, path, benchmark="plain", expansion="e")

        return run

    def toolret_jsonl(text: str) -> Callable[[Store, Path], list[dict[str, Any]]]:
        def run(store: Store, tmp: Path) -> list[dict[str, Any]]:
            path = tmp / "t.jsonl"
            path.write_text(text)
            return read_toolret_jsonl(path)

        return run

    for value, ok in NUMBER_TRAPS.items():
        if value in ('"7"', "3", "2.0"):
            continue  # a valid combo id that names no combination: refused for that reason
        rec = f'{{"query_id": "{first_q}", "combo_id": {value}, "slot": 0, "item_id": "{first_i}"}}'
        yield Case("imports", f"combo_id {value}", ok, combos(rec + "\n"))
        rec = f'{{"query_id": "{first_q}", "slot": {value}, "text": "find it"}}'
        yield Case("imports", f"sub-query slot {value}", ok, subqueries(rec + "\n"))
    for name, (doc, _) in DOC_TRAPS.items():
        if name in ("deep 150", "deep 5000", "NaN", "Infinity", "1e999", "5000 digits"):
            line = f'{{"query_id": "{first_q}", "slot": 0, "text": "x", "extra": {doc}}}\n'
            yield Case("imports", f"sub-query record: {name}", False, subqueries(line))
            line = f'{{"id": "{first_q}", "combinations": {doc}}}\n'
            yield Case("imports", f"toolret jsonl: {name}", False, toolret_jsonl(line))


FAMILIES = {
    "runs": runs_cases,
    "docs": docs_cases,
    "imports": imports_cases,
}
