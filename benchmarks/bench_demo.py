"""Time `toolex demo` in a fresh store, against an earlier toolex measured in the same run.

    python benchmarks/bench_demo.py                    # this tree vs 979b28b (issue 34's "today")
    python benchmarks/bench_demo.py --baseline a1a455b # vs the 0.2 landing (issue 11)
    python benchmarks/bench_demo.py --baseline REV --rounds 3

Each round runs the baseline and this tree one after the other, each in a fresh interpreter and
a fresh store (the baseline from a temporary `git worktree` of REV, so both pay the same start-up
and imports; both trees' .pyc are written first, as an installed package has them, since this
machine's PYTHONDONTWRITEBYTECODE would have each run compile every module again).
Alternating the two inside one run, on the same machine at the same load, makes the ratio
meaningful however busy the machine is; wall and CPU seconds (the child's user+sys)
are both printed, with the load average, and the median of the rounds is the figure.

Targets: issue 34's, the demo's CPU at most half 979b28b's (ratio <= 0.5) and <= 5 s wall on a
quiet 2-core machine; issue 11's, at least 25% faster than the 0.2 landing (ratio <= 0.75).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import figures
from bench_startup import compile_tree

ROOT = Path(__file__).resolve().parents[1]
LANDING_0_2 = "a1a455b"  # the commit CI landed as toolex 0.2
ISSUE_34 = "979b28b"  # the head issue 34 measured the demo on

RUN = """
import sys, time
from toolex.cli.demo import run_demo
from toolex.store import Store
store = Store.open(sys.argv[1])
t = time.perf_counter()
out = run_demo(store)
store.close()
print(" ".join(f"{k}={v:.2f}" for k, v in out["timings"].items()))
"""


def one(source: Path, tmp: Path, tag: str) -> tuple[float, float, str]:
    """Wall and CPU seconds of one demo in a fresh interpreter running ``source``'s toolex."""
    db = tmp / f"{tag}-{time.monotonic_ns()}.duckdb"
    env = os.environ | {"PYTHONPATH": str(source)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(db)], env=env, capture_output=True, text=True, cwd=tmp
    )
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{tag} demo failed:\n{done.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=ISSUE_34, help="git revision to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    started = figures.load()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        base = tmp / "baseline"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.baseline],
            check=True,
            capture_output=True,
        )
        try:
            for tree in (base, ROOT):
                compile_tree(tree)
            rows: dict[str, list[tuple[float, float]]] = {"baseline": [], "this tree": []}
            for r in range(args.rounds):
                for tag, source in (("baseline", base), ("this tree", ROOT)):
                    wall, cpu, steps = one(source, tmp, tag.replace(" ", "-"))
                    rows[tag].append((wall, cpu))
                    load = os.getloadavg()[0]
                    print(f"round {r + 1} {tag:>9}: wall {wall:6.2f} s  cpu {cpu:6.2f} s  "
                          f"load {load:4.2f}  ({steps})")  # fmt: skip
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                capture_output=True,
            )
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
           for k, v in rows.items()}  # fmt: skip
    (bw, bc), (nw, nc) = med["baseline"], med["this tree"]
    print(f"median baseline ({args.baseline}): wall {bw:.2f} s, cpu {bc:.2f} s")
    print(f"median this tree: wall {nw:.2f} s, cpu {nc:.2f} s")
    print(f"ratio this/baseline: wall {nw / bw:.2f}, cpu {nc / bc:.2f} (targets: <= 0.5 vs "
          f"{ISSUE_34}, <= 0.75 vs {LANDING_0_2}; <= 5 s wall quiet), "
          f"{os.cpu_count()} cores")  # fmt: skip
    figures.record(
        "bench_demo",
        {
            "median of the rounds": [
                {
                    "tree": tag if tag == "this tree" else f"baseline {args.baseline}",
                    "wall_s": round(wall, 2),
                    "cpu_s": round(cpu, 2),
                }
                for tag, (wall, cpu) in med.items()
            ],
            "cpu ratio this tree / baseline (target <= 0.5 vs 979b28b)": round(nc / bc, 2),
            "wall ratio this tree / baseline": round(nw / bw, 2),
        },
        data="`toolex demo` (run_demo) on the bundled StableToolBench sample, a fresh store "
        "and a fresh interpreter each time",
        notes=f"{args.rounds} rounds, baseline and this tree alternated, medians; CPU is the "
        "child's user+sys",
        load_at_start=started,
    )


if __name__ == "__main__":
    main()
