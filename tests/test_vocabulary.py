"""The vocabulary table (docs/concepts.md, "## Vocabulary": word | means | not), against the code.

Which tokens of the table are checked, and how:

- **"not" cells: forbidden names.** A token is checked if it is backticked and looks like a name
  (``ref_item_id``, ``is_ref``, ``gold``), or is a bare snake_case word with an underscore
  outside backticks and quotes. A backticked ``--option``, alone or after a command path
  (``retrieve --k``), is a CLI option that must not exist (on that command, or on any). Words
  in double quotes ("doc", "combo") are prose the table warns about, not identifiers: they are
  not checked (``doc`` is rightly a column of ``items``).
- A forbidden name must not occur as: a column of the schema a new store gets (all of
  sql/schema/ applied), a CLI command or option name (the click group walked, ``-`` read as
  ``_``), a Python identifier in toolex/ and tui/ (ast: names, attributes, arguments, keyword
  arguments, functions, classes, imports, so dataclass and NamedTuple fields too) or a whole
  Python string constant there (a column named as ``row["ref_item_id"]``), or an identifier of
  any SQL file in sql/ (comments and string literals removed, double-quoted names kept).
- "Occurs" is by snake_case segments: ``gold`` is found in ``_gold_steps`` and ``is_ref`` in
  ``is_ref_item``, but ``is_ref`` is not in ``is_reference`` (whole segments only).
- **"word" cells and the "means" cells' backticked names must occur** somewhere in the same
  code (a word's hyphen dropped: "sub-query" is ``subquery``; "load / import" is two words;
  ``table.column`` is checked part by part), so the table cannot drift into names nobody uses.
- ``ALLOWED`` is the only way out, each entry with why beside it: an external source's own
  field name, or an old spelling a user's scripts may still pass (hidden, with a note).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import click
import pytest

from toolex.cli import cli
from toolex.store import Store

ROOT = Path(__file__).resolve().parent.parent
CONCEPTS = ROOT / "docs" / "concepts.md"

# (forbidden name, where: a file or a command path) -> why it may stay there. Only names a user's
# existing files or scripts already use belong here: a source format's own field, an old spelling
# still accepted (hidden, with a note).
ALLOWED: dict[tuple[str, str], str] = {
    ("--k", "retrieve"): "hidden old spelling of --depth; deprecated_k says so on stderr",
    ("--k", "expand"): "hidden old spelling of --depth; deprecated_k says so on stderr",
    ("ref_item_id", "toolex/expansions/subqueries.py"): "the reference field's name in sub-query "
    "files written before schema 072 (a dump of an older store): read as reference, with a note",
}

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")
_OPTION = re.compile(r"^(?P<command>[a-z][a-z0-9 -]*?)?\s*(?P<option>--[a-z0-9][a-z0-9-]*)$")
_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SQL_SKIP = re.compile(r"--[^\n]*|/\*.*?\*/|'(?:[^']|'')*'", re.S)


@dataclass(frozen=True)
class Row:
    word: str
    means: str
    not_: str


@dataclass(frozen=True)
class Forbidden:
    names: tuple[str, ...]  # identifier-like tokens
    options: tuple[tuple[str, str], ...]  # (command path or "", --option)


def vocabulary(text: str) -> list[Row]:
    """The rows of the "## Vocabulary" table of ``text``."""
    section = text.split("## Vocabulary", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 3 or set(cells[0]) <= {"-"}:
            continue
        if cells[0] == "word":
            continue
        rows.append(Row(*cells))
    return rows


def forbidden(rows: Iterable[Row]) -> Forbidden:
    names: list[str] = []
    options: list[tuple[str, str]] = []
    for row in rows:
        cell = row.not_
        for tick in re.findall(r"`([^`]+)`", cell):
            if match := _OPTION.match(tick):
                options.append(((match["command"] or "").strip(), match["option"]))
            elif _NAME.match(tick):
                names.append(tick)
        prose = re.sub(r"`[^`]*`|\"[^\"]*\"", " ", cell)
        names += _SNAKE.findall(prose)
    return Forbidden(tuple(dict.fromkeys(names)), tuple(dict.fromkeys(options)))


def required(rows: Iterable[Row]) -> list[str]:
    """The words of the table and the names its "means" cells give in backticks."""
    out: list[str] = []
    for row in rows:
        out += [w.strip().replace("-", "").replace(" ", "_") for w in row.word.split("/")]
        for tick in re.findall(r"`([^`]+)`", row.means):
            if _NAME.match(tick):
                out.append(tick)
            elif _DOTTED.match(tick):
                out += tick.split(".")
    return list(dict.fromkeys(out))


def has(identifier: str, name: str) -> bool:
    """``name`` occurs in ``identifier`` as a run of whole snake_case segments."""
    ident = [s for s in identifier.lower().split("_") if s]
    want = [s for s in name.lower().split("_") if s]
    return any(ident[i : i + len(want)] == want for i in range(len(ident) - len(want) + 1))


def python_names(path: Path) -> Iterator[tuple[str, int]]:
    """Identifiers of a Python file with their lines, and its string constants that look like
    one (a column named in ``row["..."]``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name):
            yield node.id, line
        elif isinstance(node, ast.Attribute):
            yield node.attr, line
        elif isinstance(node, (ast.arg, ast.keyword)) and node.arg:
            yield node.arg, line
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name, line
        elif isinstance(node, ast.alias):
            yield (node.asname or node.name).split(".")[-1], line
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and _NAME.match(node.value)
        ):
            yield node.value, line


