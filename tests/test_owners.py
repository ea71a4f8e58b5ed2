"""Every stored table has one owner: one package writes it, from one SQL folder (STYLE 11, 14).

What import-linter is for imports, this is for tables. It reads the target of every INSERT,
UPDATE, DELETE, MERGE, COPY ... FROM and CREATE TABLE in the shipped SQL (sqlglot's parse, not a
regex) and in every string of the Python sources, finds which package runs each SQL file (the
file's path named in a module's strings), and fails when two packages, or two SQL folders, write
one table. Schema migrations (sql/schema/) may rebuild any table and belong to the store.

Reads follow the same rule (STYLE 17): each folder of sql/ has one owning package
(``SQL_OWNERS``), and only that package's code names the folder's files, so a package that needs
another's rows calls the owner's typed query function instead of running its SQL.

A write file that no module names cannot be given an owner, so it fails too: a file run through
a computed name must be named by its folder prefix plus its stem or file name somewhere in the
package that runs it (``f"reports/{name}"`` with ``"71_significance_run_diffs.sql"``), or be run
as a whole folder (``f"metrics/{path.name}"`` over ``sql_files("metrics")``).

Rows that cross a package as dicts, the other half of a read's ownership, are counted in
tests/test_row_crossings.py (``make owners`` runs both).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import sqlglot
from sqlglot import exp

from toolex.resources import resource_root
from toolex.store import Store

ROOT = Path(__file__).resolve().parents[1]
SQL_ROOT = resource_root("sql")
SOURCES = {"toolex": ROOT / "toolex", "toolex_tui": ROOT / "tui" / "toolex_tui"}
MIGRATIONS = "schema"  # rebuilds tables as the schema changes: the store's own folder
# sql/<folder> -> the one package whose code may name its files (read or write). A new folder
# fails test_every_sql_folder_has_an_owner until it is given its owner here.
SQL_OWNERS = {
    "browse": "toolex_tui",
    "checks": "toolex.checks",
    "expansions": "toolex.expansions",
    "exports": "toolex.exports",
    "judges": "toolex.judges",
    "labels": "toolex.labels",
    "llm": "toolex.llm",
    "load": "toolex.loaders",
    "metrics": "toolex.metrics",
    "reports": "toolex.reports",
    "retrieval": "toolex.retrieval",
    "review": "toolex.review",
    "runs": "toolex.runs",
    MIGRATIONS: "toolex.store",
    "stages": "toolex.pipeline",
    "store": "toolex.store",
}


@dataclass(frozen=True)
class Write:
    table: str
    where: str  # the SQL file (relative to sql/) or the Python module that holds the statement


def write_targets(sql: str) -> tuple[set[str], set[str]]:
    """(tables written, temporary tables created) by one SQL text."""
    written: set[str] = set()
    temporary: set[str] = set()
    for statement in sqlglot.parse(sql, read="duckdb"):
        if statement is None:
            continue
        for node in statement.walk():
            target = _target(node)
            if isinstance(node, exp.Create) and _temporary(node):
                temporary.add(target or "")
            elif target:
                written.add(target)
    return written, temporary - {""}


def _target(node: exp.Expr) -> str | None:
    if isinstance(node, exp.Copy):
        # COPY t FROM 'file' fills t; COPY t TO / COPY (SELECT ..) TO only read.
        table = node.this if node.args.get("kind") else None
    elif isinstance(node, exp.Create):
        table = node.this.find(exp.Table) if node.args.get("kind") == "TABLE" else None
    elif isinstance(node, exp.Insert | exp.Update | exp.Delete | exp.Merge):
        table = node.this.find(exp.Table) if node.this is not None else None
    else:
        return None
    return table.name.lower() if isinstance(table, exp.Table) else None


def _temporary(node: exp.Create) -> bool:
    props = node.args.get("properties")
    return (
        props is not None
        and bool(props)
        and any(isinstance(p, exp.TemporaryProperty) for p in props.expressions)
    )


@dataclass
class Module:
    package: str
    path: Path
    strings: set[str]  # every string constant
    prefixes: set[str]  # the leading text of every f-string
    folder_runs: set[str]  # folders run whole: f"<folder>/{path.name}"


def _package(root_name: str, path: Path) -> str:
    parts = path.relative_to(SOURCES[root_name]).with_suffix("").parts
    if root_name != "toolex":
        return root_name
    return f"toolex.{parts[0]}" if parts[0] != "__init__" else "toolex"


def read_modules() -> list[Module]:
    out = []
    for root_name, root in SOURCES.items():
        for path in sorted(root.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            strings, prefixes, folders = set(), set(), set()
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    strings.add(node.value)
                elif isinstance(node, ast.JoinedStr) and node.values:
                    first = node.values[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        prefixes.add(first.value)
                        rest = node.values[1:]
                        if (
                            first.value.endswith("/")
                            and len(rest) == 1
                            and isinstance(rest[0], ast.FormattedValue)
                            and isinstance(rest[0].value, ast.Attribute)
                            and rest[0].value.attr == "name"
                        ):
                            folders.add(first.value.rstrip("/"))
            out.append(Module(_package(root_name, path), path, strings, prefixes, folders))
    return out


def runners(name: str, modules: list[Module]) -> set[str]:
    """The packages whose code names the SQL file ``name`` (relative to sql/)."""
    by_package: dict[str, list[Module]] = defaultdict(list)
    for m in modules:
        by_package[m.package].append(m)
    return {package for package, members in by_package.items() if _names(members, name)}


def _names(members: list[Module], name: str) -> bool:
    folder, _, base = name.rpartition("/")
    strings = set().union(*(m.strings for m in members))
    if name in strings or name.removesuffix(".sql") in strings:
        return True
    if any(folder in m.folder_runs for m in members):
        return True
    prefixes = set().union(*(m.prefixes for m in members))
    computed = any(p.endswith("/") and f"{folder}/".startswith(p) for p in prefixes)
    return computed and (base in strings or base.removesuffix(".sql") in strings)


def schema_tables() -> set[str]:
    with Store.memory() as store:
        return {r["table_name"].lower() for r in store.rows("store/41_tables.sql")}


@cache
def collect() -> tuple[dict[str, set[tuple[str, str]]], set[str], list[str]]:
    """table -> {(package, sql folder or module)}, temporary tables, write files nobody runs."""
    modules = read_modules()
    writes: dict[str, set[tuple[str, str]]] = defaultdict(set)
    temporary: set[str] = set()
    orphans = []
    for path in sorted(SQL_ROOT.rglob("*.sql")):
        name = path.relative_to(SQL_ROOT).as_posix()
        written, temp = write_targets(path.read_text(encoding="utf-8"))
        temporary |= temp
        if name.startswith(f"{MIGRATIONS}/") or not written:
            continue
        packages = runners(name, modules)
        if not packages:
            orphans.append(name)
        folder = name.rpartition("/")[0]
        for table in written:
            for package in packages:
                writes[table].add((package, f"sql/{folder}"))
    for m in modules:
        for text in m.strings:
            if not _looks_like_sql(text):
                continue
            written, temp = write_targets(text)
            temporary |= temp
            for table in written:
                writes[table].add((m.package, str(m.path.relative_to(ROOT))))
    return writes, temporary, orphans


# How a statement that writes begins (prose that merely names one, "CREATE TEMP TABLE becomes a
# view", has no table name where the statement would).
_WRITE_HEAD = re.compile(
    r"^\s*(WITH\s|INSERT\s+(OR\s+\w+\s+)?INTO\s+\w+|DELETE\s+FROM\s+\w+|UPDATE\s+\w+\s+SET\s"
    r"|COPY\s+\w+\s+FROM\s|MERGE\s+INTO\s|CREATE\s+(OR\s+REPLACE\s+)?(TEMP\w*\s+)?TABLE\s+\w+\s+AS\s)"
)


def _looks_like_sql(text: str) -> bool:
    if not _WRITE_HEAD.match(text):
        return False
    try:
        sqlglot.parse(text, read="duckdb")
    except sqlglot.errors.ParseError:
        return False
    return True


def test_the_reader_sees_every_kind_of_write() -> None:
    sql = """
        INSERT OR REPLACE INTO a SELECT 1; UPDATE b SET x = 1; DELETE FROM c USING d;
        COPY e FROM 'f.parquet'; COPY g TO 'g.csv'; COPY (SELECT 1) TO 'h.csv';
        CREATE TEMP TABLE t AS SELECT 1; CREATE OR REPLACE TABLE i AS SELECT 1;
        WITH w AS (SELECT 1) INSERT INTO j SELECT * FROM w;
        MERGE INTO k USING w ON k.a = w.a WHEN MATCHED THEN DELETE;
    """
    assert write_targets(sql) == ({"a", "b", "c", "e", "i", "j", "k"}, {"t"})


def test_a_file_is_run_by_the_packages_that_name_it() -> None:
    def module(
        package: str,
        strings: Iterable[str] = (),
        prefixes: Iterable[str] = (),
        folders: Iterable[str] = (),
    ) -> Module:
        return Module(package, Path(package), set(strings), set(prefixes), set(folders))

    modules = [
        module("toolex.a", strings={"stages/1_decompose/11_insert.sql"}),
        module("toolex.b", strings={"12_more"}, prefixes={"stages/1_decompose/"}),
        module("toolex.c", folders={"metrics"}),
        module("toolex.d", strings={"11_insert.sql"}),  # a name without its folder: not a run
    ]
    assert runners("stages/1_decompose/11_insert.sql", modules) == {"toolex.a"}
    assert runners("stages/1_decompose/12_more.sql", modules) == {"toolex.b"}
    assert runners("metrics/010_x.sql", modules) == {"toolex.c"}
    assert runners("stages/2_candidates/12_more.sql", modules) == set()


def test_every_write_file_is_run_by_some_package() -> None:
    _, _, orphans = collect()
    assert not orphans, f"SQL files that write but that no module names: {orphans}"


def test_every_table_has_one_writing_package_and_one_sql_folder() -> None:
    writes, temporary, _ = collect()
    tables = schema_tables()
    unknown = sorted(set(writes) - tables - temporary)
    assert not unknown, f"writes to tables that are neither in the schema nor temporary: {unknown}"
    shared = {}
    for table in sorted(set(writes) & tables):
        packages = {p for p, _ in writes[table]}
        folders = {w for _, w in writes[table] if w.startswith("sql/")}
        top = {f.split("/")[1] for f in folders}
        if len(packages) > 1 or len(top) > 1:
            shared[table] = sorted(writes[table])
    assert not shared, "tables written by more than one package or SQL folder:\n" + "\n".join(
        f"  {t}: {w}" for t, w in shared.items()
    )


def foreign_readers(names: list[str], modules: list[Module]) -> dict[str, list[str]]:
    """SQL file -> the packages other than its folder's owner whose code names it."""
    out = {}
    for name in names:
        owner = SQL_OWNERS.get(name.split("/", 1)[0])
        others = sorted(runners(name, modules) - {owner})
        if others:
            out[name] = others
    return out


