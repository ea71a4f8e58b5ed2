"""Memory: a big single-line input must not cost many times its size. Each format is loaded
in a fresh interpreter (benchmarks/bench_loader_memory.py) and its peak resident memory over
the interpreter's own is held to a bound measured with room: 8 MB inputs, where the fixed
costs of a load still weigh (at 50 MB the README's figure applies)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from attacks.tally import Tally

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_loader_memory.py"
MAX_RATIO = 18.0  # peak MB per input MB at 8 MB (measured 12-15; the old readers took 20-22)


def _bench():
    spec = importlib.util.spec_from_file_location("bench_loader_memory", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize(
    "fmt", ["toolret-json-1line", "toolret-jsonl", "stabletoolbench-1line", "beir", "plain-jsonl"]
)
def test_peak_memory_is_a_small_multiple_of_the_input(tmp_path, fmt):
    bench = _bench()
    call, big = bench.generate(fmt, 8, tmp_path / "in")
    size = sum(f.stat().st_size for f in (tmp_path / "in").rglob("*") if f.is_file())
    got = bench.measure("load", call, str(tmp_path / "s.duckdb"))
    ratio = (got["peak"] - got["before"]) * 2**20 / size
    tally = Tally("memory (8 MB inputs)")
    tally.record(f"{fmt}: {ratio:.1f}x", "correct result" if ratio <= MAX_RATIO else "traceback")
    tally.check()
