"""Shared fixtures. Data from ../shared is optional on a user's machine but required in CI."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
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
def stb_expansion(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
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


@pytest.fixture(scope="session")
def empty_store_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store file at the latest schema with nothing in it, made once per worker. A new store
    runs every migration on its first open (about 70 CPU-ms); a copy of this one opens in a
    third of that, and about 500 tests take ``store``."""
    path = tmp_path_factory.mktemp("empty-store") / "t.duckdb"
    Store.open(path).close()
    return path


@pytest.fixture
def store(empty_store_file: Path, tmp_path: Path) -> Iterator[Store]:
    """A store of the test's own: a copy of the empty one, with its commit record (so it opens
    as the store a first open would have left; only ``Store.created`` differs, which the tests
    of a command's first open exercise on paths of their own)."""
    path = tmp_path / "t.duckdb"
    for suffix in ("", ".commits"):
        made = empty_store_file.with_name(empty_store_file.name + suffix)
        if made.exists():
            shutil.copyfile(made, path.with_name(path.name + suffix))
    s = Store.open(path)
    yield s
    s.close()


# The files that take longest, longest first (seconds: the wall of the file's tests in a 3-worker
# run at load 6-9, 2026-12-08, 1,995 tests in 608 s, pytest --durations=0). Where a file starts
# decides only when the suite ends, never what it checks: a file missing from here (renamed, or
# newly slow) runs among the other slow ones. The Tour's chains lead although two files took
# longer at that load: a chain is one test that no worker can share, and its wall grows most with
# load (at load 15-20 the toolink chain alone took 460 s of one worker, 2026-12-07). The files
# after them were missing from the list of that evening (test_damaged_store, test_damaged_wal,
# test_snapshot, test_sqlaccess, ...) and could start last and end the suite alone.
LONGEST_FIRST = (
    "tests/tour/test_toolret.py",  # 49
    "tests/tour/test_toolink.py",  # 37
    "tests/tour/test_stabletoolbench.py",  # 33
    "tests/tour/test_toolret_models.py",  # 16
    "tests/attacks/test_damaged_store.py",  # 59
    "tests/attacks/test_damaged_wal.py",  # 52
    "tests/cli/test_judges.py",  # 47
    "tests/attacks/test_servers_round2.py",  # 46 (before its children inherited the SDKs)
    "tests/llm/test_llm_bench.py",  # 39
    "tests/cli/test_process.py",  # 39
    "tests/attacks/test_snapshot.py",  # 39
    "tests/engines/test_spark.py",  # 37
    "tests/test_sqlaccess.py",  # 36
    "tests/llm/test_llm_faults.py",  # 36
    "tests/attacks/test_damaged_store_tui.py",  # 33
    "tests/llm/test_llm_sigkill.py",  # 32
    "tests/attacks/test_wrong_numbers.py",  # 29
    "tests/attacks/test_store_files_round2.py",  # 29
    "tests/llm/test_llm_timeouts.py",  # 27
    "tests/cli/test_width_80.py",  # 27
    "tests/attacks/test_signals_round2.py",  # 27
    "tests/attacks/test_damaged_index.py",  # 25
    "tests/attacks/test_secrets_echoed.py",  # 23
    "tests/judges/test_evidence_bulk.py",  # 22
    "tests/judges/test_decomposer.py",  # 21
    "tests/tui/test_verdict_review_round.py",  # 20
    "tests/attacks/test_memory.py",  # 17
    "tests/attacks/test_inputs.py",  # 16
    "tests/attacks/test_no_outcome.py",  # 14 (before its children were forked)
    "tests/attacks/test_outputs_round2.py",  # 11
    "tests/llm/test_llm_exit_codes.py",  # 10
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest files first (LONGEST_FIRST, in its order), then the other files with a test
    marked slow, then the rest in collection order. pytest-xdist hands out whole files
    (--dist loadfile) in this order (pyproject's --no-loadscope-reorder: by default xdist
    re-sorts the files by their number of tests, which put the one-test Tour chains last and
    left the other workers idle while the 3-minute chain ran alone at the end)."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    rank = {ROOT / name: at for at, name in enumerate(LONGEST_FIRST)}

    def order(item: pytest.Item) -> int:
        if item.path in rank:
            return rank[item.path]
        return len(rank) + (item.path not in slow)

    items.sort(key=order)  # stable: the rest keeps its order


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