def sql_names(path: Path) -> Iterator[tuple[str, int]]:
    """Identifiers of a SQL file with their lines: comments and string literals removed,
    double-quoted names unquoted."""
    text = path.read_text(encoding="utf-8")
    # one pass, left to right: an apostrophe in a comment opens no string, "--" in one no comment
    text = _SQL_SKIP.sub(lambda m: "\n" * m[0].count("\n") or " ", text)
    for n, line in enumerate(text.splitlines(), start=1):
        for token in _TOKEN.findall(line.replace('"', " ")):
            yield token, n


def cli_names(group: click.Group) -> Iterator[tuple[str, str, str]]:
    """(command path, name, kind) of every command, option and argument under ``group``."""

    def walk(
        command: click.Command, path: str, ctx: click.Context
    ) -> Iterator[tuple[str, str, str]]:
        for param in command.params:
            if isinstance(param, click.Option):
                for opt in [*param.opts, *param.secondary_opts]:
                    yield path, opt, "option"
            elif param.name:
                yield path, param.name, "argument"
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                if sub is None:
                    continue
                sub_path = f"{path} {name}".strip()
                yield sub_path, name, "command"
                yield from walk(sub, sub_path, click.Context(sub, parent=ctx, info_name=name))

    yield from walk(group, "", click.Context(group, info_name="toolex"))


def schema_columns(tmp: Path) -> list[tuple[str, str]]:
    """(table, column) of a new store: every schema file applied."""
    with Store.open(tmp / "new.duckdb") as store:
        rows = store.con.execute(
            "SELECT table_name, column_name FROM information_schema.columns ORDER BY ALL"
        ).fetchall()
    return [(str(t), str(c)) for t, c in rows]


def code_violations(
    names: Iterable[str], python: Iterable[Path], sql: Iterable[Path], root: Path
) -> list[str]:
    """Each forbidden name found in the Python and SQL files, as ``path:line: identifier``."""
    found = []
    names = list(names)
    for kind, paths, reader in (("python", python, python_names), ("sql", sql, sql_names)):
        for path in sorted(paths):
            rel = path.relative_to(root).as_posix()
            for ident, line in reader(path):
                for name in names:
                    if has(ident, name) and (name, rel) not in ALLOWED:
                        found.append(f"{rel}:{line}: {ident} ({kind}; the table says not {name})")
    return found


def _rows() -> list[Row]:
    return vocabulary(CONCEPTS.read_text(encoding="utf-8"))


