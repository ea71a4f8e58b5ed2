"""Retrieval benchmarks: the store's overhead, the ANN threshold, and quality per retriever.

    python benchmarks/bench_retrieval.py overhead [--task toolink] [--retriever SPEC]
    python benchmarks/bench_retrieval.py ann [--sizes 10000,50000,100000]
    python benchmarks/bench_retrieval.py scopes
    python benchmarks/bench_retrieval.py quality [--retrievers bm25,wordllama,...]

overhead: end to end through the store (embed with a cold cache, write the cache, build the
LanceDB table, search every query of one task, write the run) against the same model embedding
the same texts plus a plain numpy matrix product and argpartition top-k. Prints the ratio
(target <= 1.5x) and proves a second index run on the unchanged library calls the model 0 times.

ann: synthetic unit vectors (384-d): LanceDB flat search vs IVF_PQ + refine, per-query latency and
recall@20 against exact search, to place ANN_THRESHOLD.

quality: every ToolRet task in ../shared/data, each retriever as a query-level run (k=100, scope
task): N@10, R@10, C@10 per task (toolex.metrics), wall time, and the candidate pool (share of
single-label queries whose ground-truth tool is in the top 20).

The candidate pool of `toolex expand` (sub-queries, endpoint retrievers): bench_candidate_pool.py.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args
from unittest.mock import patch

import numpy as np
import reads

if TYPE_CHECKING:
    import pyarrow as pa
    from lancedb.table import LanceTable

    from toolex.retrieval.embedders import Embedder
    from toolex.store import Store

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
MINILM = SHARED / "models" / "all-MiniLM-L6-v2-onnx-int8"
MINILM_SPEC = f"fastembed:sentence-transformers/all-MiniLM-L6-v2@{MINILM}"
# The retrievers compared by default here and by bench_candidate_pool.py.
RETRIEVERS = [
    "bm25",
    "wordllama",
    MINILM_SPEC,
    "hybrid:bm25+wordllama",
    f"hybrid:bm25+{MINILM_SPEC}",
]


class Counting:
    """Wraps an embedder and counts texts sent to the model and seconds spent in it."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.spec, self.key, self.model = inner.spec, inner.key, inner.model
        self.dim, self.max_words = inner.dim, inner.max_words
        self.texts_per_call = inner.texts_per_call
        self.calls = self.texts = 0
        self.seconds = 0.0

    def bind(self, store: Store) -> None:
        self.inner.bind(store)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        self.texts += len(texts)
        t = time.perf_counter()
        out = self.inner.embed(texts)
        self.seconds += time.perf_counter() - t
        return out


def store_of(path: Path, tasks: list[str] | None = None) -> Store:
    from toolex.loaders import load_toolret
    from toolex.store import Store

    store = Store.open(path)
    load_toolret(store, SHARED / "data" / "toolret", tasks=tasks)
    return store


