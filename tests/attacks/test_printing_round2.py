"""Values that crash or corrupt a printed table (issue 37, points 4 and 5; issue 35.19's class):
text from data is never Rich markup (``[/INST]``, ``[/x]``, ``tool[v2]``, ``[bold]`` print as
themselves, in cells, column names, titles and benchmark names), control characters and bidi
overrides are shown as escapes, not obeyed, in tables and in messages; an id holding a BOM, a
bidi override or another invisible character is refused where it is read, with its file, line
and field; ids with no-break, em or ideographic spaces load and come back from TREC files
exactly; a lone surrogate in an input file is a located error, not a traceback."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from attacks.conftest import Kept, Ran
from attacks.entry import shell
from attacks.tally import Tally

MARKUP = ["[/INST]", "[/x]", "tool[v2]", "[bold]", "[link=http://x]y[/link]", "[red]"]
OBEYED = ["\x1b[2J", "\x1b[31m", "\r", "\x08", "\u202e", "\u2066", "\ufeff", "\u200b"]


def escapes(text: str) -> set[str]:
    """Characters a terminal obeys or hides, as found in ``text`` (there must be none)."""
    from toolex.printable import UNSHOWN

    return {m.group() for m in UNSHOWN.finditer(text.replace("\n", ""))}


def jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return path


@pytest.fixture
def hostile_db(tmp_path: Path, toolex: Callable[..., Ran]) -> str:
    """A benchmark named ``[/x]`` whose names and texts hold markup, escape sequences and bidi
    overrides (ids stay clean: those are refused, see below)."""
    items = [
        {"id": "inst", "name": "[/INST] chat", "text": "Wraps [INST] prompts [/INST] for llama."},
        {"id": "v2", "name": "tool[v2]", "text": "Version [bold] two \x1b[31mred\x1b[0m."},
        {"id": "rlo", "name": "evil\u202etxt.exe", "text": "Over\rwrites \x1b[2J the screen."},
    ]
    queries = [{"id": "q1", "text": "Chat [/INST] with \u2066v2\u2069", "labels": ["inst", "v2"]}]
    db = str(tmp_path / "h.duckdb")
    ran = toolex(
        "load",
        "plain",
        "--name",
        "[/x]",
        "--items",
        str(jsonl(tmp_path / "items.jsonl", items)),
        "--queries",
        str(jsonl(tmp_path / "queries.jsonl", queries)),
        "--db",
        db,
    )
    assert ran.code == 0, ran.err
    ran = toolex(
        "retrieve", "--benchmark", "[/x]", "--retriever", "bm25", "--run", "[/r]", "--db", db
    )
    assert ran.code == 0, ran.err
    return db


def test_data_prints_as_itself_in_every_table(hostile_db: str, toolex: Callable[..., Ran]) -> None:
    tally = Tally("printing round 2: tables")
    select = (
        'SELECT 1 AS "[/c]", \'[/INST] tool[v2] [bold]\' AS "tool[v2]", '
        "chr(27) || '[2Jgone' AS e, 'a' || chr(8238) || 'cba' AS r"
    )
    for args in (
        ("info",),
        ("info", "--only", "benchmarks"),
        ("stats", "--benchmark", "[/x]"),
        ("sql", "SELECT item_id, name, text FROM items ORDER BY item_id"),
        ("sql", "SELECT query_id, text FROM queries"),
        ("sql", select),
        ("sql", "--tables"),
        ("runs", "list"),
        ("eval", "--run", "[/r]"),
    ):
        ran = toolex(*args, "--db", hostile_db)
        case = " ".join(args)[:60]
        tally.record(case, ran.outcome)
        assert ran.code == 0, (case, ran.err)
        assert not escapes(ran.out), (case, escapes(ran.out))
        assert "MarkupError" not in ran.err
    tally.check()
    ran = toolex("sql", select, "--db", hostile_db)
    assert "[/c]" in ran.out and "tool[v2]" in ran.out and "[/INST] tool[v2] [bold]" in ran.out
    assert "\\x1b[2Jgone" in ran.out and "a\\u202ecba" in ran.out
    ran = toolex("sql", "SELECT name FROM items ORDER BY item_id", "--db", hostile_db)
    assert ran.out.split()[2:] == ["[/INST]", "chat", "evil\\u202etxt.exe", "tool[v2]"]
    ran = toolex("info", "--only", "benchmarks", "--db", hostile_db)
    assert "[/x]" in ran.out


def test_csv_and_json_carry_the_data_exactly(hostile_db: str, toolex: Callable[..., Ran]) -> None:
    """Escapes are for the screen: a file or pipe of CSV or JSON holds the bytes as stored."""
    ran = toolex(
        "sql",
        "SELECT name, text FROM items ORDER BY item_id",
        "--format",
        "json",
        "--db",
        hostile_db,
    )
    rows = json.loads(ran.out)
    assert rows[1]["name"] == "evil\u202etxt.exe" and "\x1b[2J" in rows[1]["text"]


def test_messages_show_what_they_quote(hostile_db: str, toolex: Callable[..., Ran]) -> None:
    tally = Tally("printing round 2: messages")
    for name in ("\x1b[2Jx", "a\u202eb", "[/x", "[bold]y"):
        for args in (("stats", "--benchmark", name), ("eval", "--run", name)):
            ran = toolex(*args, "--db", hostile_db)
            tally.record(" ".join(args), ran.outcome)
            assert ran.code == 2 and ran.err.startswith("error: "), ran.err
            assert not escapes(ran.err) and ran.err.count("\n") == 1, ran.err
    tally.check()


@pytest.mark.parametrize(
    ("option", "value"),
    [("--name", "a\u202eb"), ("--name", "\ufeffbench"), ("--name", "x\x1b[31m"), ("--name", " ")],
)
def test_a_name_that_does_not_show_as_itself_is_refused(
    tmp_path: Path, toolex: Callable[..., Ran], option: str, value: str
) -> None:
    plain = Path(__file__).resolve().parents[1] / "data" / "plain"
    db = tmp_path / "n.duckdb"
    ran = toolex(
        "load", "plain", option, value, "--items", str(plain / "items.jsonl"),
        "--queries", str(plain / "queries.jsonl"), "--qrels", str(plain / "qrels.jsonl"),
        "--db", str(db),
    )  # fmt: skip
    assert ran.code == 2 and "--name" in ran.err and ran.exception is None
    assert not escapes(ran.err) and not db.exists()


BAD_IDS = {
    "a byte order mark": "\ufeffpdf-merge",
    "a right-to-left override": "pdf\u202eegrem",
    "a left-to-right isolate": "pdf\u2066merge",
    "a zero width space": "pdf\u200bmerge",
    "a soft hyphen": "pdf\u00admerge",
    "a word joiner": "pdf\u2060merge",
    "a tag character": "pdf\U000e0041merge",
    "an escape": "pdf\x1b[31mmerge",
}


def test_an_id_with_an_invisible_character_is_refused_where_it_is_read(
    bench_db: str, tmp_path: Path, toolex: Callable[..., Ran]
) -> None:
    tally = Tally("printing round 2: ids")
    before = Kept(bench_db)
    for what, bad in BAD_IDS.items():
        for file in ("items", "queries"):
            items = [{"id": bad if file == "items" else "t1", "text": "A tool."}]
            queries = [{"id": bad if file == "queries" else "q1", "text": "Q", "labels": ["t1"]}]
            if file == "items":
                queries[0]["labels"] = [bad]
            ran = toolex(
                "load", "plain", "--name", "b2",
                "--items", str(jsonl(tmp_path / "items.jsonl", items)),
                "--queries", str(jsonl(tmp_path / "queries.jsonl", queries)),
                "--db", bench_db,
            )  # fmt: skip
            changed = before.changed()
            tally.record(f"{what} in {file}", ran.outcome, changed=changed)
            assert ran.code == 2 and f"{file}.jsonl:1" in ran.err and "field 'id'" in ran.err, (
                what,
                ran.err,
            )
            assert not escapes(ran.err) and ran.err.count("\n") == 1, ran.err
    tally.check()


SPACED = ["a\u00a0b", "c\u2003d", "e\u3000f", "\u3000lead", "trail\u00a0", "x y", "\u2009thin"]


def test_ids_with_unicode_spaces_round_trip_trec_exactly(
    tmp_path: Path, toolex: Callable[..., Ran]
) -> None:
    """Decision: ids with no-break, em, thin or ideographic spaces load, and come back exactly.
    They are real (scraped API names hold no-break spaces; CJK names ideographic ones), so
    refusing them would refuse real libraries; TREC writers percent-encode every character
    Python counts as whitespace (toolex.loaders.trec_ids), so every field of every line holds
    no whitespace at all and any reader (trec_eval splits on ASCII space, pytrec_eval and ranx
    on Unicode whitespace) reads the same ids as toolex does."""
    db = str(tmp_path / "w.duckdb")
    items = [{"id": i, "text": f"tool {n}"} for n, i in enumerate(SPACED)]
    queries = [
        {"id": "q\u00a01", "text": "tool 0 tool 1", "labels": SPACED[:4]},
        {"id": "q\u30002", "text": "tool 5", "labels": SPACED[4:]},
    ]
    ran = toolex(
        "load", "plain", "--name", "w",
        "--items", str(jsonl(tmp_path / "i.jsonl", items)),
        "--queries", str(jsonl(tmp_path / "q.jsonl", queries)), "--db", db,
    )  # fmt: skip
    assert ran.code == 0, ran.err
    stored = toolex("sql", "SELECT item_id FROM items", "--format", "json", "--db", db)
    assert sorted(r["item_id"] for r in json.loads(stored.out)) == sorted(SPACED)
    toolex("retrieve", "--benchmark", "w", "--retriever", "bm25", "--run", "b", "--db", db)
    run, qrels = tmp_path / "b.run", tmp_path / "w.qrels"
    assert toolex("export", "trec-run", "--run", "b", "--out", str(run), "--db", db).code == 0
    assert toolex("export", "trec-qrels", "--out", str(qrels), "--db", db).code == 0
    assert {len(line.split()) for line in run.read_text().splitlines()} == {6}
    assert {len(line.split(" ")) for line in run.read_text().splitlines()} == {6}
    assert {len(line.split()) for line in qrels.read_text().splitlines()} == {4}
    ran = toolex("runs", "import", str(run), "--benchmark", "w", "--run", "b2", "--db", db)
    assert ran.code == 0, ran.err
    same = toolex(
        "sql",
        "SELECT count(*) AS n FROM (SELECT query_id, item_id, rank FROM run_results "
        "WHERE run_id = 'b' EXCEPT SELECT query_id, item_id, rank FROM run_results "
        "WHERE run_id = 'b2')",
        "--format", "csv", "--db", db,
    )  # fmt: skip
    assert same.out == "n\n0\n"


LONE = [  # (the file, the line of the lone half, where it starts on that line)
    ('{"id": "a\\ud800b", "text": "x"}\n', 1, '\\ud800b"'),
    (
        '{"id": "b", "text": "ok \\ud83d\\ude00"}\n{"id": "c", "text": "lone \\udc00"}\n',
        2,
        "\\udc00",
    ),
    ('{"id": "d", "text": "\\\\ud800 is text, \\\\\\udfff is not"}\n', 1, "\\udfff is"),
]


@pytest.mark.parametrize(("content", "line", "half"), LONE)
def test_a_lone_surrogate_is_a_located_error(
    tmp_path: Path, content: str, line: int, half: str
) -> None:
    """Through the real entry point: a traceback would show on stderr."""
    items = tmp_path / "items.jsonl"
    items.write_text(content)
    queries = jsonl(tmp_path / "q.jsonl", [{"id": "q", "text": "Q", "labels": ["b"]}])
    db = tmp_path / "s.duckdb"
    ran = shell(
        "load", "plain", "--name", "s", "--items", str(items), "--queries", str(queries),
        "--db", str(db),
    )  # fmt: skip
    assert ran.code == 2 and ran.one_line_error, ran.err
    column = content.splitlines()[line - 1].index(half) + 1
    assert f"items.jsonl:{line}" in ran.err and f"(column {column})" in ran.err, ran.err
    assert "lone surrogate" in ran.err and not escapes(ran.err)


def test_a_lone_surrogate_in_a_json_array_is_located(
    tmp_path: Path, toolex: Callable[..., Ran]
) -> None:
    items = tmp_path / "items.json"
    items.write_text('[{"id": "a", "text": "x"},\n {"id": "b", "text": "\\udfff"}]')
    queries = jsonl(tmp_path / "q.jsonl", [{"id": "q", "text": "Q", "labels": ["b"]}])
    ran = toolex(
        "load", "plain", "--name", "s", "--items", str(items), "--queries", str(queries),
        "--db", str(tmp_path / "s.duckdb"),
    )  # fmt: skip
    assert ran.code == 2 and "items.json:2" in ran.err and "lone surrogate" in ran.err
