"""TUI fixtures: the StableToolBench fixture store is built once per session (about a second),
and each test gets its own copy, so review tests can write without affecting others."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from toolex.store import Store

from .fixtures import build_store


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
def ro_store(fixture_db: Path) -> Store:
    store = Store.open(fixture_db, read_only=True)
    yield store
    store.close()


@pytest.fixture
def rw_store(db_copy: Path) -> Store:
    store = Store.open(db_copy)
    yield store
    store.close()