def overhead(task: str, spec: str) -> None:
    from toolex.retrieval.dense import DenseRetriever
    from toolex.retrieval.embedders import make_embedder
    from toolex.retrieval.runs import retrieve_run
    from toolex.retrieval.texts import load_library
    from toolex.tooldoc.render import truncate

    tmp = Path(tempfile.mkdtemp(prefix="bench-retrieval-"))
    store = store_of(tmp / "s.duckdb", [task])
    library = load_library(store, "toolret")
    queries = reads.rows(store, "SELECT query_id, text FROM queries ORDER BY query_id")
    inner = make_embedder(spec)  # loaded once, outside both timings
    import lancedb  # noqa: F401 - a one-off import (~1-2 s) is not per-run overhead

    k = 100

    # reference: the model on the same texts + numpy exact search
    t0 = time.perf_counter()
    docs = _embed_sorted(inner, [truncate(t, inner.max_words) for t in library.texts])
    qv = _embed_sorted(inner, [truncate(q[1], inner.max_words) for q in queries])
    t_model = time.perf_counter() - t0
    t0 = time.perf_counter()
    sims = qv @ docs.T
    top = np.argpartition(-sims, min(k, sims.shape[1] - 1), axis=1)[:, :k]
    ref_top1 = sims.argmax(axis=1)
    t_numpy = time.perf_counter() - t0
    reference = t_model + t_numpy

    # the store, cold cache, end to end
    counting = Counting(inner)
    r = DenseRetriever(spec, counting)
    from toolex.retrieval import runs as runs_mod

    # the same model instance as the reference
    with patch.object(runs_mod, "make_retriever", lambda _spec: r):
        t0 = time.perf_counter()
        retrieve_run(store, "toolret", spec, "e2e", depth=k, scope="task")
        t_store = time.perf_counter() - t0
        model_first = counting.seconds
        calls_before = counting.calls
        (info,) = DenseRetriever(spec, counting).build(store, load_library(store, "toolret"))
        second_calls = counting.calls - calls_before
        t0 = time.perf_counter()
        retrieve_run(store, "toolret", spec, "warm", depth=k, scope="task")
        t_warm = time.perf_counter() - t0
    got_top1 = dict(
        reads.rows(store, "SELECT query_id, item_id FROM run_results WHERE run_id='e2e' AND rank=1")
    )
    agree = np.mean(
        [got_top1[q[0]] == library.item_ids[i] for q, i in zip(queries, ref_top1, strict=True)]
    )
    del top

    print(f"task {task}: {len(library)} tools, {len(queries)} queries, model {inner.model}")
    print(f"  model alone (embed tools+queries)      {t_model:8.2f} s")
    print(f"  numpy exact search (matmul+top-{k})    {t_numpy:8.3f} s")
    print(f"  reference total                        {reference:8.2f} s")
    print(f"  store end to end (cold cache)          {t_store:8.2f} s")
    print(f"    of which in the model                {model_first:8.2f} s")
    print(f"  ratio store / reference                {t_store / reference:8.2f} x (target <= 1.5)")
    print(f"  store overhead beyond the model        {t_store - model_first:8.2f} s")
    print(
        f"  second index run: model calls = {second_calls}, embedded = {info.stats.embedded}, "
        f"cached = {info.stats.cached}, table rewritten = {info.rebuilt}"
    )
    print(f"  second run, warm cache (no model calls): {t_warm:.2f} s")
    print(f"  top-1 agreement store vs numpy: {agree:.4f}")
    assert second_calls == 0, "re-indexing an unchanged library called the model"


def _embed_sorted(embedder: Embedder, texts: list[str]) -> np.ndarray:
    """The reference gets the same length-sorted batching the store uses, to be fair."""
    order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
    out = np.empty((len(texts), embedder.dim), dtype=np.float32)
    for start in range(0, len(order), 128):
        rows = order[start : start + 128]
        out[rows] = embedder.embed([texts[i] for i in rows])
    return out


def _local(table: object) -> LanceTable:
    """A table of a local LanceDB folder, as such: its ``search`` of a vector is typed as the
    vector search it is (a remote table's is not)."""
    from lancedb.table import LanceTable

    assert isinstance(table, LanceTable), type(table)
    return table


IndexType = Literal["IVF_PQ", "IVF_HNSW_SQ"]  # the --index choices


