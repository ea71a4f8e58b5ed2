"""Every command that names a benchmark, an expansion or a run refuses a misspelled one the same
way: exit 2, "error: no <kind> named 'x' in the store; did you mean 'y'?" on stderr, no
traceback, nothing written. (A misspelling used to print a blank table, export the original
labels alone, or open an empty TUI, all with exit 0.)

The store is the report fixture (benchmark 'toolret', expansion 'default', runs 'bm25',
'bm25-ft', 'sub-bm25'), built once; each case runs `toolex` in-process through its real entry
point, ``toolex.cli.main``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TypedDict

import click
import pytest
from click import Command
from reports.fixtures import build

from toolex.cli import COMMANDS, cli, main
from toolex.cli.options import StoredName
from toolex.store import Store

BENCH, EXP, RUN = ("toolrett", "toolret"), ("defualt", "default"), ("bm52", "bm25")


def _cases() -> list[tuple[str, list[str], tuple[str, str]]]:
    """(command path, arguments, (misspelled, meant)). One case per command and name it takes;
    {dir} and {file:KEY} are filled in by the test."""
    b, e, r = BENCH[0], EXP[0], RUN[0]
    draw = "--size 3 --seed 1"
    lines = [
        ("load docs", f"load docs {{file:docs}} --benchmark {b} --rendering llm", BENCH),
        ("load combinations", f"load combinations {{file:combos}} --benchmark {b}", BENCH),
        ("load subqueries", f"load subqueries {{file:subq}} --benchmark {b}", BENCH),
        ("load candidates", f"load candidates {{file:cands}} --benchmark {b}", BENCH),
        (
            "load candidates",
            f"load candidates {{file:cands}} --benchmark toolret --expansion {e}",
            EXP,
        ),
        ("runs import", f"runs import {{file:run}} --run new --benchmark {b}", BENCH),
        ("runs list", f"runs list --benchmark {b}", BENCH),
        ("runs delete", f"runs delete {r}", RUN),
        ("eval", f"eval --run {r}", RUN),
        ("eval", f"eval --run bm25 --expansion {e}", EXP),
        ("eval", f"eval --run-file {{file:run}} --benchmark {b}", BENCH),
        ("index", f"index --benchmark {b} --retriever bm25", BENCH),
        ("retrieve", f"retrieve --benchmark {b} --retriever bm25 --run new", BENCH),
        ("expand", f"expand --benchmark {b} --judge heuristic", BENCH),
        ("expand", f"expand --benchmark {b} --judge heuristic --dry-run", BENCH),
        ("stats", f"stats --benchmark {b}", BENCH),
        ("stats", f"stats --benchmark toolret --expansion {e}", EXP),
        ("report", f"report --out {{dir}} --benchmark {b}", BENCH),
        ("report", f"report --out {{dir}} --expansion {e}", EXP),
        ("report", f"report --out {{dir}} --run {r}", RUN),
        ("report", f"report --out {{dir}} --pair bm25:{r}", RUN),
        ("export trec-run", f"export trec-run --out {{dir}}/x.run --run {r}", RUN),
        ("review sample", f"review sample s1 {draw} --benchmark {b}", BENCH),
        ("review sample", f"review sample s1 {draw} --benchmark toolret --expansion {e}", EXP),
        ("tui", f"tui --benchmark {b}", BENCH),
        ("tui", f"tui --benchmark toolret --expansion {e}", EXP),
        ("tui", f"tui --expansion {e}", EXP),  # used to be ignored without --benchmark
        ("labels import", f"labels import --shipped --benchmark {b}", BENCH),
        ("labels export", f"labels export --out {{dir}}/x.jsonl --benchmark {b}", BENCH),
        ("judges eval", f"judges eval --judge heuristic --benchmark {b}", BENCH),
        ("judges eval", f"judges eval --judge heuristic --expansion {e}", EXP),
    ]
    for form in ("qrels", "trec-qrels", "toolret-jsonl", "equivalences", "toolbench"):
        lines.append((f"export {form}", f"export {form} --out {{dir}}/x --benchmark {b}", BENCH))
        lines.append((f"export {form}", f"export {form} --out {{dir}}/x --expansion {e}", EXP))
    triples = "export triples --out {dir}/x.jsonl"
    lines.append(("export triples", f"{triples} --benchmark {b}", BENCH))
    lines.append(("export triples", f"{triples} --expansion {e}", EXP))
    lines.append(("export triples", f"{triples} --run {r}", RUN))
    return [(path, line.split(), names) for path, line, names in lines]


CASES = _cases()
# Options that name what the command is about to write, so they are not checked.
NEW_NAMES = {
    ("load combinations", "expansion"),
    ("load subqueries", "expansion"),
    ("load skillret", "expansion"),  # the substitutable labels' expansion, written by the load
    ("runs import", "run"),
    ("retrieve", "run"),
    ("retrieve", "expansion"),  # with --subqueries it is written first
    ("expand", "expansion"),
}


class World(TypedDict):
    db: str
    root: Path
    files: dict[str, Path]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    """The fixture store and the input files of the load/import commands."""
    root = tmp_path_factory.mktemp("names")
    db = root / "names.duckdb"
    with Store.open(db) as store:
        build(store)
    files = {
        "docs": ('{"id": "w1", "augmented": {"description": "d"}}', "docs.jsonl"),
        "combos": ('{"query_id": "q1", "combo_id": 1, "item_id": "w2"}', "combos.jsonl"),
        "subq": ('{"query_id": "q1", "slot": 0, "text": "weather"}', "subq.jsonl"),
        "run": ("q1 Q0 w1 1 1.0 t", "run.trec"),
        "cands": ("q1#0 Q0 w1 1 1.0 t", "cands.trec"),
    }
    paths: dict[str, Path] = {}
    for key, (text, name) in files.items():
        paths[key] = root / name
        paths[key].write_text(text + "\n")
    return {"db": str(db), "root": root, "files": paths}


def fingerprint(db: str) -> str:
    """A hash of every table's rows, in a stable order: equal before and after = unchanged."""
    digest = hashlib.sha256()
    with Store.open(db, read_only=True) as s:
        tables = s.user_sql(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = 'main' AND table_type = 'BASE TABLE' ORDER BY 1"
        ).column(0)
        for table in tables.to_pylist():
            rows = s.user_sql(f'SELECT * FROM "{table}"').to_pylist()  # names from the catalog
            lines = sorted(json.dumps(r, sort_keys=True, default=str) for r in rows)
            digest.update(f"{table}:{len(lines)}\n".encode())
            digest.update("\n".join(lines).encode())
    return digest.hexdigest()