def _python_files() -> list[Path]:
    return [*(ROOT / "toolex").rglob("*.py"), *(ROOT / "tui").rglob("*.py")]


def _sql_files() -> list[Path]:
    return list((ROOT / "sql").rglob("*.sql"))


def test_the_table_is_read_and_names_what_it_forbids() -> None:
    rows = _rows()
    words = {r.word for r in rows}
    assert {"reference", "label", "item", "depth"} <= words
    bad = forbidden(rows)
    assert {"ref_item_id", "is_ref", "gold", "ground_truth", "repeated_labels"} <= set(bad.names)
    assert ("retrieve", "--k") in bad.options
    assert "doc" not in bad.names  # quoted prose, and rightly a column of items
    label = next(r for r in rows if r.word == "label")
    assert "`qrels`" in label.means and "`relevance`" in label.means


def test_no_forbidden_name_is_a_column_of_the_schema(tmp_path: Path) -> None:
    bad = forbidden(_rows()).names
    hits = [f"{t}.{c}" for t, c in schema_columns(tmp_path) for n in bad if has(c, n)]
    assert not hits


def test_no_forbidden_name_is_a_cli_command_or_option() -> None:
    bad = forbidden(_rows())
    hits = []
    for path, name, kind in cli_names(cli):
        ident = name.lstrip("-").replace("-", "_")
        hits += [f"{path}: {kind} {name}" for n in bad.names if has(ident, n)]
        if kind == "option":
            hits += [
                f"{path}: option {name}"
                for command, option in bad.options
                if option == name
                and (not command or command == path)
                and (name, path) not in ALLOWED
            ]
    assert not hits


def test_no_forbidden_name_is_a_python_or_sql_identifier() -> None:
    found = code_violations(forbidden(_rows()).names, _python_files(), _sql_files(), ROOT)
    assert not found, "\n".join(found)


def test_every_word_of_the_table_is_used(tmp_path: Path) -> None:
    idents = {i.lower() for p in _python_files() for i, _ in python_names(p)}
    idents |= {i.lower() for p in _sql_files() for i, _ in sql_names(p)}
    idents |= {c.lower() for _, c in schema_columns(tmp_path)}
    idents |= {n.lstrip("-").replace("-", "_") for _, n, _ in cli_names(cli)}
    missing = [w for w in required(_rows()) if not any(has(i, w) for i in idents)]
    assert not missing
    assert {"reference", "is_reference", "qrels", "relevance"} <= set(required(_rows()))


def test_the_checker_finds_a_planted_name(tmp_path: Path) -> None:
    """The check can fail: a planted old name in a Python and a SQL file is reported, by line."""
    (tmp_path / "pkg").mkdir()
    py = tmp_path / "pkg" / "bad.py"
    py.write_text('def f(row):\n    ok = 1\n    return row["ref_item_id"], row.is_ref\n')
    sql = tmp_path / "bad.sql"
    sql.write_text(
        "-- ref_item_id in a comment is prose\n"
        "SELECT s.text, 'ref_item_id' AS quoted,\n"
        "       s.ref_item_id FROM subqueries s\n"
    )
    found = code_violations(forbidden(_rows()).names, [py], [sql], tmp_path)
    assert sorted(found) == [
        "bad.sql:3: ref_item_id (sql; the table says not ref_item_id)",
        "pkg/bad.py:3: is_ref (python; the table says not is_ref)",
        "pkg/bad.py:3: ref_item_id (python; the table says not ref_item_id)",
    ]


@pytest.mark.parametrize(
    ("identifier", "name", "found"),
    [
        ("is_reference", "is_ref", False),
        ("_gold_steps", "gold", True),
        ("ref_item_ids", "ref_item_id", False),
        ("old_ref_item_id", "ref_item_id", True),
        ("REPEATED_LABELS", "repeated_labels", True),
    ],
)
def test_names_match_by_whole_segments(identifier: str, name: str, found: bool) -> None:
    assert has(identifier, name) is found
