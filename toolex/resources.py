"""Locate the shipped SQL, prompt and data files, in a checkout and in an installed wheel.

The repository keeps ``sql/`` and ``prompts/`` at the top level (one source of truth, easy to read
and diff); the wheel force-includes them as ``toolex/_resources/``. Lookup tries the packaged copy
first so an installed toolex never reads a stray checkout.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def resource_root(kind: str) -> Path:
    """Folder holding the ``kind`` resources (``"sql"`` or ``"prompts"``)."""
    if kind not in ("sql", "prompts"):
        raise ValueError(f"unknown resource kind {kind!r}")
    for candidate in (_PACKAGE / "_resources" / kind, _PACKAGE.parent / kind):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"toolex cannot find its {kind}/ files (looked in {_PACKAGE / '_resources'} and "
        f"{_PACKAGE.parent}); the installation is incomplete, reinstall toolex"
    )


def sql_path(name: str) -> Path:
    """Path of a shipped SQL file, e.g. ``sql_path("schema/001_base.sql")``."""
    path = resource_root("sql") / name
    if not path.is_file():
        raise FileNotFoundError(f"no shipped SQL file {name!r} under {resource_root('sql')}")
    return path


@cache
def sql_text(name: str) -> str:
    return sql_path(name).read_text(encoding="utf-8")


def sql_files(folder: str) -> list[Path]:
    """The ``.sql`` files of one folder under sql/, in file-name (stage-number) order."""
    root = resource_root("sql") / folder
    return sorted(root.glob("*.sql")) if root.is_dir() else []


def prompt_path(name: str) -> Path:
    path = resource_root("prompts") / name
    if not path.is_file():
        raise FileNotFoundError(f"no shipped prompt {name!r} under {resource_root('prompts')}")
    return path


def data_path(name: str) -> Path:
    """Package data bundled under toolex/data (the sample benchmark)."""
    return _PACKAGE / "data" / name