def toolex(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    """Run `toolex ARGS` through its real entry point; (exit code, stderr)."""
    monkeypatch.setattr(sys, "argv", ["toolex", *args])
    with pytest.raises(SystemExit) as stop:
        main()
    code = stop.value.code
    assert isinstance(code, int), code  # main exits with a number, never a message
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("path", "args", "names"), CASES, ids=[f"{p}:{n[0]}:{i}" for i, (p, _, n) in enumerate(CASES)]
)
def test_a_misspelled_name_is_refused(
    world: World,
    path: str,
    args: list[str],
    names: tuple[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    wrong, meant = names
    out_dir = tmp_path / "out"
    filled = []
    for arg in args:
        if arg.startswith("{file:"):
            arg = str(world["files"][arg[6:-1]])
        filled.append(arg.replace("{dir}", str(out_dir)))
    before = fingerprint(world["db"])
    code, err = toolex([*filled, "--db", world["db"]], monkeypatch, capsys)
    assert code == 2, err
    assert err.startswith("error: "), err
    kind = {BENCH: "benchmark", EXP: "expansion", RUN: "run"}[names]
    assert f"no {kind} named '{wrong}' in the store; did you mean '{meant}'?" in err
    assert "Traceback" not in err
    assert fingerprint(world["db"]) == before
    assert not out_dir.exists()  # no report folder, no export file


def test_every_named_option_has_a_case() -> None:
    """Each command's --benchmark/--expansion/--run is either checked (a StoredName option,
    with a case above) or names something the command writes (NEW_NAMES)."""
    covered = {
        (path, {BENCH: "benchmark", EXP: "expansion", RUN: "run"}[n]) for path, _, n in CASES
    }
    seen = set()
    for path, command in _commands():
        for param in command.params:
            kind = next(
                (o[2:] for o in param.opts if o in ("--benchmark", "--expansion", "--run")), None
            )
            if kind is None:
                continue
            seen.add((path, kind))
            if isinstance(param, StoredName):
                assert (path, kind) in covered, f"`toolex {path} --{kind}` has no misspelling case"
            else:
                assert (path, kind) in NEW_NAMES, f"`toolex {path} --{kind}` is not checked"
    assert seen >= NEW_NAMES  # no stale exemption
    assert {path for path, _ in _commands()} >= {path for path, _ in covered}  # no stale case


def _commands() -> Iterator[tuple[str, Command]]:
    ctx = click.Context(cli)
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        if isinstance(command, click.Group):
            for sub in command.commands.values():
                yield f"{name} {sub.name}", sub
        else:
            assert command is not None, name
            yield name, command
