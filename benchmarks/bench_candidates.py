"""References missing from their own candidate lists, per candidate retriever, on the bundled
StableToolBench sample (the demo's data: 300 queries, 1,187 tools, 743 sub-queries).

    python benchmarks/bench_candidates.py [--retrievers bm25,hybrid:bm25+wordllama] [--depth 20]

What the docs' choice of the default candidate retriever (toolex.pipeline.settings
CANDIDATE_RETRIEVER) rests on: the verifier can only accept from a sub-query's candidate list,
so a reference missing from its own list is a step whose equivalents the retriever hid. The
sub-queries are the offline decomposer's (as in `toolex demo`), the library searched is the
expansion's default scope (the pooled library), the depth the pipeline's K. One expansion per
retriever in a fresh store, the same sub-queries in each (the decomposer is deterministic).
Printed per retriever: sub-queries, references missed, their share, and the seconds the
candidates took.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from figures import load, record

from toolex.cli.options import emit_rows
from toolex.judges.heuristic import HeuristicJudge
from toolex.loaders import load_stabletoolbench
from toolex.pipeline.outcome import expansion_outcome
from toolex.pipeline.runner import Settings, run_expansion
from toolex.pipeline.settings import CANDIDATES_PER_SUBQUERY
from toolex.resources import data_path
from toolex.store import Store

BENCHMARK = "sample"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--retrievers", default="bm25,hybrid:bm25+wordllama")
    ap.add_argument("--depth", type=int, default=CANDIDATES_PER_SUBQUERY)
    args = ap.parse_args()
    started = load()
    rows = []
    with tempfile.TemporaryDirectory() as tmp, Store.open(Path(tmp) / "c.duckdb") as store:
        load_stabletoolbench(store, data_path("sample"), name=BENCHMARK)
        judge = HeuristicJudge(store, benchmark=BENCHMARK)
        for retriever in args.retrievers.split(","):
            expansion = retriever.replace(":", "-").replace("+", "-")
            settings = Settings(retriever=retriever, depth=args.depth)
            run_expansion(
                store, BENCHMARK, judge, expansion=expansion, settings=settings,
                stages=["decompose"],
            )  # fmt: skip
            t = time.perf_counter()
            run_expansion(
                store, BENCHMARK, judge, expansion=expansion, settings=settings,
                stages=["candidates"],
            )  # fmt: skip
            seconds = time.perf_counter() - t
            o = expansion_outcome(store, BENCHMARK, expansion)
            rows.append(
                {
                    "retriever": retriever,
                    "depth": args.depth,
                    "subqueries": o.with_candidates,
                    "references_missed": o.refs_missed,
                    "share_missed": round(o.refs_missed / o.with_candidates, 4),
                    "seconds": round(seconds, 1),
                }
            )
    emit_rows(
        rows,
        "table",
        title="references missing from their own candidate lists (bundled StableToolBench sample)",
    )
    record(
        "bench_candidates",
        {"references missing from their own candidate lists": rows},
        data="the bundled StableToolBench sample (300 queries, 1,187 tools), the offline "
        "decomposer's sub-queries, pooled library",
        load_at_start=started,
    )


if __name__ == "__main__":
    main()
