"""Approximate vector search: which LanceDB index, with which parameters, above ANN_THRESHOLD.

    python benchmarks/bench_ann.py                           # 100k and 200k rows, every index
    python benchmarks/bench_ann.py --sizes 200000 --only IVF_FLAT --nprobes 128,192 --k 100
    python benchmarks/bench_ann.py --million --only default --scopes 8 --long 20000

Data (``--data real``, the default): WordLlama vectors (256-d, toolex's ``wordllama``) of the
8,896 tools and 2,863 queries of ../shared/data (ToolRet's four tasks and StableToolBench),
embedded once into ``--cache``. The library's first rows are the real tools; each further row
lies between a real tool and one of its ten nearest real tools (a random point of the first half
of that segment) plus noise of norm ~0.15, normalised: new tools that resemble real neighbours,
so neighbourhoods keep the real embeddings' shape. Queries are real queries, so a query's top-k
sits where real queries find their tools. ``--data blobs`` is a synthetic worst case instead:
384-d isotropic clusters of Zipf sizes, where within a cluster the order is noise.

Ground truth is exact cosine top-k in numpy (float64). For each size, measured back to back
under the same load (``os.getloadavg`` beside each block): the reference, flat LanceDB search
over 50,000 rows (toolex's search below ANN_THRESHOLD; the target is an approximate search at
200k no slower than it); flat search at the size; then per index and build parameter the build
seconds and, per search parameter, ms/query (through ``toolex.retrieval.ann.vector_search``,
in SEARCH_BATCH chunks as toolex sends them), recall@k and the peak of open file descriptors
(``/proc/self/fd``, sampled). ``--scopes S`` adds a scope code (S groups) and measures one scope
with toolex's prefilter; ``--long N`` sends N queries through toolex's index in one call, as a
long run does. Timings: medians of ``--repeats`` passes after a warm-up pass."""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from ann_vectors import Blobs, Exact, RealManifold, VectorData, build_table, unit

if TYPE_CHECKING:
    import pyarrow as pa
    from lancedb.table import Table

os.environ.setdefault("LANCEDB_LOG", "error")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from toolex.retrieval.ann import DEFAULT_ANN, SEARCH_BATCH, AnnParams, vector_search  # noqa: E402

REFERENCE_ROWS = 50_000


@dataclass(frozen=True)
class Options:
    """The command line, parsed: what every size is measured with."""

    data: VectorData
    queries: int
    k: int
    repeats: int
    scopes: int
    only: list[str]  # index types, or ["default"]
    long: int
    nprobes: list[int]
    partitions: list[str]
    tmp: str | None


