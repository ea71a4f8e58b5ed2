"""TUI fixtures: the StableToolBench fixture store is built once per session (about a second),
and each test gets its own copy, so review tests can write without affecting others."""

from __future__ import annotations

import re
import shutil
from collections.abc import Awaitable, Callable, Iterable, Iterator
from pathlib import Path, PurePath
from typing import Any, Protocol

import pytest
import pytest_textual_snapshot
from textual.app import App
from textual.pilot import Pilot

from toolex.store import Store

from .fixtures import build_store

# A snapshot compares what the screen shows, not how Rich happened to cut it into segments. A
# segment of no text still becomes a <rect width="0"> in the SVG, and whether a row carries one
# depended on how many times the page was drawn before the screenshot: on a loaded machine the
# query page, whose reads finish while it mounts, was drawn once more and test_query_detail
# failed with every cell the same (issue 34). Those rects paint nothing, so both sides of the
# comparison drop them (the plugin normalizes the stored and the taken SVG through this name).
_ZERO_WIDTH_RECT = re.compile(r'<rect [^>]*\bwidth="0"[^>]*/>\s*')
_plugin_normalize = pytest_textual_snapshot.normalize_svg


def _normalize_svg(svg: str) -> str:
    return _ZERO_WIDTH_RECT.sub("", _plugin_normalize(svg))


pytest_textual_snapshot.normalize_svg = _normalize_svg


class SnapCompare(Protocol):
    """pytest-textual-snapshot's ``snap_compare``: the plugin annotates the fixture as taking
    only the app, while the function it returns also takes these keywords."""

    def __call__(
        self,
        app: str | PurePath | App[Any],
        press: Iterable[str] = (),
        terminal_size: tuple[int, int] = (80, 24),
        run_before: Callable[[Pilot[Any]], Awaitable[None] | None] | None = None,
    ) -> bool: ...


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"  # Textual runs on asyncio; the anyio plugin runs the async tests


@pytest.fixture(scope="session")
def fixture_db(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tui-store") / "stb.duckdb"
    build_store(path, shared_data).close()
    return path


@pytest.fixture
def db_copy(fixture_db: Path, tmp_path: Path) -> Path:
    dst = tmp_path / "stb.duckdb"
    shutil.copyfile(fixture_db, dst)
    return dst


@pytest.fixture
def ro_store(fixture_db: Path) -> Iterator[Store]:
    store = Store.open(fixture_db, read_only=True)
    yield store
    store.close()


@pytest.fixture
def rw_store(db_copy: Path) -> Iterator[Store]:
    store = Store.open(db_copy)
    yield store
    store.close()


# Two runs: one name that fits a run column at 80 columns, one longer than it (issue 25.9).
TOOLRET_RUNS = ("bm25-instruction-pooled", "bm25-pooled-library-query-level-run")


@pytest.fixture(scope="session")
def toolret_db(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ToolRet's apibank task as toolex builds it (opaque ids such as ``apibank_tool_33``, each
    with a name), expanded by the offline judge, with two BM25 runs."""
    from click.testing import CliRunner

    from toolex.cli import cli

    path = tmp_path_factory.mktemp("toolret") / "toolret.duckdb"
    db = ["--db", str(path), "-q"]
    steps = [
        ["load", "toolret", str(shared_data / "toolret"), "--task", "apibank"],
        ["expand", "--benchmark", "toolret", "--judge", "heuristic"],
        *(
            ["retrieve", "--benchmark", "toolret", "--retriever", "bm25", "--run", run]
            for run in TOOLRET_RUNS
        ),
    ]
    for args in steps:
        done = CliRunner().invoke(cli, [*args, *db])
        assert done.exit_code == 0, (args, done.output, done.exception)
    return path


@pytest.fixture
def toolret_store(toolret_db: Path) -> Iterator[Store]:
    store = Store.open(toolret_db, read_only=True)
    yield store
    store.close()
