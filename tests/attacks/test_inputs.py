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
from typing import cast

import pytest

from attacks.conftest import PLAIN, Ran, digest, plain_store
from attacks.hostile_files import FAMILIES as FILE_FAMILIES
from attacks.hostile_imports import FAMILIES as IMPORT_FAMILIES
from attacks.hostile_labels import FAMILIES as LABEL_FAMILIES
from attacks.tally import Tally
from toolex.errors import InputError, ToolexError
from toolex.store import Store

FAMILIES = {**FILE_FAMILIES, **IMPORT_FAMILIES, **LABEL_FAMILIES}


class OpenedOnUse:
    """The store at ``path``, opened when a case first asks it for anything. Most hostile
    files are refused as they are read, before the loader touches the store (209 of 347 cases):
    those never pay the open and close (most of this file's CPU), and a store never opened is
    unchanged. A case that uses it gets the same store, opened the same way, as before."""

    def __init__(self, path: Path) -> None:
        self.path, self.opened = path, cast(Store | None, None)

    def __getattr__(self, name: str) -> object:
        if self.opened is None:
            self.opened = Store.open(self.path)
        return getattr(self.opened, name)

    def close(self) -> None:
        if self.opened is not None:
            self.opened.close()


@pytest.fixture(scope="module")
def plain_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, tuple[int, int]]]:
    """The store of the plain benchmark and its digest, once for the module: every case
    works on a copy of it."""
    path = plain_store(tmp_path_factory.mktemp("plain") / "s.duckdb")
    return str(path), digest(path)


@pytest.mark.slow
@pytest.mark.parametrize("family", list(FAMILIES))
def test_hostile_inputs_end_in_a_located_error_and_change_nothing(
    plain_db: tuple[str, dict[str, tuple[int, int]]], tmp_path: Path, family: str
) -> None:
    tally = Tally(f"inputs: {family}")
    bench_db, base = plain_db
    for n, case in enumerate(FAMILIES[family]()):
        work = tmp_path / f"c{n}"
        work.mkdir()
        db = work / "s.duckdb"
        shutil.copyfile(bench_db, db)
        store = OpenedOnUse(db)
        try:
            try:
                case.run(cast(Store, store), work)
            except ToolexError as exc:
                outcome, said = "clean error", str(exc)
                if family in LABEL_FAMILIES and not _located(exc):
                    tally.failures.append(f"{case.name}: an error without file and field: {said}")
            except Exception as exc:  # noqa: BLE001 - the attack looks for exactly these
                outcome, said = "traceback", f"{type(exc).__name__}: {exc}"
            else:
                outcome, said = "correct result", ""
        finally:
            store.close()
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
