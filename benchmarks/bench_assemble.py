"""Peak memory and wall time of the assembly at equal audit budget, as the library grows (issue 11).

    python benchmarks/bench_assemble.py                        # 1,000 queries, 5k/50k/200k tools
    python benchmarks/bench_assemble.py --queries 300 --reference 5k

A bigger library holds more equivalents of each step, so more of each sub-query's 20 candidates
are verified and the products grow exponentially in the number of steps. The synthetic queries
mimic that: 1-5 steps (StableToolBench-like shares), each with its reference plus a binomial
share of 20 candidates accepted, the share set per library size (mean accepted per slot ~2.5 at
5k tools, ~5 at 50k, ~9 at 200k; 50k gives a few hundred combinations per query on average, the
order the issue measured). The budget is the default: audit every combination, up to the
safety limit of 1,000 per query.

Each measurement runs in a fresh interpreter on a copy of a store built beforehand: open it, note
the resident set size (RSS), run the assembly of every query, then read the peak RSS (``VmHWM``).
Printed: peak - RSS before the assembly, the peak itself, wall time, combinations in the products
and stored. The reference, measured in the same run, is the materialising assembly it replaced
(tests/pipeline/data/assemble_reference: the whole product in SQL, ranked, stored, then cut), on
the library sizes it survives (``--reference``; 200k would need its whole product in memory).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import fixtures
import reads

if TYPE_CHECKING:
    from toolex.store import Store

ROOT = Path(__file__).resolve().parents[1]
# mean accepted items per slot (the reference included) as the library grows
LIBRARIES = {"5k": 2.5, "50k": 5.0, "200k": 9.0}
STEPS = {1: 0.2, 2: 0.4, 3: 0.25, 4: 0.1, 5: 0.05}  # share of queries with that many steps
DEPTH = 20


# per query, per slot, (item, rank, accepted)
Drawn = list[list[list[tuple[str, int, bool]]]]


class Measured(TypedDict):
    """What one assembly cost in its child process (the JSON line measure_child prints)."""

    before_mb: float
    peak_mb: float
    wall_s: float
    stored: int
    product: int


def queries(library: str, n: int, seed: int) -> Drawn:
    """Per query, per slot, (item, rank, accepted); the reference is the slot's first item."""
    rng = random.Random(seed)
    share = (LIBRARIES[library] - 1) / DEPTH
    out = []
    for q in range(n):
        k = rng.choices(list(STEPS), weights=list(STEPS.values()))[0]
        slots = []
        for s in range(k):
            ranks = list(range(1, DEPTH + 1))
            ref_rank = rng.choice(ranks)
            rows = [(f"q{q}s{s}ref", ref_rank, True)]
            rows += [(f"q{q}s{s}c{r}", r, rng.random() < share) for r in ranks if r != ref_rank]
            slots.append(rows)
        out.append(slots)
    return out


def build(store: Store, data: Drawn) -> None:
    """Items, queries, sub-queries, candidates and verdicts of ``data`` (benchmark 'b')."""
    import pyarrow as pa

    items, qrels, subs, cands = [], [], [], []
    for q, slots in enumerate(data):
        for s, rows in enumerate(slots):
            subs.append({"query_id": f"q{q}", "slot": s, "reference": rows[0][0]})
            qrels.append({"query_id": f"q{q}", "item_id": rows[0][0], "slot": s})
            for item, rank, accepted in rows:
                items.append({"item_id": item})
                cands.append(
                    {"query_id": f"q{q}", "slot": s, "item_id": item, "rank": rank, "ok": accepted}
                )
    with store.transaction():
        fixtures.write(
            store, "INSERT INTO benchmarks (benchmark, format, source) VALUES ('b', 'x', 'x')"
        )
        statements = {
            "items": "INSERT INTO items (benchmark, item_id, name, doc, text) "
            "SELECT 'b', item_id, item_id, '{}', item_id FROM rows",
            "queries": "INSERT INTO queries SELECT DISTINCT 'b', query_id, 't', 'c', 'q', NULL "
            "FROM rows",
            "qrels": "INSERT INTO qrels SELECT 'b', query_id, item_id, 1, slot FROM rows",
            "subqueries": "INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, "
            "reference) SELECT 'b', 'default', query_id, slot, 's', reference FROM rows",
            "candidates": "INSERT INTO candidates SELECT 'b', 'default', query_id, slot, item_id, "
            "rank, NULL, 'x' FROM rows",
            "verdicts": "INSERT INTO verdicts SELECT 'b', 'default', query_id, slot, item_id, ok, "
            "NULL, 'j', NULL, NULL FROM rows",
        }
        inputs = {"items": items, "queries": qrels, "qrels": qrels, "subqueries": subs}
        inputs |= {"candidates": cands, "verdicts": cands}
        for table, sql in statements.items():
            with store.registered("rows", pa.Table.from_pylist(inputs[table])):
                fixtures.write(store, sql)


