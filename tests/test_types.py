"""The type checker's ratchet: mypy runs strict on every package (pyproject.toml), and the
parameters typed plain ``Any`` may only become fewer.

A parameter typed ``Any`` is a row or an object the checker cannot see into: a renamed column or
a missing method passes silently. Where rows cross a package they become typed records
(NamedTuples, frozen dataclasses: ``toolex.expansions.records``, ``toolex.labels.records``), and
this count falls. When it falls, lower ``CEILING`` to the new count in the same change, so that it
cannot creep back.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CEILING = 15  # parameters typed exactly `Any` in toolex/ (108 at issue 23, 97 before issue 36)


def any_parameters(root: Path) -> list[str]:
    """``path:line name`` of every function parameter annotated exactly ``Any`` under root."""
    out = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            args = node.args
            for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
                if arg.annotation is not None and ast.unparse(arg.annotation) == "Any":
                    out.append(f"{path.relative_to(root)}:{arg.lineno} {arg.arg}")
    return out


def test_the_reader_counts_parameters_typed_any(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "from typing import Any\n"
        "def f(a: Any, b: int, *c: Any, d: dict[str, Any], e: Any = None) -> Any: ...\n"
        "class K:\n    def g(self, x: Any) -> None: ...\n"
    )
    found = [line.rsplit(" ", 1)[1] for line in any_parameters(tmp_path)]
    assert sorted(found) == ["a", "e", "x"]


def test_parameters_typed_any_only_become_fewer() -> None:
    found = any_parameters(ROOT / "toolex")
    assert len(found) <= CEILING, (
        f"{len(found)} parameters are typed Any (ceiling {CEILING}); type the new ones with a "
        "record or a protocol:\n  " + "\n  ".join(found)
    )
    assert len(found) == CEILING, (
        f"only {len(found)} parameters are typed Any now: lower CEILING in tests/test_types.py "
        f"from {CEILING} to {len(found)} so the count cannot rise again"
    )
