"""Imports point down: toolex.runs (the run tables, RRF) sits below toolex.retrieval (the
retrievers), and neither package has an import circle, lazy imports inside functions included."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("toolex.retrieval", "toolex.runs")


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> dict[str, set[str]]:
    """module -> the toolex modules it imports (any import statement, at any depth)."""
    graph: dict[str, set[str]] = {}
    for path in sorted((ROOT / "toolex").rglob("*.py")):
        name = _module(path)
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets.add(node.module)
                targets.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
        graph[name] = {t for t in targets if t.startswith("toolex")}
    return {m: {t for t in ts if t in graph and t != m} for m, ts in graph.items()}


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_runs_never_imports_retrieval() -> None:
    graph = _graph()
    up = {
        m: sorted(t for t in ts if _in(t, "toolex.retrieval"))
        for m, ts in graph.items()
        if _in(m, "toolex.runs")
    }
    assert not {m: ts for m, ts in up.items() if ts}


def test_no_import_circle_in_retrieval_or_runs() -> None:
    graph = _graph()
    inside = {m for m in graph if any(_in(m, p) for p in PACKAGES)}
    # a package __init__ re-exporting its modules is not an arrow back up from those modules
    edges = {m: {t for t in graph[m] if t in inside and not _in(m, t)} for m in inside}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(edges[m]):
            if state.get(t) == 1:
                raise AssertionError(" -> ".join([*stack[stack.index(t) :], t]))
            if t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(inside):
        if m not in state:
            visit(m)
