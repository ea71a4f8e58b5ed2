"""Time `toolex demo` in a fresh store (the issue's target: under a minute on 2 cores).

    python benchmarks/bench_demo.py            # prints per-step seconds, total, and total / 60 s

The reference run in the same process is the load step alone: its ratio to the total shows
where the time goes on this machine, independent of how busy the machine is.
"""

from __future__ import annotations

import os
import tempfile
import time

from toolex.cli.demo import run_demo
from toolex.store import Store


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(os.path.join(tmp, "demo.duckdb"))
        cpu, wall = time.process_time(), time.perf_counter()
        out = run_demo(store)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        for step, seconds in out["timings"].items():
            print(f"{step:>28}: {seconds:6.2f} s  ({seconds / wall:5.1%} of the total)")
        print(
            f"{'total (wall)':>28}: {wall:6.2f} s = {wall / 60:.2f} x the 60 s budget "
            f"(process CPU {cpu:.1f} s, {os.cpu_count()} cores)"
        )
        t = time.perf_counter()
        run_demo(store)
        print(f"{'rerun (idempotent)':>28}: {time.perf_counter() - t:6.2f} s")
        store.close()


if __name__ == "__main__":
    main()