def ann(
    sizes: list[int],
    index_type: IndexType = "IVF_PQ",
    dim: int = 384,
    n_queries: int = 200,
    k: int = 20,
) -> None:
    import lancedb
    import pyarrow as pa

    from toolex.retrieval.ann import ANN_NPROBES, REFINE_FACTOR

    rng = np.random.default_rng(0)
    print(f"dim {dim}, {n_queries} queries, k {k}, {index_type} nprobes {ANN_NPROBES}, ", end="")
    print(f"refine x{REFINE_FACTOR}")
    print(f"{'rows':>8} {'flat ms/q':>10} {'ann ms/q':>9} {'build s':>8} {'recall@20':>9}")
    for n in sizes:
        # clustered data, closer to real embeddings than isotropic noise
        centers = rng.standard_normal((max(8, n // 500), dim)).astype(np.float32)
        vecs = centers[rng.integers(0, len(centers), n)] + 0.6 * rng.standard_normal(
            (n, dim)
        ).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        q = vecs[rng.integers(0, n, n_queries)] + 0.3 * rng.standard_normal(
            (n_queries, dim)
        ).astype(np.float32)
        q /= np.linalg.norm(q, axis=1, keepdims=True)
        db = lancedb.connect(tempfile.mkdtemp(prefix="bench-ann-"))
        tbl = _local(
            db.create_table(
                "t",
                pa.table(
                    {
                        "item_id": [str(i) for i in range(n)],
                        "vector": pa.FixedSizeListArray.from_arrays(pa.array(vecs.ravel()), dim),
                    }
                ),
            )
        )

        def run(t: LanceTable, refine: bool, q: np.ndarray = q) -> tuple[pa.Table, float]:
            s = t.search(q).distance_type("cosine").select(["item_id", "_distance"]).limit(k)
            if refine:
                s = s.nprobes(ANN_NPROBES).refine_factor(REFINE_FACTOR)
            t0 = time.perf_counter()
            res = s.to_arrow()
            return res, (time.perf_counter() - t0) / n_queries * 1000

        exact, flat_ms = run(tbl, False)
        t0 = time.perf_counter()
        tbl.create_index(
            metric="cosine",
            index_type=index_type,
            num_partitions=int(np.sqrt(n)),
            vector_column_name="vector",
            num_sub_vectors=dim // 16 if index_type == "IVF_PQ" else None,  # None: Lance's default
        )
        build = time.perf_counter() - t0
        approx, ann_ms = run(tbl, True)
        ex: dict[int, set[str]] = {}
        for qi, iid in zip(
            exact.column("query_index").to_pylist(),
            exact.column("item_id").to_pylist(),
            strict=True,
        ):
            ex.setdefault(qi, set()).add(iid)
        hit = sum(
            iid in ex.get(qi, ())
            for qi, iid in zip(
                approx.column("query_index").to_pylist(),
                approx.column("item_id").to_pylist(),
                strict=True,
            )
        )
        print(f"{n:>8} {flat_ms:>10.2f} {ann_ms:>9.2f} {build:>8.1f} {hit / (n_queries * k):>9.3f}")


def scopes(n: int = 30000, n_scopes: int = 10, dim: int = 384, n_queries: int = 200) -> None:
    """Scope filtering: one table + a `where` prefilter vs one table per scope value."""
    import lancedb
    import pyarrow as pa

    rng = np.random.default_rng(1)
    vecs = rng.standard_normal((n, dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    code = rng.integers(0, n_scopes, n).astype(np.int32)
    q = vecs[rng.integers(0, n, n_queries)]
    db = lancedb.connect(tempfile.mkdtemp(prefix="bench-scope-"))

    def table(name: str, rows: np.ndarray) -> LanceTable:
        column = pa.FixedSizeListArray.from_arrays(pa.array(vecs[rows].ravel()), dim)
        ids = [str(i) for i in rows]
        return _local(
            db.create_table(name, pa.table({"item_id": ids, "c": code[rows], "vector": column}))
        )

    whole = table("all", np.arange(n))
    parts = [table(f"s{c}", np.flatnonzero(code == c)) for c in range(n_scopes)]
    cols = ["item_id", "_distance"]
    t0 = time.perf_counter()
    for c in range(n_scopes):
        s = whole.search(q).distance_type("cosine").where(f"c = {c}", prefilter=True)
        s.select(cols).limit(20).to_arrow()
    t_where = time.perf_counter() - t0
    t0 = time.perf_counter()
    for c in range(n_scopes):
        parts[c].search(q).distance_type("cosine").select(cols).limit(20).to_arrow()
    t_tables = time.perf_counter() - t0
    per = n_scopes * n_queries
    print(f"{n} rows, {n_scopes} scopes, {n_queries} queries per scope (flat search):")
    print(f"  one table + where prefilter   {1000 * t_where / per:.2f} ms/query")
    print(f"  one table per scope           {1000 * t_tables / per:.2f} ms/query")


def quality(specs: list[str]) -> None:
    from toolex.metrics import summary
    from toolex.retrieval.runs import retrieve_run

    tmp = Path(tempfile.mkdtemp(prefix="bench-quality-"))
    store = store_of(tmp / "q.duckdb")
    rows = []
    for spec in specs:
        name = spec.replace(MINILM_SPEC, "minilm")
        t0 = time.perf_counter()
        retrieve_run(store, "toolret", spec, name, depth=100, scope="task")
        seconds = time.perf_counter() - t0
        scores = {(r.group, r.metric): r.old for r in summary(store, [name], ks=(10,), by="task")}
        pool = reads.rows(
            store,
            """WITH single AS (SELECT query_id, any_value(item_id) AS gt FROM qrels
                               WHERE benchmark = 'toolret' GROUP BY query_id HAVING count(*) = 1)
               SELECT q.task, avg(CASE WHEN r.item_id IS NULL THEN 0 ELSE 1 END), count(*)
               FROM single s JOIN queries q ON q.benchmark = 'toolret' AND q.query_id = s.query_id
               LEFT JOIN run_results r ON r.run_id = ? AND r.query_id = s.query_id
                                      AND r.item_id = s.gt AND r.rank <= 20
               GROUP BY ROLLUP (q.task) ORDER BY q.task NULLS LAST""",
            [name],
        )
        rows.append((name, seconds, scores, {(t or "all"): (v, n) for t, v, n in pool}))
    tasks = ["apibank", "apigen", "gorilla-huggingface", "toolink", "all"]
    print("\nN@10 / R@10 / C@10 (x100), query level, k=100, scope task, no instruction")
    print(f"{'retriever':<24} {'time s':>7} " + " ".join(f"{t[:12]:>20}" for t in tasks))
    for name, seconds, scores, _ in rows:
        cells = [
            "/".join(f"{100 * scores.get((t, m), 0):5.1f}" for m in ("ndcg", "recall", "comp"))
            for t in tasks
        ]
        print(f"{name[:24]:<24} {seconds:>7.1f} " + " ".join(f"{c:>20}" for c in cells))
    print("\ncandidate pool: share of single-label queries whose GT tool is in the top 20")
    print(f"{'retriever':<24} " + " ".join(f"{t[:12]:>14}" for t in tasks))
    for name, _, _, found in rows:
        print(
            f"{name[:24]:<24} "
            + " ".join(f"{found[t][0]:>8.3f} (n={found[t][1]})"[:14].rjust(14) for t in tasks)
        )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="what", required=True)
    o = sub.add_parser("overhead")
    o.add_argument("--task", default="toolink")
    o.add_argument("--retriever", default=MINILM_SPEC)
    a = sub.add_parser("ann")
    a.add_argument("--sizes", default="10000,30000,100000")
    a.add_argument("--index", default="IVF_PQ", choices=get_args(IndexType))
    sub.add_parser("scopes")
    q = sub.add_parser("quality")
    q.add_argument(
        "--retrievers",
        default=",".join(RETRIEVERS),
    )
    args = ap.parse_args()
    if not (SHARED / "data").exists() and args.what in ("overhead", "quality"):
        sys.exit(f"needs the shared data at {SHARED / 'data'}")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    if args.what == "overhead":
        overhead(args.task, args.retriever)
    elif args.what == "scopes":
        scopes()
    elif args.what == "ann":
        ann([int(s) for s in args.sizes.split(",")], args.index)
    else:
        quality(args.retrievers.split(","))


if __name__ == "__main__":
    main()