def _sql_names() -> list[str]:
    return [p.relative_to(SQL_ROOT).as_posix() for p in sorted(SQL_ROOT.rglob("*.sql"))]


def test_every_sql_folder_has_an_owner() -> None:
    folders = {name.split("/", 1)[0] for name in _sql_names()}
    assert folders <= set(SQL_OWNERS), (
        f"give these sql/ folders an owner: {folders - set(SQL_OWNERS)}"
    )


def test_the_read_check_names_a_package_reading_another_packages_sql() -> None:
    def module(package: str, strings: Iterable[str] = ()) -> Module:
        return Module(package, Path(package), set(strings), set(), set())

    modules = [
        module("toolex.pipeline", strings={"stages/0_run/02_select_queries.sql"}),
        # a layer below the pipeline running the pipeline's file: the read the issue found
        module("toolex.judges", strings={"stages/0_run/02_select_queries.sql"}),
        module("toolex.cli", strings={"store/20_table_counts.sql"}),
        module("toolex.store", strings={"store/20_table_counts.sql"}),
    ]
    names = ["stages/0_run/02_select_queries.sql", "store/20_table_counts.sql"]
    assert foreign_readers(names, modules) == {
        "stages/0_run/02_select_queries.sql": ["toolex.judges"],
        "store/20_table_counts.sql": ["toolex.cli"],
    }
    assert foreign_readers(names, modules[::3]) == {}


def test_only_the_owning_package_names_a_sql_file() -> None:
    foreign = foreign_readers(_sql_names(), read_modules())
    assert not foreign, (
        "SQL files named outside their folder's package (call the owner's query function):\n"
        + "\n".join(f"  {name}: {', '.join(p)}" for name, p in foreign.items())
    )
