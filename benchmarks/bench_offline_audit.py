"""What the offline audit audits and rejects on the shared data, with the default settings.

    python benchmarks/bench_offline_audit.py [--db STORE] [--reasons 10]

Loads ../shared/data (the four ToolRet tasks and StableToolBench) into STORE (a temporary store
when not given; a given store keeps its benchmarks and its default expansions, so a second run
only reads), expands each benchmark as ``toolex expand --benchmark B`` does with nothing else
given (the offline ``heuristic`` judge, BM25 candidates, depth 20, the ``feeds`` platform rule,
no audit cap), and prints per benchmark (ToolRet per task too): the alternatives the audit was
asked about, how many it rejected and passed, the platform rule's rejections before it, and the
commonest names the rejections say were lost. The audit is toolex/judges/offline_audit.py; the
figures move with the verifier and the decomposer, whose output is what it audits.
"""

from __future__ import annotations

import argparse
import os
import re
import tempfile
import time
from collections import Counter
from pathlib import Path

import reads

from toolex.judges.heuristic import HeuristicJudge
from toolex.loaders import load_stabletoolbench, load_toolret
from toolex.pipeline.runner import run_expansion
from toolex.pipeline.stats import combination_counts
from toolex.store import Store

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
EXPANSION = "default"
_LOST = re.compile(r"loses what the request names and the original covers: (.+)$")


def audited(store: Store, benchmark: str) -> list[tuple[str, str, str]]:
    """(task, status, reason) of every combination the audit judged (the original aside)."""
    found = reads.rows(
        store,
        "SELECT coalesce(q.task, ''), c.status, coalesce(c.reason, '') FROM combinations c "
        "JOIN queries q ON q.benchmark = c.benchmark AND q.query_id = c.query_id "
        "WHERE c.benchmark = ? AND c.expansion = ? AND c.combo_id > 0 "
        "AND c.status IN ('valid', 'rejected_audit')",
        [benchmark, EXPANSION],
    )
    return [(str(t), str(s), str(r)) for t, s, r in found]


def line(name: str, rows: list[tuple[str, str, str]], rule: int | None) -> str:
    rejected = sum(s == "rejected_audit" for _, s, _ in rows)
    ruled = "" if rule is None else f"; the platform rule rejected {rule:,} before it"
    return (
        f"{name:<24} audited {len(rows):>6,}  rejected {rejected:>4,}  passed "
        f"{len(rows) - rejected:>6,}{ruled}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="the store (default: a temporary one)")
    ap.add_argument("--reasons", type=int, default=10, help="lost names shown per benchmark")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "audit.duckdb")
        store = Store.open(db)
        have = set(store.benchmarks())
        if "toolret" not in have:
            load_toolret(store, SHARED / "toolret", name="toolret")
        if "stabletoolbench" not in have:
            load_stabletoolbench(store, SHARED / "stabletoolbench", name="stabletoolbench")
        load = os.getloadavg()[0]
        print(f"offline audit, default settings, shared data (load average {load:.1f})")
        for bench in ("toolret", "stabletoolbench"):
            t = time.perf_counter()
            if not audited(store, bench):
                run_expansion(store, bench, HeuristicJudge(store, benchmark=bench))
            rows = audited(store, bench)
            rule = combination_counts(store, bench, EXPANSION).get("rejected_platform", 0)
            print(line(bench, rows, rule) + f"  ({time.perf_counter() - t:.0f} s)")
            tasks = sorted({task for task, _, _ in rows if task})
            for task in tasks if len(tasks) > 1 else ():
                print(line(f"  {task}", [r for r in rows if r[0] == task], None))
            lost: Counter[str] = Counter()
            other: Counter[str] = Counter()
            for _, status, reason in rows:
                if status != "rejected_audit":
                    continue
                found = _LOST.search(reason)
                if found:
                    lost.update(n.strip() for n in found.group(1).split(","))
                else:
                    other[reason.split(":")[0][:80]] += 1
            shown = ", ".join(f"{n} ({c})" for n, c in lost.most_common(args.reasons))
            print(f"  names lost: {shown or '-'}")
            for reason, count in other.most_common(args.reasons):
                print(f"  other: {reason} ({count})")
        store.close()


if __name__ == "__main__":
    main()
