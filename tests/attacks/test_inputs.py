"""Hostile input files, generated: every loader and the run importer meet deep nesting, NaN and
Infinity, numbers beyond 32 bits or beyond a float, digit look-alikes ("²", "--1", "1_000",
fullwidth digits), non-string fields, broken UTF-8, truncated and misshapen JSON, folders and
symlink loops where files go, and files with nothing to load. Each ends in a located error (or
loads, when the input is valid after all), never a traceback, and a failed load leaves the
store exactly as it was (it already holds a benchmark of the same name, loaded with
``replace``: the strictest case, as a half-done swap would delete it)."""

from __future__ import annotations

import filecmp
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from attacks.conftest import PLAIN, Ran, digest
from attacks.hostile_files import FAMILIES as FILE_FAMILIES
from attacks.hostile_imports import FAMILIES as IMPORT_FAMILIES
from attacks.hostile_labels import FAMILIES as LABEL_FAMILIES
from attacks.tally import Tally
from toolex.errors import InputError, ToolexError
from toolex.store import Store

FAMILIES = {**FILE_FAMILIES, **IMPORT_FAMILIES, **LABEL_FAMILIES}


@pytest.mark.slow
@pytest.mark.parametrize("family", list(FAMILIES))
def test_hostile_inputs_end_in_a_located_error_and_change_nothing(
    bench_db: str, tmp_path: Path, family: str
) -> None:
    tally = Tally(f"inputs: {family}")
    base = digest(bench_db)
    for n, case in enumerate(FAMILIES[family]()):
        work = tmp_path / f"c{n}"
        work.mkdir()
        db = work / "s.duckdb"
        shutil.copyfile(bench_db, db)
        with Store.open(db) as store:
            try:
                case.run(store, work)
            except ToolexError as exc:
                outcome, said = "clean error", str(exc)
                if family in LABEL_FAMILIES and not _located(exc):
                    tally.failures.append(f"{case.name}: an error without file and field: {said}")
            except Exception as exc:  # noqa: BLE001 - the attack looks for exactly these
                outcome, said = "traceback", f"{type(exc).__name__}: {exc}"
            else:
                outcome, said = "correct result", ""
        # A file byte for byte as copied is unchanged; any other is compared row by row (a
        # writer that rolled back may still have touched the file). Most cases end before a
        # write, and the byte comparison spares them the digest's 30 table reads.
        changed = (
            outcome != "correct result"
            and not filecmp.cmp(db, bench_db, shallow=False)
            and digest(db) != base
        )
        tally.record(f"{case.name}: {said[:160]}", outcome, changed=changed)
        if outcome == "clean error" and case.valid:
            tally.failures.append(f"{case.name}: refused a valid input: {said[:200]}")
        if outcome == "correct result" and not case.valid:
            tally.failures.append(f"{case.name}: accepted silently")
        if outcome == "clean error":
            assert len(said) < 2000, f"{case.name}: an error message of {len(said)} characters"
        shutil.rmtree(work)
    tally.check()


def _located(exc: ToolexError) -> bool:
    """An error that names the file and the field (and the line or record) it is about."""
    return (
        isinstance(exc, InputError)
        and bool(exc.path and exc.field)
        and (exc.line is not None or exc.record is not None)
    )


def test_deep_json_inside_a_doc_string_survives_the_pipeline(
    tmp_path: Path, toolex: Callable[..., Ran]
) -> None:
    """A doc field holding a string of deep JSON (a response template) is text to the
    loader; the pipeline later parses such strings, and must not crash on them either."""
    tally = Tally("inputs: deep JSON inside doc strings, through expand")
    items = tmp_path / "items.jsonl"
    lines = (PLAIN / "items.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["doc"] = {"name": first["id"], "description": "merge PDFs",
                    "template_response": "[" * 5000 + "]" * 5000}  # fmt: skip
    first.pop("text", None)
    items.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    db = str(tmp_path / "s.duckdb")
    for name, args in {
        "load": ["load", "plain", "--items", str(items), "--queries", str(PLAIN / "queries.jsonl"),
                 "--qrels", str(PLAIN / "qrels.jsonl"), "--name", "plain"],
        "expand": ["expand", "--benchmark", "plain"],
        "check": ["check"],
    }.items():  # fmt: skip
        ran = toolex(*args, "--db", db)
        tally.record(name, ran.outcome)
        assert ran.outcome == "correct result", (name, ran.err[-600:])
    tally.check()
