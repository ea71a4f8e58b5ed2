"""Candidate retrieval at library scale: the BM25 index built once per library vs once per batch.

    python benchmarks/bench_scale.py --tools 5000 50000 --subqueries 4096

The synthetic library replicates the 2,479 real StableToolBench APIs of ../shared/data (seeded):
replica r of an API keeps its documentation with the provider renamed ("<tool> r<r>") and one
description word dropped at random, so every replica is a near-duplicate of a real tool, the
worst case for equivalents. Sub-queries are real API descriptions (seeded sample), searched in
batches of 256 as the candidate stage does (``toolex.pipeline.candidates.BATCH``).

For each size it runs the same searches twice in one process: the reference is toolex 0.1's path
(the library re-read and its BM25 index rebuilt for every batch, and a top-k partition over every
document's score), then today's path (library and index built once per content, top-k among the
scored documents). It prints wall time, CPU time, peak RSS, the CPU ratio, and checks
that both produce the same rows and that the store it measured passes `toolex check` (issue 27:
figures from a store that fails its own invariants are not figures).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time
from pathlib import Path
from typing import Any

import fixtures
import numpy as np
import pyarrow as pa

from toolex.checks import run_checks
from toolex.pipeline.candidates import BATCH
from toolex.retrieval import search
from toolex.retrieval import texts as library_texts
from toolex.retrieval.bm25 import BM25Retriever
from toolex.retrieval.texts import TextRow
from toolex.store import Store
from toolex.tooldoc.render import render_doc

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "stabletoolbench"


def real_apis() -> list[dict[str, Any]]:
    """StableToolBench's APIs as its JSON gives them, first seen first."""
    seen: set[tuple[str, str]] = set()
    out: list[dict[str, Any]] = []
    for path in sorted((SHARED / "test_instruction").glob("*.json")):
        for query in json.loads(path.read_text()):
            for api in query["api_list"]:
                key = (api["tool_name"], api["api_name"])
                if key not in seen:
                    seen.add(key)
                    out.append(api)
    return out


def synthetic_store(path: Path, n_tools: int, seed: int) -> Store:
    rng = random.Random(seed)
    apis = real_apis()
    rows = []
    for i in range(n_tools):
        api = dict(apis[i % len(apis)])
        rep = i // len(apis)
        if rep:
            api["tool_name"] = f"{api['tool_name']} r{rep}"
            words = str(api.get("api_description") or "").split()
            if len(words) > 3:
                del words[rng.randrange(len(words))]
            api["api_description"] = " ".join(words)
        item_id = f"{api['tool_name']}::{api['api_name']}"
        rows.append({"benchmark": "scale", "item_id": item_id, "kind": "tool",
                     "name": api["api_name"], "platform": api["tool_name"], "task": None,
                     "category": api.get("category_name"), "doc": json.dumps(api),
                     "text": render_doc(api)})  # fmt: skip
    store = Store.open(path)
    table = pa.Table.from_pylist(rows)
    with store.transaction(), store.registered("scale_items", table):
        fixtures.write(store, "INSERT INTO items BY NAME SELECT * FROM scale_items")
        fixtures.write(
            store,
            "INSERT INTO benchmarks (benchmark, format, source, revision) "
            "VALUES ('scale', 'plain', 'bench_scale', ?)",
            [f"seed{seed}-n{n_tools}"],
        )
    return store


def _top_k_before(scores: np.ndarray, tie: np.ndarray, depth: int) -> np.ndarray:
    """toolex 0.1's selection, the reference."""
    if depth < len(scores):
        kth = np.partition(scores, len(scores) - depth)[len(scores) - depth]
        cand = np.flatnonzero(scores >= kth)
    else:
        cand = np.arange(len(scores))
    order = np.lexsort((tie[cand], -scores[cand]))
    return cand[order[:depth]]


def run(
    store: Store, texts: list[TextRow], cached: bool
) -> tuple[float, float, list[dict[str, Any]]]:
    from toolex.retrieval import bm25

    fast = bm25._top_k
    bm25._top_k = fast if cached else _top_k_before
    retriever = BM25Retriever()
    bm25._INDEXES.clear()  # BM25 indexes live for the process: none from the run before
    out: list[dict[str, Any]] = []
    wall, cpu = time.perf_counter(), time.process_time()
    for start in range(0, len(texts), BATCH):
        if not cached:
            library_texts._LIBRARIES.clear()
            bm25._INDEXES.clear()
        table = search(store, "scale", retriever, texts[start : start + BATCH], depth=20,
                       scope="benchmark")  # fmt: skip
        out.extend(table.to_pylist())
    bm25._top_k = fast
    return time.perf_counter() - wall, time.process_time() - cpu, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", type=int, nargs="+", default=[5000, 50000])
    ap.add_argument("--subqueries", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--dir", type=Path, default=Path("/tmp/toolex-bench-scale"))
    args = ap.parse_args()
    if not SHARED.exists():
        sys.exit(f"needs {SHARED}")
    args.dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    apis = real_apis()
    texts = [
        (f"q{i}", 0, str(rng.choice(apis).get("api_description") or "data"))
        for i in range(args.subqueries)
    ]
    print(f"{args.subqueries} sub-queries in batches of {BATCH}; load {_load()}")
    for n in args.tools:
        db = args.dir / f"scale-{n}.duckdb"
        db.unlink(missing_ok=True)
        store = synthetic_store(db, n, args.seed)
        ref_wall, ref_cpu, ref_rows = run(store, texts, cached=False)
        new_wall, new_cpu, new_rows = run(store, texts, cached=True)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        same = ref_rows == new_rows
        print(
            f"{n:>7} tools | toolex 0.1 path: wall {ref_wall:7.1f} s cpu {ref_cpu:7.1f} s | "
            f"now: wall {new_wall:6.1f} s cpu {new_cpu:6.1f} s | "
            f"cpu ratio {ref_cpu / new_cpu:5.1f}x | peak RSS {rss:,.0f} MB | same rows: {same}"
        )
        failed = [c.name for c in run_checks(store) if not c.ok]
        store.close()
        if failed:
            sys.exit(f"toolex check fails on {db}: {', '.join(failed)}")


def _load() -> str:
    try:
        return open("/proc/loadavg").read().split()[0]
    except OSError:
        return "?"


if __name__ == "__main__":
    main()
