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
from dataclasses import replace
from functools import partial
from pathlib import Path

import numpy as np
import pyarrow as pa
import reads

os.environ.setdefault("LANCEDB_LOG", "error")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from toolex.retrieval.ann import DEFAULT_ANN, SEARCH_BATCH, AnnParams, vector_search  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared"
REFERENCE_ROWS = 50_000


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


class Blobs:
    """Isotropic clusters: the worst case (see the module docstring)."""

    name = "blobs"
    dim = 384  # the shared MiniLM's width

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def _centres(self, rows: int) -> tuple[np.ndarray, np.ndarray]:
        rng = np.random.default_rng(self.seed)
        n = max(8, rows // 400)
        weights = 1.0 / np.arange(1, n + 1) ** 0.8  # Zipf-like family sizes
        return rng.standard_normal((n, self.dim)).astype(np.float32), weights / weights.sum()

    def chunks(self, rows: int, chunk: int = 50_000):
        centres, weights = self._centres(rows)
        for start in range(0, rows, chunk):
            part = np.random.default_rng([self.seed, start])
            which = part.choice(len(centres), min(chunk, rows - start), p=weights)
            yield _unit(centres[which] + 0.6 * part.standard_normal((len(which), self.dim)))

    def queries(self, rows: int, n: int) -> np.ndarray:
        centres, weights = self._centres(rows)
        rng = np.random.default_rng([self.seed, 1 << 40])
        return _unit(
            centres[rng.choice(len(centres), n, p=weights)]
            + 0.6 * rng.standard_normal((n, self.dim))
        )


class RealManifold:
    """Rows near real tool embeddings, queries real (see the module docstring)."""

    name = "real"

    def __init__(self, cache: Path, seed: int = 0) -> None:
        self.seed = seed
        self.docs, self.real_queries = real_vectors(cache)
        self.dim = self.docs.shape[1]
        self.noise = 0.15 / np.sqrt(self.dim)  # per dimension: a vector of norm ~0.15
        # Each real tool's 10 nearest real tools: a new row lies between a tool and one of them.
        near = np.zeros((len(self.docs), 10), np.int64)
        for s in range(0, len(self.docs), 2048):
            sims = self.docs[s : s + 2048] @ self.docs.T
            for r in range(len(sims)):
                sims[r, s + r] = -np.inf
            near[s : s + 2048] = np.argpartition(-sims, 10, axis=1)[:, :10]
        self.near = near

    def chunks(self, rows: int, chunk: int = 50_000):
        m = len(self.docs)
        for start in range(0, rows, chunk):
            rng = np.random.default_rng([self.seed, start])
            idx = np.arange(start, min(rows, start + chunk))
            i = idx % m
            j = self.near[i, rng.integers(0, 10, len(i))]
            alpha = rng.uniform(0, 0.5, (len(i), 1)).astype(np.float32)
            alpha[idx < m] = 0  # the first rows are the real tools themselves
            noise = self.noise * rng.standard_normal((len(i), self.dim)).astype(np.float32)
            noise[idx < m] = 0
            yield _unit((1 - alpha) * self.docs[i] + alpha * self.docs[j] + noise)

    def queries(self, rows: int, n: int) -> np.ndarray:
        rng = np.random.default_rng([self.seed, 1 << 40])
        return self.real_queries[rng.choice(len(self.real_queries), n, replace=False)]


def real_vectors(cache: Path) -> tuple[np.ndarray, np.ndarray]:
    """WordLlama vectors of every tool and query of the shared ToolRet tasks and StableToolBench,
    embedded once and kept in ``cache``."""
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / "wordllama_toolret_stb.npz"
    if path.exists():
        got = np.load(path)
        return got["docs"], got["queries"]
    from toolex.loaders import load_stabletoolbench, load_toolret
    from toolex.retrieval.embedders import make_embedder
    from toolex.store import Store
    from toolex.tooldoc.render import truncate

    store = Store.memory()
    load_toolret(store, SHARED / "data" / "toolret")
    load_stabletoolbench(store, SHARED / "data" / "stabletoolbench")
    embedder = make_embedder("wordllama")
    out: dict[str, np.ndarray] = {}
    for table in ("items", "queries"):
        texts = [t for (t,) in reads.rows(store, f"SELECT text FROM {table} ORDER BY ALL")]
        t0 = time.perf_counter()
        vecs = [
            embedder.embed([truncate(t, embedder.max_words) for t in texts[s : s + 128]])
            for s in range(0, len(texts), 128)
        ]
        out["docs" if table == "items" else "queries"] = _unit(np.concatenate(vecs))
        print(f"embedded {len(texts)} {table} in {time.perf_counter() - t0:.0f} s", flush=True)
    np.savez(path, docs=out["docs"], queries=out["queries"])
    return out["docs"], out["queries"]


def _unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


class Exact:
    """Exact top-k per query, accumulated chunk by chunk (a 1M x 384 library never sits whole)."""

    def __init__(self, queries: np.ndarray, k: int) -> None:
        self.q, self.k = queries.astype(np.float64), k
        self.best_s = np.full((len(queries), 0), -np.inf)
        self.best_i = np.zeros((len(queries), 0), np.int64)

    def add(self, vectors: np.ndarray, ids: np.ndarray) -> None:
        s = np.concatenate([self.best_s, self.q @ vectors.astype(np.float64).T], axis=1)
        i = np.concatenate([self.best_i, np.broadcast_to(ids, (len(self.q), len(ids)))], axis=1)
        top = np.argpartition(-s, min(self.k, s.shape[1]) - 1, axis=1)[:, : self.k]
        self.best_s = np.take_along_axis(s, top, 1)
        self.best_i = np.take_along_axis(i, top, 1)

    def sets(self) -> list[set[str]]:
        return [{str(i) for i in row} for row in self.best_i]


def build_table(folder: Path, data, rows: int, n_queries: int, k: int, scopes: int):
    """Write ``rows`` of ``data`` to a Lance table; return it, the queries and their exact top-k
    (over every row, and over scope 0 when ``scopes``)."""
    import lancedb

    queries = data.queries(rows, n_queries)
    exact = Exact(queries, k)
    exact_scoped = Exact(queries, k) if scopes else None
    batches = []
    offset = 0
    for v in data.chunks(rows):
        ids = np.arange(offset, offset + len(v))
        scope = (ids % scopes if scopes else ids * 0).astype(np.int32)
        exact.add(v, ids)
        if exact_scoped is not None:
            exact_scoped.add(v[scope == 0], ids[scope == 0])
        batches.append(
            pa.record_batch(
                {
                    "item_id": pa.array(ids.astype(str)),
                    "scope_code": pa.array(scope),
                    "vector": pa.FixedSizeListArray.from_arrays(pa.array(v.ravel()), data.dim),
                }
            )
        )
        offset += len(v)
    db = lancedb.connect(str(folder))
    table = db.create_table("t", pa.Table.from_batches(batches), mode="overwrite")
    return table, queries, exact, exact_scoped


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

    def __exit__(self, *exc) -> None:
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


def row(rows: int, label: str, search: str, build_s: float | None, ms: float, rec: float, fds: int):
    b = f"{build_s:8.1f}" if build_s is not None else f"{'':>8}"
    print(f"{rows:>8} {label:<28} {search:<24} {b} {ms:9.2f} {rec:9.3f} {fds:>6}", flush=True)


def run_size(rows: int, args, reference: Callable[[], None]) -> None:
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


def plan(args) -> dict[str, list[AnnParams]]:
    """The sweep narrowed by --only (index types, or 'default'), --partitions and --nprobes."""
    if args.only == ["default"]:
        return {"default": [DEFAULT_ANN]}
    out = {}
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


def scoped(table, rows: int, queries: np.ndarray, exact: Exact, args, built) -> None:
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


def long_run(table, rows: int, args, built) -> None:
    """--long N queries (the query set, resampled with noise) in one vector_search call on
    toolex's index, as a 20k-query run sends them: ms/query and the peak of open files."""
    if built != replace(DEFAULT_ANN, nprobes=0, refine_factor=None):
        DEFAULT_ANN.create(table, rows)
    rng = np.random.default_rng(7)
    base = args.data.queries(rows, args.queries)
    noise = 0.05 / np.sqrt(base.shape[1])
    q = _unit(
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
    args = ap.parse_args()
    args.data = RealManifold(args.cache) if args.data == "real" else Blobs()
    args.only = [s for s in args.only.split(",") if s]
    args.nprobes = [int(s) for s in args.nprobes.split(",") if s]
    args.partitions = [s for s in args.partitions.split(",") if s]
    sizes = [int(s) for s in args.sizes.split(",")] + ([1_000_000] if args.million else [])
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
