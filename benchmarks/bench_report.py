"""Benchmark: `toolex report` over a ToolRet-size store, step by step.

Input: a store given with ``--db`` (e.g. one built from ../shared/data with `toolex load`,
`toolex expand --judge heuristic` and three `toolex retrieve` runs), or, without it, the
synthetic ToolEq-size store of bench_metrics.py (seeded) with ``--queries`` queries.

Reference, in the same process: ``toolex.metrics.summary`` over the same runs — the least any
report must compute. Printed: each report step's wall time and the whole report as a multiple
of the reference. The significance step dominates; its cost grows with runs x queries x
(permutations + resamples), so the step is also timed at a quarter of the defaults.

    python benchmarks/bench_report.py --db /tmp/real.duckdb --pair bm25:minilm
    python benchmarks/bench_report.py --queries 2000 --runs 3
"""

from __future__ import annotations

import argparse
import importlib.util
import tempfile
import time
from pathlib import Path
from typing import Any

import reads

from toolex import metrics
from toolex.reports import build_report
from toolex.store import Store


def synthetic(n_queries: int, n_runs: int) -> Store:
    spec = importlib.util.spec_from_file_location(
        "bench_metrics", Path(__file__).with_name("bench_metrics.py")
    )
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    store = Store.memory()
    mod.build(store, n_queries, n_runs, 100, 0)
    return store


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="a store to report on (opened read-only)")
    ap.add_argument("--queries", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--pair", action="append", default=[], help="BASE:FINETUNED")
    ap.add_argument("--k", type=int, default=10)
    args = ap.parse_args()

    store = Store.open(args.db, read_only=True) if args.db else synthetic(args.queries, args.runs)
    run_ids = [r for (r,) in reads.rows(store, "SELECT run_id FROM runs ORDER BY 1")]
    n_q = reads.value(store, "SELECT count(*) FROM queries")
    n_res = reads.value(store, "SELECT count(*) FROM run_results")
    print(f"store: {n_q} queries, {len(run_ids)} runs ({', '.join(run_ids)}), {n_res} results")
    pairs = [tuple(p.split(":", 1)) for p in args.pair]

    metrics.summary(store, run_ids, ks=(args.k,))  # warm: macros created, files cached
    start = time.perf_counter()
    metrics.summary(store, run_ids, ks=(args.k,))
    reference = time.perf_counter() - start
    print(f"reference  metrics.summary: {reference:6.2f} s")

    quarter = {"n_perm": 250, "n_boot": 250}
    variants: tuple[tuple[str, dict[str, Any]], ...] = (
        ("defaults (1000 perms, 1000 resamples)", {}),
        ("quarter (250 perms, 250 resamples)", quarter),
    )
    for label, opts in variants:
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            rep = build_report(store, out, run_ids=run_ids, pairs=pairs, k=args.k, **opts)
            total = time.perf_counter() - start
        print(f"report, {label}: {total:6.2f} s = {total / reference:5.1f} x reference")
        for step, secs in rep.timings.items():
            print(f"    {step:<22} {secs:6.2f} s")
    store.close()


if __name__ == "__main__":
    main()
