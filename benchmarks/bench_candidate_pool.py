"""The candidate pool of `toolex expand` on the four shared ToolRet tasks (2,098 queries, a pooled
library of 6,417 tools), per candidate retriever: the BM25 vs dense comparison of the docs
(docs/how-to/import-candidates.md, from this script's record).

    python benchmarks/bench_candidate_pool.py [--retrievers bm25,wordllama,...] [--store S]

Prints the share of ground-truth tools in each sub-query's top 20, the list the verifier can
accept equivalents from, searched as the candidates stage searches it (the offline
decomposition's sub-queries, scope benchmark, default rendering), overall and per task; and the
share of single-label queries whose tool is in the top 20 of the query itself, pooled and per
task. Endpoint retrievers (openai-embed:, compat-embed:) are measured when given (--retrievers,
or the environment variable TOOLEX_BENCH_ENDPOINT) and reachable; the script says plainly which
were not (no endpoint was reachable where the recorded figures were made).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import reads
from bench_retrieval import MINILM_SPEC, RETRIEVERS, SHARED, store_of
from figures import record

if TYPE_CHECKING:
    import pyarrow as pa


def pool(specs: list[str], path: Path | None) -> None:
    from toolex.errors import ToolexError
    from toolex.judges.heuristic import HeuristicJudge
    from toolex.pipeline.runner import run_expansion
    from toolex.retrieval import make_retriever, search
    from toolex.store import Store

    # --store keeps the embedding cache between runs (an interrupted run keeps what it embedded)
    path = path or Path(tempfile.mkdtemp(prefix="bench-pool-")) / "p.duckdb"
    started = os.getloadavg()
    store = Store.open(path) if path.exists() else store_of(path)
    t0 = time.perf_counter()
    run_expansion(
        store, "toolret", HeuristicJudge(store, benchmark="toolret"), stages=["decompose"]
    )
    subs = reads.rows(
        store,
        """SELECT s.query_id, s.slot, s.text, s.reference, q.task FROM subqueries s
           JOIN queries q ON q.benchmark = s.benchmark AND q.query_id = s.query_id
           WHERE s.benchmark = 'toolret' ORDER BY s.query_id, s.slot""",
    )
    single = reads.rows(
        store,
        """SELECT q.query_id, q.text, any_value(g.item_id), q.task FROM queries q
           JOIN qrels g ON g.benchmark = q.benchmark AND g.query_id = q.query_id
           WHERE q.benchmark = 'toolret' GROUP BY q.query_id, q.text, q.task
           HAVING count(*) = 1 ORDER BY q.query_id""",
    )
    n_items = reads.value(store, "SELECT count(*) FROM items")
    print(
        f"ToolRet, 4 tasks: {len(subs)} sub-queries of {len(set(s[0] for s in subs))} queries "
        f"(offline decomposition, {time.perf_counter() - t0:.0f} s), {len(single)} "
        f"single-label queries, a pooled library of {n_items} tools; depth 20"
    )
    tasks = sorted({s[4] for s in subs})
    measured, skipped = [], []
    for spec in specs:
        name = spec.replace(MINILM_SPEC, "minilm (local folder)")
        t0 = time.perf_counter()
        try:
            retriever = make_retriever(spec)
            sub_hits = search(store, "toolret", retriever, [s[:3] for s in subs], depth=20,
                              scope="benchmark")  # fmt: skip
            pooled = search(store, "toolret", retriever, [(q, 0, t) for q, t, _, _ in single],
                            depth=20, scope="benchmark")  # fmt: skip
            per_task = search(store, "toolret", retriever, [(q, 0, t) for q, t, _, _ in single],
                              depth=20, scope="task")  # fmt: skip
        except ToolexError as exc:
            skipped.append((name, str(exc).splitlines()[0][:160]))
            continue
        got = _pairs(sub_hits)
        sub_share = {t: _share([(s[0], s[1], s[3]) for s in subs if s[4] == t], got)
                     for t in tasks}  # fmt: skip
        sub_share["all"] = _share([(s[0], s[1], s[3]) for s in subs], got)
        q_pool = _share([(q, 0, g) for q, _, g, _ in single], _pairs(pooled))
        q_task = _share([(q, 0, g) for q, _, g, _ in single], _pairs(per_task))
        measured.append((name, time.perf_counter() - t0, sub_share, q_pool, q_task))
    cols = [*tasks, "all"]
    print(
        "\nshare of ground-truth tools in the candidate pool (each sub-query's top 20, pooled "
        "library), and of single-label queries' tools in the query's own top 20"
    )
    print(f"{'retriever':<26} {'s':>5} " + " ".join(f"{c[:10]:>10}" for c in cols)
          + f" {'query pooled':>13} {'per task':>9}")  # fmt: skip
    for name, seconds, share, q_pool, q_task in measured:
        print(f"{name[:26]:<26} {seconds:>5.0f} " + " ".join(f"{share[c]:>10.1%}" for c in cols)
              + f" {q_pool:>13.1%} {q_task:>9.1%}")  # fmt: skip
    endpoints = [m[0] for m in measured if m[0].startswith(("openai-embed:", "compat-embed:"))]
    print("\nendpoint models measured: " + (", ".join(endpoints) if endpoints else "none"))
    for name, why in skipped:
        print(f"not measured: {name}: {why}")
    table = [
        {
            "candidate retriever": name,
            **{f"pool {c}": round(share[c], 4) for c in cols},
            "single-label pooled": round(q_pool, 4),
            "single-label per task": round(q_task, 4),
            "seconds": round(seconds),
        }
        for name, seconds, share, q_pool, q_task in measured
    ]
    record(
        "bench_candidate_pool",
        {
            "ground-truth tools in the candidate pool (depth 20)": table,
            "not measured": "; ".join(f"{n}: {why}" for n, why in skipped) or "none",
        },
        data=f"the four shared ToolRet tasks: {len(subs)} sub-queries of the offline "
        f"decomposition, {len(single)} single-label queries, a pooled library of {n_items} tools",
        load_at_start=[round(x, 2) for x in started],
    )


def _pairs(table: pa.Table) -> set[tuple[str, int, str]]:
    cols = table.select(["query_id", "slot", "item_id"]).to_pydict()
    return set(zip(cols["query_id"], cols["slot"], cols["item_id"], strict=True))


def _share(wanted: list[tuple[str, int, str]], got: set[tuple[str, int, str]]) -> float:
    return sum(w in got for w in wanted) / len(wanted) if wanted else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--store", type=Path, default=None, help="store to keep (embedding cache)")
    endpoint = os.environ.get("TOOLEX_BENCH_ENDPOINT")
    ap.add_argument(
        "--retrievers",
        default=",".join([*RETRIEVERS, *([endpoint] if endpoint else [])]),
    )
    args = ap.parse_args()
    if not (SHARED / "data").exists():
        sys.exit(f"needs the shared data at {SHARED / 'data'}")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    pool(args.retrievers.split(","), args.store)


if __name__ == "__main__":
    main()
