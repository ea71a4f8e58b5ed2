"""Where the random tool of "where equivalents rank" lands, by where it is drawn from, on the
shared StableToolBench data (issue 35.5).

    python benchmarks/bench_random_draw.py [--data ../shared/data/stabletoolbench] [--k 10]

The paper reports a random tool in a query's top 10 for 9.2% of queries and does not say where
it draws it from. toolex draws it from the query's candidate pool (`report --random-from pool`,
the default) or from its whole library (`library`). Measured here: the whole benchmark loaded
and expanded as `toolex expand --judge heuristic` does, a BM25 run at query level over the
pooled library (depth 100), then the report's own section (toolex.reports.equivalent_ranks)
with each draw, seed 0. Printed per draw: the queries with a verified equivalent, those with a
random tool to draw, and the share of them with the ground truth, an equivalent and the random
tool in the top K; the paper's figure beside them.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from figures import load, record

from toolex.cli.options import emit_rows
from toolex.judges.heuristic import HeuristicJudge
from toolex.loaders import load_stabletoolbench
from toolex.pipeline.runner import run_expansion
from toolex.reports.equivalent_ranks import RANDOM_FROM, equivalent_rank_tables
from toolex.reports.inputs import ReportContext
from toolex.retrieval.runs import retrieve_run
from toolex.store import Store

ROOT = Path(__file__).resolve().parents[1]
BENCHMARK = "stabletoolbench"
PAPER_SHARE = 0.092  # the paper's random tool in the top 10


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared/data/stabletoolbench")
    ap.add_argument("--k", type=int, default=10)
    args = ap.parse_args()
    started = load()
    rows = []
    with tempfile.TemporaryDirectory() as tmp, Store.open(Path(tmp) / "r.duckdb") as store:
        load_stabletoolbench(store, args.data, name=BENCHMARK)
        run_expansion(store, BENCHMARK, HeuristicJudge(store, benchmark=BENCHMARK))
        retrieve_run(store, BENCHMARK, "bm25", "bm25", scope="benchmark")
        for draw in RANDOM_FROM:
            ctx = ReportContext.create(
                store, benchmarks=[BENCHMARK], run_ids=["bm25"], k=args.k, random_from=draw
            )
            ctx.register_metrics()
            summary, _, _ = equivalent_rank_tables(ctx)
            (row,) = [r for r in summary.rows if r["category"] == "all"]
            rows.append(
                {
                    "random drawn from": draw,
                    "queries": row["n_queries"],
                    "with a random tool": row["n_random"],
                    f"GT in top {args.k}": round(row["share_gt_in_top_k"], 3),
                    f"equivalent in top {args.k}": round(row["share_equivalent_in_top_k"], 3),
                    f"random in top {args.k}": round(row["share_random_in_top_k"], 3),
                }
            )
    rows.append(
        {
            "random drawn from": "the paper (not stated)",
            "queries": None,
            "with a random tool": None,
            f"GT in top {args.k}": None,
            f"equivalent in top {args.k}": None,
            f"random in top {args.k}": PAPER_SHARE if args.k == 10 else None,
        }
    )
    emit_rows(rows, "table", title=f"where a random tool ranks, BM25, StableToolBench, K={args.k}")
    record(
        "bench_random_draw",
        {f"where a random tool ranks (K={args.k})": rows},
        data="the shared StableToolBench solvable queries; heuristic expansion, BM25 run at "
        "query level over the pooled library (depth 100), seed 0",
        load_at_start=started,
    )


if __name__ == "__main__":
    main()