def rss_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def build_child(library: str, n: int, seed: int, path: str) -> None:
    from toolex.store import Store

    store = Store.open(Path(path))
    build(store, queries(library, n, seed))
    store.close()


def measure_child(method: str, path: str) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from pipeline.assemble_reference import run_reference

    from toolex.pipeline import assemble
    from toolex.pipeline.stage import StageContext
    from toolex.pipeline.stats import annotation_rows
    from toolex.store import Store

    store = Store.open(Path(path))
    ids = [r[0] for r in reads.rows(store, "SELECT query_id FROM queries")]
    ctx = StageContext(store, "b", "default", ids)
    # the high-water mark restarts at the current RSS: the peak is the assembly's
    Path("/proc/self/clear_refs").write_text("5")
    before = rss_kb("VmRSS")
    started = time.perf_counter()
    if method == "lazy":
        assemble.run(ctx)
    else:
        run_reference(ctx)
    wall = time.perf_counter() - started
    peak = rss_kb("VmHWM")
    stored = reads.value(store, "SELECT count(*) FROM combinations")
    # the combinations assembled, as `toolex stats` reports them
    product = annotation_rows(store, "b", "default", "all")[0].assembled
    assert isinstance(product, int | float), product  # a count (DuckDB's sum may be a double)
    store.close()
    print(json.dumps({"before_mb": before / 1024, "peak_mb": peak / 1024, "wall_s": wall,
                      "stored": stored, "product": int(product)}))  # fmt: skip


def child(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, __file__, *args],
        capture_output=True,
        text=True,
        check=False,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
    )


def measure(method: str, built: Path, tmp: Path) -> Measured | str:
    """The child's figures, or the last line of its error."""
    path = tmp / f"{method}.duckdb"
    shutil.copy(built, path)
    done = child("--measure", method, str(path))
    path.unlink()
    if done.returncode != 0:
        return (done.stderr.strip().splitlines() or ["?"])[-1]
    measured: Measured = json.loads(done.stdout.strip().splitlines()[-1])
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--libraries", default="5k,50k,200k")
    parser.add_argument("--reference", default="5k,50k", help="sizes the old assembly runs on")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--build", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--measure", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build:
        library, n, seed, path = args.build
        build_child(library, int(n), int(seed), path)
        return
    if args.measure:
        measure_child(*args.measure)
        return
    print(f"{args.queries} queries per library, budget: audit all (safety limit 1,000 per query)")
    print(f"{'library':>8} {'assembly':>13} {'peak-before':>12} {'peak':>9} {'wall':>8} "
          f"{'product':>13} {'stored':>10}")  # fmt: skip
    lazy_peaks: dict[str, float] = {}
    for library in args.libraries.split(","):
        methods = ["lazy"] + (["materialising"] if library in args.reference.split(",") else [])
        tmp = Path(tempfile.mkdtemp(prefix="bench_assemble_"))
        built = tmp / "built.duckdb"
        done = child("--build", library, str(args.queries), str(args.seed), str(built))
        if done.returncode != 0:
            raise SystemExit(done.stderr)
        for method in methods:
            r = measure(method, built, tmp)
            if isinstance(r, str):
                print(f"{library:>8} {method:>13}  failed: {r}")
                continue
            if method == "lazy":
                lazy_peaks[library] = r["peak_mb"] - r["before_mb"]
            print(f"{library:>8} {method:>13} {r['peak_mb'] - r['before_mb']:>9.0f} MB "
                  f"{r['peak_mb']:>6.0f} MB {r['wall_s']:>6.2f} s {r['product']:>13,} "
                  f"{r['stored']:>10,}")  # fmt: skip
        shutil.rmtree(tmp)
    if len(lazy_peaks) > 1:
        low, high = min(lazy_peaks.values()), max(lazy_peaks.values())
        print(f"lazy assembly, peak-before, largest / smallest library size: {high / low:.2f}x")


if __name__ == "__main__":
    main()
