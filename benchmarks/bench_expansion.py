"""Heuristic expansion of the shared benchmarks, and old/new scores of BM25 and a dense retriever.

    python benchmarks/bench_expansion.py --db /tmp/expansion.duckdb [--dense wordllama]

Loads ../shared/data/stabletoolbench (all groups) and the multi-label ToolRet tasks (apibank,
apigen, toolink), expands each with the offline HeuristicJudge (candidates: BM25 top-20), runs
BM25 and the dense retriever at query level, and prints for each benchmark the annotation table
(``toolex stats``), the combination counts (audit calls saved by the platform rule, cut by the
cap) and the main old/new table @10, with the seconds each step took.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from toolex.cli.options import emit_rows
from toolex.judges.heuristic import HeuristicJudge
from toolex.loaders import load_stabletoolbench, load_toolret
from toolex.metrics import summary
from toolex.pipeline.runner import Settings, run_expansion
from toolex.pipeline.stats import annotation_rows, combination_counts
from toolex.reports.main_table import main_table_rows
from toolex.retrieval.runs import retrieve_run
from toolex.store import Store

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", default="/tmp/toolex-expansion.duckdb")
    ap.add_argument("--dense", default="wordllama")
    ap.add_argument("--platform-rule", default="feeds", choices=["strict", "feeds"])
    ap.add_argument("--expansion", default="default")
    args = ap.parse_args()
    store = Store.open(args.db)
    t = time.perf_counter()
    load_stabletoolbench(store, SHARED / "stabletoolbench", name="stabletoolbench")
    load_toolret(store, SHARED / "toolret", tasks=["apibank", "apigen", "toolink"], name="toolret")
    print(f"load: {time.perf_counter() - t:.1f} s")
    for bench, scope, by in (
        ("stabletoolbench", "benchmark", "category"),
        ("toolret", "task", "task"),
    ):
        t = time.perf_counter()
        report = run_expansion(
            store,
            bench,
            HeuristicJudge(store, benchmark=bench),
            expansion=args.expansion,
            settings=Settings(platform_rule=args.platform_rule),
        )
        print(
            f"\n== {bench}: expansion of {report.queries} queries in "
            f"{time.perf_counter() - t:.1f} s"
        )
        emit_rows(report.rows(), "table", title="stages")
        emit_rows(
            [r._asdict() for r in annotation_rows(store, bench, args.expansion, by=by)],
            "table",
            title=f"annotation of {bench}",
        )
        print("combinations by status:", combination_counts(store, bench, args.expansion))
        run_ids = []
        for retriever in ("bm25", args.dense):
            run_id = f"{bench}-{retriever}"
            t = time.perf_counter()
            retrieve_run(store, bench, retriever, run_id, scope=scope, depth=100, replace=True)
            print(f"retrieve {retriever}: {time.perf_counter() - t:.1f} s")
            run_ids.append(run_id)
        scores = summary(store, run_ids, ks=(10,), expansion=args.expansion, by=by)
        rows = main_table_rows(store, scores, by)
        emit_rows(
            [
                {k: round(v, 4) if isinstance(v, float) else v for k, v in r.printed(by).items()}
                for r in rows
            ],
            "csv",
        )


if __name__ == "__main__":
    main()
