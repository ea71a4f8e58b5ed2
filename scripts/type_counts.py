"""Counts of what makes the code hard to follow, over toolex/ and tui/ (issue 36).

``python scripts/type_counts.py`` prints one line per count; ``--list NAME`` prints where each
hit of one count is. ``tests/test_type_counts.py`` pins every count at or under a ceiling, so a
count can only fall; lower the ceiling there when it does.

What is counted (Python read with ``ast``; complexity by ruff's C901 at its default, 10):
- ``any_params``: function parameters whose annotation names ``Any`` anywhere (``dict[str, Any]``
  counts), *args and **kwargs included.
- ``any_returns``: return annotations naming ``Any`` anywhere.
- ``long_functions``: functions over 60 lines (``def`` line to last line).
- ``many_params``: functions with more than 5 parameters (``self``/``cls`` not counted).
- ``complex``: ruff C901 hits.
- ``judge_getattr``: ``getattr``/``hasattr`` whose first argument is a judge (a name or attribute
  ending in ``judge``) or a judge's attribute (``judge.spend``, ``self.spend``, ``judge.client``).
- ``bench_duckdb``: direct DuckDB connections in benchmarks/ (``duckdb.connect``, ``.con``,
  ``._con``, ``.connection``).
- ``long_modules``: modules over 400 lines.
- ``row_subscripts``: ``x["literal"]`` subscripts whose value is named ``row``/``r``/``rec``
  or ends in ``row``.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (ROOT / "toolex", ROOT / "tui")
BENCHMARKS = ROOT / "benchmarks"
LONG_FUNCTION = 60  # lines
MANY_PARAMS = 5
LONG_MODULE = 400  # lines
JUDGE_FIELDS = {"spend", "client", "policy", "config", "embedding", "budget"}
ROW_NAMES = {"row", "r", "rec", "record"}

Function = ast.FunctionDef | ast.AsyncFunctionDef


def python_files(roots: tuple[Path, ...] = SOURCES) -> list[Path]:
    return sorted(p for root in roots for p in root.rglob("*.py") if ".venv" not in p.parts)


def _relative(path: Path) -> Path:
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def _where(path: Path, node: ast.AST, what: str = "") -> str:
    line = getattr(node, "lineno", 0)
    return f"{_relative(path)}:{line}{' ' + what if what else ''}"


def _names_any(annotation: ast.expr | None) -> bool:
    if annotation is None:
        return False
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return False
    for node in ast.walk(annotation):
        if isinstance(node, ast.Name) and node.id == "Any":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "Any":
            return True
    return False


def _functions(tree: ast.AST) -> Iterator[Function]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _params(fn: Function) -> list[ast.arg]:
    a = fn.args
    out = [*a.posonlyargs, *a.args, *a.kwonlyargs]
    out += [x for x in (a.vararg, a.kwarg) if x is not None]
    return out


def any_params(path: Path, tree: ast.AST) -> list[str]:
    return [
        _where(path, arg, f"{fn.name}({arg.arg})")
        for fn in _functions(tree)
        for arg in _params(fn)
        if _names_any(arg.annotation)
    ]


def any_returns(path: Path, tree: ast.AST) -> list[str]:
    return [_where(path, fn, fn.name) for fn in _functions(tree) if _names_any(fn.returns)]


def long_functions(path: Path, tree: ast.AST) -> list[str]:
    out = []
    for fn in _functions(tree):
        lines = (fn.end_lineno or fn.lineno) - fn.lineno + 1
        if lines > LONG_FUNCTION:
            out.append(_where(path, fn, f"{fn.name} {lines} lines"))
    return out


def many_params(path: Path, tree: ast.AST) -> list[str]:
    out = []
    for fn in _functions(tree):
        names = [a.arg for a in _params(fn) if a.arg not in ("self", "cls")]
        if len(names) > MANY_PARAMS:
            out.append(_where(path, fn, f"{fn.name} {len(names)} params"))
    return out


def _judge_like(node: ast.expr) -> bool:
    if isinstance(node, ast.Subscript):  # judges["verify"]
        node = node.value
    if isinstance(node, ast.Name):
        return node.id.endswith("judge") or node.id == "judges"
    if isinstance(node, ast.Attribute):
        if node.attr.endswith("judge") or node.attr == "judges":
            return True
        return (
            node.attr in JUDGE_FIELDS
            and _judge_like(node.value)
            or (
                node.attr == "spend"
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
            )
        )
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        # getattr(getattr(judge, "client", None), "model", None)
        return node.func.id == "getattr" and bool(node.args) and _judge_like(node.args[0])
    return False


def judge_getattr(path: Path, tree: ast.AST) -> list[str]:
    out = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and node.args
            and _judge_like(node.args[0])
        ):
            out.append(_where(path, node, ast.unparse(node)[:70]))
    return out


def bench_duckdb(path: Path, tree: ast.AST) -> list[str]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and (
            node.attr in ("con", "_con", "connection")
            or (
                node.attr == "connect"
                and isinstance(node.value, ast.Name)
                and node.value.id == "duckdb"
            )
        ):
            out.append(_where(path, node, ast.unparse(node)[:70]))
    return out


def long_modules(path: Path, tree: ast.AST) -> list[str]:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    return [f"{_relative(path)} {lines} lines"] if lines > LONG_MODULE else []


def _row_like(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id in ROW_NAMES or node.id.endswith("row")
    if isinstance(node, ast.Attribute):
        return node.attr in ROW_NAMES or node.attr.endswith("row")
    return False


def row_subscripts(path: Path, tree: ast.AST) -> list[str]:
    return [
        _where(path, node, ast.unparse(node))
        for node in ast.walk(tree)
        if isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
        and _row_like(node.value)
    ]


def complex_functions(roots: tuple[Path, ...] = SOURCES) -> list[str]:
    """ruff's C901 hits (McCabe complexity over 10), as ``path:line name``."""
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--isolated",
            "--select",
            "C901",
            "--output-format",
            "json",
            *map(str, roots),
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    hits = json.loads(run.stdout or "[]")
    return sorted(
        f"{Path(h['filename']).relative_to(ROOT)}:{h['location']['row']} {h['message']}"
        for h in hits
    )


Counter = Callable[[Path, ast.AST], list[str]]
PER_FILE: dict[str, tuple[Counter, tuple[Path, ...]]] = {
    "any_params": (any_params, SOURCES),
    "any_returns": (any_returns, SOURCES),
    "long_functions": (long_functions, SOURCES),
    "many_params": (many_params, SOURCES),
    "judge_getattr": (judge_getattr, SOURCES),
    "bench_duckdb": (bench_duckdb, (BENCHMARKS,)),
    "long_modules": (long_modules, SOURCES),
    "row_subscripts": (row_subscripts, SOURCES),
}
NAMES = [*PER_FILE, "complex"]


def hits(name: str) -> list[str]:
    """Where each hit of one count is."""
    if name == "complex":
        return complex_functions()
    counter, roots = PER_FILE[name]
    out: list[str] = []
    for path in python_files(roots):
        out += counter(path, ast.parse(path.read_text(encoding="utf-8")))
    return out


def counts() -> dict[str, int]:
    return {name: len(hits(name)) for name in NAMES}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", choices=NAMES, help="print where each hit of one count is")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(hits(args.list)))
        return 0
    for name, n in counts().items():
        print(f"{name:15} {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
