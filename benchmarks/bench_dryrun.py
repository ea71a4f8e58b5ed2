"""What `toolex expand --dry-run` plans for a fresh LLM expansion of the four shared ToolRet
tasks (or StableToolBench): per stage the calls now, the calls to expect and the upper bound.

    python benchmarks/bench_dryrun.py [--benchmark toolret|stabletoolbench] [--judge SPEC]

No call is made (a placeholder key stands in). On a fresh expansion only the decomposition's
tasks exist; the verify and audit tasks are bounded (K candidates per label; the safety limit of
audits per query) and expected at the rates toolex.pipeline.dryrun.PRIOR_* (measured by
benchmarks/bench_cost.py), which the ``basis`` column names.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from figures import load, record

from toolex.cli.options import emit_rows
from toolex.judges import make_judge
from toolex.loaders import load_stabletoolbench, load_toolret
from toolex.pipeline import dryrun
from toolex.pipeline.runner import Settings, select_queries
from toolex.pipeline.settings import STAGES
from toolex.pipeline.stage import StageContext
from toolex.store import Store

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
TOOLRET_TASKS = ["apibank", "apigen", "gorilla-huggingface", "toolink"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--benchmark", choices=["toolret", "stabletoolbench"], default="toolret")
    ap.add_argument("--judge", default="openai:gpt-4o-mini")
    args = ap.parse_args()
    started = load()
    for env in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        os.environ.setdefault(env, "dry-run-no-key")  # a plan makes no call
    with tempfile.TemporaryDirectory() as tmp, Store.open(Path(tmp) / "d.duckdb") as store:
        if args.benchmark == "toolret":
            load_toolret(store, SHARED / "toolret", tasks=TOOLRET_TASKS, name="toolret")
        else:
            load_stabletoolbench(store, SHARED / "stabletoolbench", name="stabletoolbench")
        judge = make_judge(args.judge, store)
        judges = dict.fromkeys(("decompose", "verify", "audit"), judge)
        ids = select_queries(store, args.benchmark)
        ctx = StageContext(store, args.benchmark, "fresh", ids)
        rows = dryrun.estimate(ctx, judges, Settings(), STAGES)
        table = [row.as_row() for row in (*rows, dryrun.total_row(rows))]
        emit_rows(
            table,
            "table",
            title=f"dry run of a fresh expansion of {args.benchmark} ({len(ids)} queries, "
            f"{args.judge})",
        )
    record(
        f"bench_dryrun_{args.benchmark}",
        {f"dry run of a fresh expansion ({len(ids)} queries, {args.judge})": table},
        data=f"the shared {args.benchmark} data (ToolRet: {', '.join(TOOLRET_TASKS)})",
        load_at_start=started,
    )


if __name__ == "__main__":
    main()
