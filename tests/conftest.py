"""Shared fixtures. Data from ../shared is optional on a user's machine but required in CI."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from toolex.store import Store

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SHARED_DATA = SHARED / "data"
SHARED_MODEL = SHARED / "models" / "all-MiniLM-L6-v2-onnx-int8"
IN_CI = os.environ.get("CI", "").lower() == "true"


def _need(path: Path, what: str) -> Path:
    if path.exists():
        return path
    if IN_CI:
        pytest.fail(f"{what} is missing at {path}; CI must have ../shared beside the checkout")
    pytest.skip(f"{what} not found at {path}")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """../shared/data (ToolRet tasks, StableToolBench)."""
    return _need(SHARED_DATA, "the shared benchmark data")


@pytest.fixture(scope="session")
def shared_model() -> Path:
    """../shared/models/all-MiniLM-L6-v2-onnx-int8 (fastembed, offline)."""
    return _need(SHARED_MODEL, "the shared MiniLM ONNX model")


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store.open(tmp_path / "t.duckdb")
    yield s
    s.close()
