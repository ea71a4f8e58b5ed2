"""Start-up: `toolex --help` and the whole `toolex eval` process on a top-10 cut, against
pytrec_eval's whole process and a baseline revision, measured in the same run (issue 34).

    python benchmarks/bench_startup.py                  # vs 2f145cd, 7 rounds
    python benchmarks/bench_startup.py --baseline REV --rounds 11

Data: the four ToolRet tasks of ../shared/data (2,098 queries, 3,020 labels) and a BM25 run of
depth 10 (20,980 results), made once with this tree's toolex. Each is measured as a fresh
process (wall and CPU = user+sys of the child, wait4), alternated within each round:

- pytrec_eval: a Python process that imports pytrec_eval, reads the TREC qrels and run files,
  and evaluates ndcg_cut.10 and recall.10 (the reference the issue names);
- `toolex eval --run bm25 --k 10` on the store (nDCG, R and Comp@10, old and new, by category,
  with the trust lines), from this tree and from the baseline (``git archive REV``);
- `toolex eval --run-file run --qrels-file qrels -m nDCG@10 -m R@10`: the same files pytrec_eval
  reads, no store;
- `toolex --help`.

Medians of the rounds are the figures; the load average is printed beside every round. Targets:
eval <= 1.5x pytrec_eval's process, --help <= 0.3 s.

Wall and CPU tell different stories, and wall is the one a person waits for. pytrec_eval's
process imports numpy, whose OpenBLAS starts a thread per core that spins a while on the other
core: on a quiet machine its CPU exceeds its wall (0.285 vs 0.184 s in the record of 1183a40),
so a toolex process whose CPU equals its wall scores better against it in CPU than in wall. Under
load the spinning thread gets little CPU and the two measures agree. The wall figures need a
quiet machine; the CPU ones hold at any load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from figures import load, record

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "toolret"
# main before the fourth round of start-up work (no DuckDB thread for a small read-only store,
# logging loaded on first use); the baseline reads the store this tree builds, so it must know
# its schema (72 here and there)
BASELINE = "2f145cd"
TOOLEX = "from toolex.cli import main; main()"
PYTREC = """
import sys, pytrec_eval
qrels, run = {}, {}
for line in open(sys.argv[1]):
    q, _, d, r = line.split()
    qrels.setdefault(q, {})[d] = int(r)
for line in open(sys.argv[2]):
    q, _, d, _, s, _ = line.split()
    run.setdefault(q, {})[d] = float(s)
scores = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recall.10"}).evaluate(run)
n = len(scores)
print(sum(v["ndcg_cut_10"] for v in scores.values()) / n)
"""


def unpack(rev: str, into: Path) -> Path:
    into.mkdir()
    tar = into / "src.tar"
    tar.write_bytes(
        subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", rev],
            check=True,
            capture_output=True,
        ).stdout
    )
    with tarfile.open(tar) as t:
        t.extractall(into, filter="data")
    return into


def compile_tree(tree: Path) -> None:
    """Write the .pyc of ``tree``'s toolex, as an installed package has them (pip compiles a
    wheel on install). Running it is not enough where PYTHONDONTWRITEBYTECODE is set (this
    machine sets it): every process then compiled each toolex module it imported from source,
    0.03 CPU-s of a `toolex eval`, while pytrec_eval (site-packages, compiled) paid nothing."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(tree / "toolex")],
        check=True,
        capture_output=True,
    )


