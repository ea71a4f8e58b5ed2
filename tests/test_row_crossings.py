"""Rows that cross a package as dicts (STYLE 15, 17; issue 36): a function that returns rows as
``dict[str, Any]`` (or lists of them) and is imported by another package hands that package
string-keyed rows, so a renamed column fails at run time, far from the SQL. Each such import is
counted; the count may only fall, and lower DICT_ROWS_CEILING when it does. A typed row
(NamedTuple, frozen dataclass) ends the crossing. The tables' and SQL files' owners are
tests/test_owners.py's."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {"toolex": ROOT / "toolex", "toolex_tui": ROOT / "tui" / "toolex_tui"}
# 0 on 2026-12-07 night: the metric, main-table, retrieve, review and demo rows are typed
DICT_ROWS_CEILING = 0
# Functions returning string-keyed dicts that are not rows of a table or a SQL file, each with
# why it is not one. A name here is not counted; adding one needs its reason.
NOT_ROWS = {
    "toolex.loaders.readers.iter_dicts": (
        "a user's file, one JSON object per record as parsed: no SQL column is behind a key, and "
        "every reader takes its fields through toolex.loaders.fields' checked getters, whose "
        "errors name the file, line and field"
    ),
}


def _returns_dict_rows(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    text = ast.unparse(fn.returns) if fn.returns is not None else ""
    return "dict[str, Any]" in text or "dict[str, object]" in text


def dict_row_functions(paths: dict[str, Path]) -> dict[tuple[str, str], str]:
    """(module, function) -> package, for every top-level function returning dict rows."""
    out = {}
    for module, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _returns_dict_rows(
                node
            ):
                out[(module, node.name)] = _package_of(module)
    return out


def _package_of(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "toolex" and len(parts) > 1 else parts[0]


def dict_row_crossings(paths: dict[str, Path]) -> list[str]:
    """``importer: module.function`` for every import of a dict-row function from another
    package (imports inside functions included: a lazy import is still an arrow)."""
    functions = dict_row_functions(paths)
    by_name: dict[str, set[str]] = defaultdict(set)
    for module, name in functions:
        by_name[name].add(module)
    out = []
    for module, path in paths.items():
        own = _package_of(module)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.module:
                continue
            for alias in node.names:
                for home in by_name.get(alias.name, ()):
                    # from the module itself, or from a package above it that re-exports it
                    named = home == node.module or home.startswith(f"{node.module}.")
                    if (
                        named
                        and _package_of(home) != own
                        and f"{home}.{alias.name}" not in NOT_ROWS
                    ):
                        out.append(f"{module}: {home}.{alias.name}")
    return sorted(set(out))


def _module_paths() -> dict[str, Path]:
    out = {}
    for root in SOURCES.values():
        base = root.parent
        for path in sorted(root.rglob("*.py")):
            parts = path.relative_to(base).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def test_the_crossing_check_sees_dict_rows_imported_by_another_package(tmp_path: Path) -> None:
    files = {
        "toolex.runs.write": "from typing import Any\n"
        "def list_runs(store) -> list[dict[str, Any]]: ...\n"
        "def typed(store) -> list[int]: ...\n",
        "toolex.runs.other": "from toolex.runs.write import list_runs\n",  # same package: fine
        "toolex.cli.info": "from toolex.runs.write import list_runs, typed\n",
        "toolex.cli.lazy": "def f():\n    from toolex.runs.write import list_runs\n",
        "toolex.cli.runs": "from toolex.runs import list_runs\n",  # re-exported by the package
    }
    paths = {}
    for module, text in files.items():
        paths[module] = tmp_path / f"{module}.py"
        paths[module].write_text(text)
    assert dict_row_crossings(paths) == [
        "toolex.cli.info: toolex.runs.write.list_runs",
        "toolex.cli.lazy: toolex.runs.write.list_runs",
        "toolex.cli.runs: toolex.runs.write.list_runs",
    ]


def test_dict_rows_cross_packages_only_less_often() -> None:
    found = dict_row_crossings(_module_paths())
    assert len(found) <= DICT_ROWS_CEILING, (
        f"{len(found)} imports of functions returning dict rows from another package (ceiling "
        f"{DICT_ROWS_CEILING}); return typed rows instead:\n  " + "\n  ".join(found)
    )


def test_every_exemption_names_a_dict_returning_function_that_exists() -> None:
    # A renamed or typed function leaves its exemption behind: it must go with it.
    functions = {f"{module}.{name}" for module, name in dict_row_functions(_module_paths())}
    assert set(NOT_ROWS) <= functions, set(NOT_ROWS) - functions
