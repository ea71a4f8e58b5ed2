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


@pytest.fixture(scope="session")
def stb_expansion(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Store:
    """The shared StableToolBench expansion: the whole benchmark loaded (its pooled library) and
    the group G1_tool expanded as `toolex expand --judge heuristic` does (about 5 s). On the
    whole benchmark, that group holds every export task that lost a relevant API (16 of 287)
    and every alternative that repeated a tool set (23); tests that add rows use an expansion
    of their own."""
    from toolex.judges.heuristic import HeuristicJudge
    from toolex.loaders import load_stabletoolbench
    from toolex.pipeline.runner import run_expansion

    s = Store.open(tmp_path_factory.mktemp("stb_expansion") / "stb.duckdb")
    load_stabletoolbench(s, shared_data / "stabletoolbench", name="stabletoolbench")
    judge = HeuristicJudge(s, benchmark="stabletoolbench")
    run_expansion(s, "stabletoolbench", judge, task="G1_tool")
    yield s
    s.close()


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store.open(tmp_path / "t.duckdb")
    yield s
    s.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files with a test marked slow run first. pytest-xdist hands out whole files
    (--dist loadfile) in this order, so a long file starting last would leave the other cores
    idle at the end (the README's Tour alone takes about a minute)."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)  # stable: the rest keeps its order


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): one worker per core, plus one. A good part of the suite
    waits rather than computes (scripted LLM servers with delays, CLI subprocesses, Spark's JVM),
    and one worker per core left the cores ~20% idle. On the 2-core machine: 259 s with 2
    workers, 226 s with 3 and the slow files first."""
    try:
        cores = len(os.sched_getaffinity(0))  # the cores this process may use (containers)
    except AttributeError:  # no sched_getaffinity (macOS, Windows)
        cores = os.cpu_count() or 1
    return cores + 1
