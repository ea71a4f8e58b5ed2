"""`toolex load ...` and `toolex runs ...` end to end through click, on a store file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from toolex.cli import cli
from toolex.errors import InputError
from toolex.store import Store

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "t.duckdb")


def run(*args: str) -> Result:
    result = CliRunner().invoke(cli, list(args))
    return result


def count(db: str, table: str) -> int:
    with Store.open(db, read_only=True) as s:
        [(n,)] = s.con.execute(f"SELECT count(*) FROM {table}").fetchall()
        return int(n)


def test_load_toolret_twice_and_replace(db: str) -> None:
    r = run("load", "toolret", str(DATA / "toolret_mini"), "--task", "mini", "--db", db)
    assert r.exit_code == 0, r.output
    assert "toolret: loaded (3 items, 2 queries, 3 qrels)" in r.stderr
    assert "qrels per query (qrels:queries): 1:1, 2:1" in r.stderr
    r = run("load", "toolret", str(DATA / "toolret_mini"), "--db", db)
    assert "already loaded, unchanged" in r.stderr
    r = run("load", "toolret", str(DATA / "toolret_mini"), "--db", db, "--name", "other")
    assert r.exit_code == 0 and count(db, "benchmarks") == 2


def test_load_beir_plain_docs_combinations_subqueries(db: str, tmp_path: Path) -> None:
    assert run("load", "beir", str(DATA / "beir"), "--name", "b", "--db", db).exit_code == 0
    p = DATA / "plain"
    r = run(
        "load",
        "plain",
        "--name",
        "skills",
        "--kind",
        "skill",
        "--items",
        str(p / "items.jsonl"),
        "--queries",
        str(p / "queries.jsonl"),
        "--qrels",
        str(p / "qrels.jsonl"),
        "--db",
        db,
    )
    assert r.exit_code == 0, r.output
    assert count(db, "items") == 6
    aug = tmp_path / "aug.jsonl"
    aug.write_text(
        json.dumps({"id": "img-resize", "augmented": {"description": "Scale pictures."}})
    )
    r = run("load", "docs", str(aug), "--benchmark", "skills", "--rendering", "llm", "--db", db)
    assert r.exit_code == 0 and "skills/llm: loaded (1 documents)" in r.stderr
    combos = tmp_path / "c.jsonl"
    combos.write_text(json.dumps({"query_id": "s2", "combo_id": 1, "item_id": "pdf-merge"}))
    r = run("load", "combinations", str(combos), "--benchmark", "skills", "--db", db)
    assert r.exit_code == 0 and count(db, "combinations") == 2
    subq = tmp_path / "s.jsonl"
    subq.write_text(json.dumps({"query_id": "s2", "slot": 0, "text": "resize photo"}))
    r = run(
        "load", "subqueries", str(subq), "--benchmark", "skills", "--expansion", "x", "--db", db
    )
    assert r.exit_code == 0 and count(db, "subqueries") == 1
    # a sub-query file from before schema 072 names the reference ref_item_id: one note, read
    with Store.open(db, read_only=True) as s:
        [(tool,)] = s.con.execute(
            "SELECT item_id FROM qrels WHERE benchmark = 'skills' AND query_id = 's2' AND slot = 0"
        ).fetchall()
    subq.write_text(json.dumps({"query_id": "s2", "slot": 0, "text": "x", "ref_item_id": tool}))
    r = run(
        "load", "subqueries", str(subq), "--benchmark", "skills", "--expansion", "y", "--db", db
    )
    assert r.exit_code == 0 and count(db, "subqueries") == 2
    assert (
        "note: 1 row(s) give the reference as 'ref_item_id', its name before schema 072; "
        "read as 'reference'\n"
    ) in r.stderr


def test_load_error_is_an_input_error(db: str, tmp_path: Path) -> None:
    bad = tmp_path / "items.jsonl"
    bad.write_text('{"id": "a", "text": "x"}\n{"id": "a", "text": "y"}\n')
    p = DATA / "plain"
    r = run(
        "load",
        "plain",
        "--name",
        "x",
        "--items",
        str(bad),
        "--queries",
        str(p / "queries.jsonl"),
        "--qrels",
        str(p / "qrels.jsonl"),
        "--db",
        db,
    )
    assert isinstance(r.exception, InputError)
    assert (r.exception.line, r.exception.field) == (2, "id")


def test_cli_prints_error_and_exits_2(db: str, tmp_path: Path) -> None:
    bad = tmp_path / "t"
    (bad / "x").mkdir(parents=True)
    (bad / "x" / "queries.json").write_text("[{]")
    (bad / "x" / "tools.json").write_text("[]")
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "from toolex.cli import main; main()",
            "load",
            "toolret",
            str(bad),
            "--db",
            db,
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: ")
    assert "Traceback" not in proc.stderr


def test_runs_import_list_delete(db: str, tmp_path: Path) -> None:
    run("load", "toolret", str(DATA / "toolret_mini"), "--db", db)
    f = tmp_path / "r.trec"
    f.write_text("mini_query_0 Q0 mini_tool_0 1 0.5 t\nmini_query_1 Q0 mini_tool_2 1 0.7 t\n")
    r = run("runs", "import", str(f), "--run", "bm25", "--benchmark", "toolret", "--db", db)
    assert r.exit_code == 0, r.output
    assert "run 'bm25' (trec, query level): 2 results for 2 queries" in r.stderr
    r = run("runs", "list", "--format", "json", "--db", db)
    rows = json.loads(r.stdout)
    assert [(x["run"], x["benchmark"], x["queries"], x["results"]) for x in rows] == [
        ("bm25", "toolret", 2, 2)
    ]
    r = run("runs", "delete", "bm25", "--db", db)
    assert r.exit_code == 0 and "deleted run 'bm25' (2 results)" in r.stderr
    assert count(db, "runs") == 0 and count(db, "run_results") == 0


def test_every_command_has_an_example() -> None:
    for group, names in (
        (
            "load",
            [
                "toolret",
                "hub",
                "stabletoolbench",
                "beir",
                "plain",
                "docs",
                "combinations",
                "subqueries",
            ],
        ),
        ("runs", ["import", "list", "delete"]),
    ):
        for name in names:
            r = run(group, name, "--help")
            assert r.exit_code == 0
            assert "Example" in r.output, f"{group} {name}"