def sweep(dim: int) -> dict[str, list[AnnParams]]:
    """Index type -> the (build, search) parameters tried. ``partition_rows`` None is sqrt(rows)
    partitions (Lance's default); IVF_FLAT keeps exact vectors, so it needs no re-ranking."""
    return {
        "IVF_FLAT": [
            AnnParams("IVF_FLAT", rows, p, None)
            for rows, probes in (
                (None, (32, 64, 96, 128, 192)),
                (256, (64, 128, 256)),
                (1024, (16, 32, 48)),
            )
            for p in probes
        ],
        "IVF_SQ": [AnnParams("IVF_SQ", None, p, r) for p in (32, 64) for r in (2, 5)],
        "IVF_PQ": [
            AnnParams("IVF_PQ", None, p, r, sv)
            for sv in (dim // 8, dim // 4)
            for p in (32, 64)
            for r in (10, 20)
        ],
        "IVF_RQ": [AnnParams("IVF_RQ", None, p, r) for p in (32, 64) for r in (5, 10)],
        "IVF_HNSW_SQ": [AnnParams("IVF_HNSW_SQ", None, p, r) for p in (32, 64) for r in (5, 10)],
    }


def load() -> str:
    return "load " + " ".join(f"{x:.1f}" for x in os.getloadavg())


class PeakFds:
    """Highest count of this process's open file descriptors while the block runs."""

    def __enter__(self) -> PeakFds:
        self.peak, self._stop = 0, False
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        return self

    def _watch(self) -> None:
        while not self._stop:
            self.peak = max(self.peak, len(os.listdir("/proc/self/fd")))
            time.sleep(0.002)

    def __exit__(self, *exc: object) -> None:
        self._stop = True
        self._thread.join()


def measure(
    search: Callable[[], pa.Table], truth: list[set[str]], k: int, repeats: int
) -> tuple[float, float, int]:
    """(median ms per query, recall@k, peak open fds) of ``search`` over ``truth``'s queries."""
    search()  # warm-up: the first pass after a build reads the index from disk
    times = []
    with PeakFds() as fds:
        for _ in range(repeats):
            t0 = time.perf_counter()
            hits = search()
            times.append((time.perf_counter() - t0) / len(truth) * 1000)
    got: list[set[str]] = [set() for _ in truth]
    for qi, iid in zip(
        hits.column("query_index").to_pylist(), hits.column("item_id").to_pylist(), strict=True
    ):
        got[qi].add(iid)
    recall = sum(len(g & t) for g, t in zip(got, truth, strict=True)) / (len(truth) * k)
    return statistics.median(times), recall, fds.peak


def describe(p: AnnParams | None) -> tuple[str, str]:
    if p is None:
        return "flat", ""
    build = f"parts {'sqrt' if p.partition_rows is None else f'n/{p.partition_rows}'}"
    build += f" sub {p.sub_vectors}" if p.sub_vectors else ""
    return f"{p.index_type} {build}", f"nprobes {p.nprobes} refine {p.refine_factor}"


def row(
    rows: int, label: str, search: str, build_s: float | None, ms: float, rec: float, fds: int
) -> None:
    b = f"{build_s:8.1f}" if build_s is not None else f"{'':>8}"
    print(f"{rows:>8} {label:<28} {search:<24} {b} {ms:9.2f} {rec:9.3f} {fds:>6}", flush=True)


def run_size(rows: int, args: Options, reference: Callable[[], None]) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-ann-", dir=args.tmp))
    try:
        t0 = time.perf_counter()
        table, queries, exact, exact_scoped = build_table(
            folder, args.data, rows, args.queries, args.k, args.scopes
        )
        print(f"\n{rows:,} rows written in {time.perf_counter() - t0:.1f} s; {load()}", flush=True)
        reference()
        truth = exact.sets()
        ms, rec, fds = measure(
            lambda: vector_search(table, queries, args.k, None, None), truth, args.k, args.repeats
        )
        row(rows, "flat", "", None, ms, rec, fds)
        built: AnnParams | None = None
        for params in plan(args).values():
            for p in params:
                build_s = None
                shape = replace(p, nprobes=0, refine_factor=None)
                if built != shape:
                    t0 = time.perf_counter()
                    p.create(table, rows)
                    build_s = time.perf_counter() - t0
                    built = shape
                ms, rec, fds = measure(
                    partial(vector_search, table, queries, args.k, None, p),
                    truth,
                    args.k,
                    args.repeats,
                )
                row(rows, *describe(p), build_s, ms, rec, fds)
            print(f"{'':>8} ({load()})", flush=True)
        if exact_scoped is not None:
            scoped(table, rows, queries, exact_scoped, args, built)
            built = replace(DEFAULT_ANN, nprobes=0, refine_factor=None)
        if args.long:
            long_run(table, rows, args, built)
        reference()  # again: the load moves while a size runs
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def plan(args: Options) -> dict[str, list[AnnParams]]:
    """The sweep narrowed by --only (index types, or 'default'), --partitions and --nprobes."""
    if args.only == ["default"]:
        return {"default": [DEFAULT_ANN]}
    out: dict[str, list[AnnParams]] = {}
    for kind, params in sweep(args.data.dim).items():
        if args.only and kind not in args.only:
            continue
        if args.partitions:
            params = [p for p in params if str(p.partition_rows or "sqrt") in args.partitions]
        if args.nprobes:
            shapes = list(dict.fromkeys(replace(p, nprobes=0) for p in params))
            params = [replace(p, nprobes=n) for p in shapes for n in args.nprobes]
        out[kind] = params
    return out


def scoped(
    table: Table,
    rows: int,
    queries: np.ndarray,
    exact: Exact,
    args: Options,
    built: AnnParams | None,
) -> None:
    """One scope (1/S of the rows) searched with the prefilter toolex uses: flat, and toolex's
    index with its probes (or each of --nprobes)."""
    shape = replace(DEFAULT_ANN, nprobes=0, refine_factor=None)
    if built != shape:
        DEFAULT_ANN.create(table, rows)
    truth = exact.sets()
    where = "scope_code = 0"
    probes = [replace(DEFAULT_ANN, nprobes=n) for n in args.nprobes or [DEFAULT_ANN.nprobes]]
    for p in (None, *probes):
        ms, rec, fds = measure(
            partial(vector_search, table, queries, args.k, where, p), truth, args.k, args.repeats
        )
        label, search = describe(p)
        row(rows, f"{label} (1/{args.scopes} scope)", search, None, ms, rec, fds)


def long_run(table: Table, rows: int, args: Options, built: AnnParams | None) -> None:
    """--long N queries (the query set, resampled with noise) in one vector_search call on
    toolex's index, as a 20k-query run sends them: ms/query and the peak of open files."""
    if built != replace(DEFAULT_ANN, nprobes=0, refine_factor=None):
        DEFAULT_ANN.create(table, rows)
    rng = np.random.default_rng(7)
    base = args.data.queries(rows, args.queries)
    noise = 0.05 / np.sqrt(base.shape[1])
    q = unit(
        base[rng.integers(0, len(base), args.long)]
        + noise * rng.standard_normal((args.long, base.shape[1]))
    )
    with PeakFds() as fds:
        t0 = time.perf_counter()
        hits = vector_search(table, q, args.k, None, DEFAULT_ANN)
        ms = (time.perf_counter() - t0) / args.long * 1000
    assert hits.num_rows == args.k * args.long
    label, search = describe(DEFAULT_ANN)
    print(
        f"{rows:>8} {label + f' ({args.long:,} queries)':<28} {search:<24} {'':>8} {ms:9.2f} "
        f"{'':>9} {fds.peak:>6}",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", default="100000,200000", help="library rows, comma-separated")
    ap.add_argument("--million", action="store_true", help="add 1,000,000 rows (slow to build)")
    ap.add_argument("--queries", type=int, default=256)
    ap.add_argument("--k", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--scopes", type=int, default=0, help="also measure a 1/S scope prefilter")
    ap.add_argument("--only", default="", help="index types to sweep, or 'default' for toolex's")
    ap.add_argument("--long", type=int, default=0, help="also time N queries in one call")
    ap.add_argument("--nprobes", default="", help="probe counts to try instead of the sweep's")
    ap.add_argument("--partitions", default="", help="e.g. sqrt,256 (rows per partition)")
    ap.add_argument("--tmp", default=None, help="where the Lance tables are written")
    ap.add_argument("--data", choices=("real", "blobs"), default="real")
    ap.add_argument(
        "--cache",
        type=Path,
        default=Path(tempfile.gettempdir()) / "toolex-bench-ann",
        help="where the real embeddings are kept between runs",
    )
    parsed = ap.parse_args()
    data: VectorData = RealManifold(parsed.cache) if parsed.data == "real" else Blobs()
    args = Options(
        data=data,
        queries=parsed.queries,
        k=parsed.k,
        repeats=parsed.repeats,
        scopes=parsed.scopes,
        only=[s for s in parsed.only.split(",") if s],
        long=parsed.long,
        nprobes=[int(s) for s in parsed.nprobes.split(",") if s],
        partitions=[s for s in parsed.partitions.split(",") if s],
        tmp=parsed.tmp,
    )
    sizes = [int(s) for s in parsed.sizes.split(",")] + ([1_000_000] if parsed.million else [])
    print(
        f"dim {args.data.dim}, {args.queries} queries, k {args.k}, chunks of {SEARCH_BATCH} "
        f"queries per Lance call, median of {args.repeats}; data {args.data.name}; "
        f"cpus {os.cpu_count()}; {load()}"
    )
    print(f"toolex default: {describe(DEFAULT_ANN)}")
    print(
        f"{'rows':>8} {'index':<28} {'search':<24} {'build s':>8} {'ms/query':>9} "
        f"{f'recall@{args.k}':>9} {'fds':>6}"
    )
    ref_folder = Path(tempfile.mkdtemp(prefix="bench-ann-ref-", dir=args.tmp))
    try:
        ref_table, ref_q, ref_exact, _ = build_table(
            ref_folder, args.data, REFERENCE_ROWS, args.queries, args.k, 0
        )
        ref_truth = ref_exact.sets()

        def reference() -> None:
            ms, rec, fds = measure(
                lambda: vector_search(ref_table, ref_q, args.k, None, None),
                ref_truth,
                args.k,
                args.repeats,
            )
            row(REFERENCE_ROWS, "flat (reference)", "", None, ms, rec, fds)

        for rows in sizes:
            run_size(rows, args, reference)
    finally:
        shutil.rmtree(ref_folder, ignore_errors=True)
    print(f"\ndone; {load()}")


if __name__ == "__main__":
    main()