def run(argv: list[str], source: Path | None, cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one process (``source``: the toolex tree on PYTHONPATH)."""
    env = os.environ | ({"PYTHONPATH": str(source)} if source else {})
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, *argv], env=env, cwd=cwd, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        err = proc.stderr.read().decode() if proc.stderr else ""
        raise SystemExit(f"{argv} failed:\n{err[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default=BASELINE)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    started = load()
    print(f"# {os.cpu_count()} cores, load {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        db = str(tmp / "toolret.duckdb")
        for setup in (
            ["load", "toolret", str(DATA), "--db", db, "-q"],
            ["retrieve", "--benchmark", "toolret", "--retriever", "bm25", "--run", "bm25",
             "--depth", "10", "--db", db, "-q"],
            ["export", "trec-run", "--run", "bm25", "--out", str(tmp / "run.trec"), "--db", db],
            ["export", "trec-qrels", "--out", str(tmp / "qrels.trec"), "--db", db],
        ):  # fmt: skip
            run(["-c", TOOLEX, *setup], ROOT, tmp)
        base = unpack(args.baseline, tmp / "baseline")
        eval_store = ["-c", TOOLEX, "eval", "--db", db, "--run", "bm25", "--k", "10"]
        eval_files = ["-c", TOOLEX, "eval", "--run-file", str(tmp / "run.trec"), "--qrels-file",
                      str(tmp / "qrels.trec"), "-m", "nDCG@10", "-m", "R@10"]  # fmt: skip
        pytrec = ["-c", PYTREC, str(tmp / "qrels.trec"), str(tmp / "run.trec")]
        cases = {
            "pytrec_eval process": (pytrec, None),
            "eval store, baseline": (eval_store, base),
            "eval store, this tree": (eval_store, ROOT),
            "eval files, baseline": (eval_files, base),
            "eval files, this tree": (eval_files, ROOT),
            "--help, baseline": (["-c", TOOLEX, "--help"], base),
            "--help, this tree": (["-c", TOOLEX, "--help"], ROOT),
        }  # fmt: skip
        for source_tree in (ROOT, base):
            compile_tree(source_tree)
        for argv, source in cases.values():  # a first run of each, untimed
            run(argv, source, tmp)
        got: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
        for r in range(args.rounds):
            for name, (argv, source) in cases.items():
                got[name].append(run(argv, source, tmp))
            line = "  ".join(f"{name.split(',')[-1].strip()[:9]} {got[name][-1][0]:.2f}"
                             for name in cases)  # fmt: skip
            print(f"round {r + 1}: load {os.getloadavg()[0]:5.2f}  wall s: {line}", flush=True)
    med = {
        name: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
        for name, v in got.items()
    }
    for name, (wall, cpu) in med.items():
        print(f"{name:24} median wall {wall:6.3f} s  cpu {cpu:6.3f} s")
    ref_wall, ref_cpu = med["pytrec_eval process"]
    ratios = []
    for tree in ("baseline", "this tree"):
        for kind in ("store", "files"):
            wall, cpu = med[f"eval {kind}, {tree}"]
            print(f"eval ({kind}) {tree} / pytrec_eval: wall {wall / ref_wall:.2f}x, "
                  f"cpu {cpu / ref_cpu:.2f}x (target <= 1.5x)")  # fmt: skip
            ratios.append({"eval": kind, "tree": tree, "wall_x": round(wall / ref_wall, 2),
                           "cpu_x": round(cpu / ref_cpu, 2)})  # fmt: skip
    bw, nw = med["--help, baseline"][0], med["--help, this tree"][0]
    print(f"--help: baseline {bw:.3f} s, this tree {nw:.3f} s (target <= 0.3 s)")
    print(f"# load at the end {os.getloadavg()}")
    record(
        "bench_startup",
        {
            "median seconds per process": [
                {"process": name, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3)}
                for name, (wall, cpu) in med.items()
            ],
            "toolex eval / pytrec_eval's process (target <= 1.5x)": ratios,
            "toolex --help wall s (target <= 0.3)": round(nw, 3),
        },
        data="the four ToolRet tasks of ../shared/data (2,098 queries, 3,020 labels), a BM25 run "
        "of depth 10 (20,980 results); pytrec_eval evaluating ndcg_cut.10 and recall.10",
        notes=f"{args.rounds} rounds, medians; baseline {args.baseline}; CPU is the child's "
        "user+sys (wait4)",
        load_at_start=started,
    )


if __name__ == "__main__":
    main()
