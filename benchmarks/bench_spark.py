"""Benchmark: `toolex eval` on DuckDB vs on Spark (local), on the ToolEq-sized input and on one
10x larger.

Input: tests/engines/tooleq_input.py (7,000 queries, ~35,000 combinations, 10 runs of 100;
``--scale 10``: 70,000 queries, ~350,000 combinations, 70 million results), in a store file.
For each engine, what `toolex eval --per-query` computes: the summary, then the per-query rows
(nDCG, R, Comp at 10). Spark runs on ``local[*]`` (every core here); its session start, its
first query (a cold JVM: Spark compiles every stage) and a second, warm one are timed apart.
The per-query rows of the two engines must agree to 1e-12.

    python benchmarks/bench_spark.py              # ToolEq size, then 10x: ~15 minutes, 2 cores
    python benchmarks/bench_spark.py --scales 1   # ToolEq size only
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the generator

import figures  # noqa: E402
from engines import tooleq_input  # noqa: E402

from toolex import metrics  # noqa: E402
from toolex.engines.spark.engine import SparkEngine  # noqa: E402
from toolex.engines.spark.session import LOCAL, start  # noqa: E402
from toolex.metrics.engine import Engine  # noqa: E402
from toolex.store import Store  # noqa: E402

RUNS = [f"run{r:02d}" for r in range(10)]
T = TypeVar("T")


def timed(fn: Callable[[], T]) -> tuple[T, float]:
    """``fn()`` and the seconds it took."""
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def score(
    store: Store, on: Engine | None = None
) -> tuple[list[metrics.GroupedQueryScore], float, float]:
    """(per-query rows, seconds for the summary, seconds for the per-query rows)."""
    _, t_summary = timed(lambda: metrics.summary(store, RUNS, (10,), on=on))
    rows, t_rows = timed(lambda: metrics.engine.per_query_rows(store, RUNS, (10,), on=on))
    return rows, t_summary, t_rows


def worst_difference(
    a: list[metrics.GroupedQueryScore], b: list[metrics.GroupedQueryScore]
) -> float:
    def key(r: metrics.GroupedQueryScore) -> tuple[str, str, str, int]:
        return (r.run_id, r.query_id, r.metric, r.k)

    left = {key(r): r for r in a}
    right = {key(r): r for r in b}
    assert left.keys() == right.keys(), "the engines scored different rows"
    return max(
        float(max(abs(left[k].old - right[k].old), abs(left[k].new - right[k].new))) for k in left
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scales", type=int, nargs="+", default=[1, 10])
    ap.add_argument("--master", default=LOCAL)
    ap.add_argument("--dir", default=None, help="where the store files go (default: a temp dir)")
    args = ap.parse_args()
    folder = Path(args.dir or tempfile.mkdtemp(prefix="bench-spark-"))
    started, rows = figures.load(), []
    print(f"# {os.cpu_count()} cores; load average at start {os.getloadavg()[0]:.1f}")
    session, session_s = timed(lambda: start(args.master)[0])
    print(f"Spark {session.version} session start ({args.master}): {session_s:.1f} s")
    for scale in args.scales:
        db = folder / f"tooleq_x{scale}.duckdb"
        if not db.exists():
            with Store.open(db) as store:
                t = time.perf_counter()
                counts = tooleq_input.build(store, n_queries=7000 * scale)
                build_s = time.perf_counter() - t
            print(f"\nx{scale}: built in {build_s:.0f} s: {counts}")
        with Store.open(db, read_only=True, allow_files=True) as store:
            duck, d_sum, d_rows = score(store)
            _, d_sum2, d_rows2 = score(store)
            with SparkEngine(session) as engine:
                spark, s_sum, s_rows = score(store, engine)
            with SparkEngine(session) as engine:  # a new eval in a warm JVM: inputs sent again
                _, s_sum2, s_rows2 = score(store, engine)
        worst = worst_difference(spark, duck)
        assert worst <= 1e-12, f"Spark and DuckDB differ by {worst}"
        load = os.getloadavg()[0]
        print(f"x{scale}: {len(duck)} per-query rows; max |Spark - DuckDB| = {worst:.1e}")
        print(f"  DuckDB:        summary {d_sum:6.1f} s + per-query {d_rows:6.1f} s  (again: "
              f"{d_sum2:.1f} + {d_rows2:.1f})")  # fmt: skip
        print(f"  Spark, first:  summary {s_sum:6.1f} s + per-query {s_rows:6.1f} s")
        print(f"  Spark, again:  summary {s_sum2:6.1f} s + per-query {s_rows2:6.1f} s")
        ratio = (s_sum2 + s_rows2) / (d_sum2 + d_rows2)
        print(f"  Spark / DuckDB (warm): {ratio:.1f}x; load average now {load:.1f}")
        rows.append(
            {
                "input": f"x{scale} ToolEq ({7000 * scale:,} queries)",
                "DuckDB s (warm)": round(d_sum2 + d_rows2, 1),
                "Spark s (warm)": round(s_sum2 + s_rows2, 1),
                "Spark s (first)": round(s_sum + s_rows, 1),
                "Spark / DuckDB": round(ratio, 1),
                "max difference": float(f"{worst:.1e}"),
            }
        )
    figures.record(
        "bench_spark",
        {
            f"toolex eval --per-query, K=10 ({args.master})": rows,
            "Spark session start s": round(session_s, 1),
        },
        data="generated ToolEq-shaped stores (tests/engines/tooleq_input.py): 7,000 queries, "
        "~35,000 combinations, 10 runs of 100 per unit of scale",
        load_at_start=started,
    )
    session.stop()


if __name__ == "__main__":
    main()
