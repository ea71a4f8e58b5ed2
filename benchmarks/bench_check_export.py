"""`toolex check` and `toolex export trec-run` on one store, this tree against a baseline
revision measured in the same run (issue 34: check scored the whole metric table twice, 91% of
its time; export held every row in memory, 1 GB peak for a 149 MB file).

    python benchmarks/bench_check_export.py                       # vs 979b28b, 3 rounds
    python benchmarks/bench_check_export.py --baseline REV --queries 2000 --depth 1000
    python benchmarks/bench_check_export.py --db scale.duckdb --run bm25   # a store you have

The store is bench_metrics.py's synthetic one (seeded: graded labels, expanded combinations,
runs of ``--depth`` results with tied scores). Each round runs the baseline's and this tree's
command one after the other, each as its own process on the same store (the baseline from
``git archive REV``, so both pay the same start-up), measured with wait4: wall, CPU (user+sys)
and peak RSS. The exported files must be byte-identical and both checks must pass. Medians of
the rounds are the figures; the load average is printed beside every line.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "979b28b"  # main before issue 34
MAIN = "from toolex.cli import main; main()"
# The store is built in a child too: a child forked from a parent holding it started with the
# parent's pages, and its peak RSS read as the parent's. Each side gets its own store, built by its
# own toolex and its own bench_metrics (the same rows from the same seed; only how they are
# inserted changed): a store written by this tree carries a schema version the baseline refuses
# to open. The exported files being byte-identical checks that the two stores hold the same runs.
# bench_metrics draws a query's combinations at random and some repeat a tool set, which no
# assembly stores (the check pipeline_combinations_distinct, newer than the baseline, fails on
# them): DEDUPE keeps the first combination of each tool set, on both sides, before any timing.
# The statements go through Store.user_sql, the door for SQL that does not ship with toolex,
# which both revisions have.
BUILD = """
import sys
sys.path.insert(0, sys.argv[1])
from bench_metrics import build
from toolex.store import Store
store = Store.open(sys.argv[2])
build(store, *map(int, sys.argv[3:7]))
for statement in sys.argv[7].split(";"):
    store.user_sql(statement)
print(store.user_sql("SELECT count(*) FROM run_results").column(0)[0].as_py())
store.close()
"""
DEDUPE = """
CREATE TEMP TABLE _repeats AS
    SELECT benchmark, expansion, query_id, combo_id FROM (
        SELECT benchmark, expansion, query_id, combo_id,
               row_number() OVER (PARTITION BY benchmark, expansion, query_id, tools
                                  ORDER BY combo_id) AS nth
        FROM (SELECT benchmark, expansion, query_id, combo_id,
                     list_sort(list(DISTINCT item_id)) AS tools
              FROM combination_items GROUP BY ALL))
    WHERE nth > 1;
DELETE FROM combination_items
    WHERE (benchmark, expansion, query_id, combo_id) IN (SELECT * FROM _repeats);
DELETE FROM combinations
    WHERE (benchmark, expansion, query_id, combo_id) IN (SELECT * FROM _repeats)
"""


def build_store(source: Path, db: Path, sizes: list[int]) -> int:
    """Build the synthetic store at ``db`` with the toolex and bench_metrics of ``source``."""
    built = subprocess.run(
        [
            sys.executable,
            "-c",
            BUILD,
            str(source / "benchmarks"),
            str(db),
            *map(str, sizes),
            DEDUPE,
        ],
        env=os.environ | {"PYTHONPATH": str(source)},
        cwd=source.parent,  # not this tree: `python -c` puts the working folder first on the path
        capture_output=True,
        text=True,
    )
    if built.returncode != 0:
        raise SystemExit(f"building the store for {source} failed:\n{built.stderr[-2000:]}")
    return int(built.stdout.split()[-1])


def unpack(rev: str, into: Path) -> Path:
    """The toolex of ``rev``, unpacked from ``git archive`` (no worktree to clean up)."""
    into.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", rev],
        check=True,
        capture_output=True,
    ).stdout
    tar = into / "src.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as t:
        t.extractall(into, filter="data")
    return into


def measure(source: Path, args: list[str]) -> tuple[float, float, float]:
    """Wall s, CPU s and peak RSS MB of `toolex ARGS` run from ``source``."""
    env = os.environ | {"PYTHONPATH": str(source)}
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", MAIN, *args],
        env=env,
        cwd=source.parent,  # not this tree: `python -c` puts the working folder first on the path
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    err = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(args)} failed from {source}:\n{err[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default=BASELINE)
    ap.add_argument("--queries", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--db", type=Path, help="measure on this store instead (read only)")
    ap.add_argument("--run", default="run00", help="the run to export (with --db)")
    args = ap.parse_args()
    print(f"# {os.cpu_count()} cores, load {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        sources = {"baseline": unpack(args.baseline, tmp / "baseline"), "this tree": ROOT}
        dbs = {tag: args.db or tmp / f"{tag.replace(' ', '-')}.duckdb" for tag in sources}
        t = time.perf_counter()
        sizes = [args.queries, args.runs, args.depth, args.seed]
        if args.db is None:
            results = {tag: build_store(source, dbs[tag], sizes) for tag, source in sources.items()}
            took, n = time.perf_counter() - t, results["this tree"]
            print(f"# stores: {args.queries} queries, {args.runs} runs x {args.depth} deep "
                  f"({n} results), one per side, built in {took:.0f} s", flush=True)  # fmt: skip
        else:
            print(f"# store: {args.db} (both sides read it: the baseline must know its schema)",
                  flush=True)  # fmt: skip
        commands: dict[str, Callable[[str], list[str]]] = {
            "check": lambda tag: ["check", "--db", str(dbs[tag]), "-q"],
            "export trec-run": lambda tag: [
                "export",
                "trec-run",
                "--run",
                args.run,
                "--db",
                str(dbs[tag]),
                "-q",
                "--out",
                str(tmp / f"{tag.replace(' ', '-')}.run"),
            ],  # fmt: skip
        }
        figures: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
        for r in range(args.rounds):
            for name, argv in commands.items():
                for tag, source in sources.items():
                    wall, cpu, rss = measure(source, argv(tag))
                    figures.setdefault((name, tag), []).append((wall, cpu, rss))
                    print(f"round {r + 1} {name:15} {tag:9}: wall {wall:6.2f} s  cpu {cpu:6.2f} s"
                          f"  peak RSS {rss:6.0f} MB  load {os.getloadavg()[0]:5.2f}",
                          flush=True)  # fmt: skip
        files = [tmp / "baseline.run", tmp / "this-tree.run"]
        same = digest(files[0]) == digest(files[1])
        size = files[1].stat().st_size / 1e6
        print(f"# exported file: {size:.0f} MB, identical to the baseline's: {same}")
        if not same:
            raise SystemExit("the exported run files differ")
    for name in commands:
        med = {
            tag: [statistics.median(v[i] for v in figures[(name, tag)]) for i in range(3)]
            for tag in sources
        }
        (bw, bc, br), (nw, nc, nr) = med["baseline"], med["this tree"]
        print(f"{name}: median baseline ({args.baseline}) wall {bw:.2f} s, cpu {bc:.2f} s, "
              f"peak {br:.0f} MB; this tree wall {nw:.2f} s, cpu {nc:.2f} s, peak {nr:.0f} MB; "
              f"ratio this/baseline: cpu {nc / bc:.2f}, peak RSS {nr / br:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
