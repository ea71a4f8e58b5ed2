"""toolex's metric engine against pytrec_eval and ranx on real data, evaluation only (issue 34:
"toolex scores a depth-1000 run 7.4x faster than pytrec_eval and 29x faster than ranx (eval
only), equal to ranx on a top-10 cut, with every per-query value identical"; keep it so).

    python benchmarks/bench_engines.py                 # depth 1000 and its top-10 cut, 5 rounds
    python benchmarks/bench_engines.py --rounds 9

Data: the four ToolRet tasks of ../shared/data (2,098 queries, 3,020 labels) loaded into a
temporary store, and a BM25 run of depth 1000 made by `toolex retrieve`; the top-10 cut is the
same run's first 10 results a query, stored as a second run. Not timed: loading, retrieving,
and building each reference's input (pytrec_eval's dicts, ranx's Qrels and Run) from the store.

Timed, per round and per run, each engine in this process (CPU seconds of the process, every
thread, and wall):
- toolex: ``toolex.metrics.per_query`` (nDCG, R and Comp at 10, old and new, one statement);
- pytrec_eval: ``RelevanceEvaluator(qrels, {ndcg_cut.10, recall.10}).evaluate(run)``;
- ranx: ``evaluate(qrels, run, ["ndcg@10", "recall@10"])`` after one untimed call, so that
  numba's compilation is not counted (ranx caches its per-run scores: each round builds a
  fresh ``Run``, untimed, so that every timed call computes).

Every per-query nDCG@10 and R@10 of the three must agree to 1e-9 (the run fails otherwise);
toolex's ``old`` is the value compared (no expansion here: ``new`` is equal to it). The medians
over the rounds are the figures, with ratios reference / toolex (>1: toolex is faster).
ranx is not a dependency of toolex: without it the ranx lines are skipped and said to be.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytrec_eval
import reads
from figures import load, record

from toolex import metrics
from toolex.store import Store

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "toolret"
TOOLEX = "from toolex.cli import main; main()"
K = 10

Labels = dict[str, dict[str, int]]
Ranked = dict[str, dict[str, float]]
PerQuery = dict[tuple[str, str], float]  # (query, metric) -> value
RanxMaker = Callable[[Labels, Ranked], Callable[[], PerQuery]]


def prepare(tmp: Path, depth: int) -> Path:
    """The store: the four ToolRet tasks, a BM25 run of ``depth`` and its top-10 cut."""
    db = tmp / "toolret.duckdb"
    for argv in (
        ["load", "toolret", str(DATA), "--db", str(db), "-q"],
        ["retrieve", "--benchmark", "toolret", "--retriever", "bm25", "--run", "deep",
         "--depth", str(depth), "--db", str(db), "-q"],
        ["retrieve", "--benchmark", "toolret", "--retriever", "bm25", "--run", "cut",
         "--depth", str(K), "--db", str(db), "-q"],
    ):  # fmt: skip
        subprocess.run([sys.executable, "-c", TOOLEX, *argv], check=True, timeout=1800)
    return db


def inputs(store: Store, run_id: str) -> tuple[Labels, Ranked]:
    """The qrels and one run as the references take them (not timed)."""
    qrels: Labels = defaultdict(dict)
    for q, item, rel in reads.rows(
        store,
        "SELECT query_id, item_id, relevance FROM qrels WHERE benchmark = 'toolret'"
        " ORDER BY query_id, item_id",
    ):
        qrels[str(q)][str(item)] = int(rel)
    run: Ranked = defaultdict(dict)
    for q, item, score in reads.rows(
        store,
        "SELECT query_id, item_id, score FROM run_results WHERE run_id = ? ORDER BY query_id, rank",
        [run_id],
    ):
        run[str(q)][str(item)] = float(score)
    return dict(qrels), dict(run)


def timed(fn: Callable[[], PerQuery]) -> tuple[PerQuery, float, float]:
    """fn's result, its CPU seconds (the process: DuckDB's threads too) and wall seconds."""
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - cpu, time.perf_counter() - wall


def by_toolex(store: Store, run_id: str) -> PerQuery:
    table = metrics.per_query(store, [run_id], [K])
    return {
        (r["query_id"], r["metric"]): float(r["old"])
        for r in table.to_pylist()
        if r["metric"] in ("ndcg", "recall")  # Comp@K has no counterpart in the references
    }


def by_pytrec(qrels: Labels, run: Ranked) -> PerQuery:
    got = pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut.{K}", f"recall.{K}"}).evaluate(run)
    out: PerQuery = {}
    for q in qrels:  # a labelled query with no results scores 0, as toolex's rows of zeros
        m = got.get(q, {})
        out[(q, "ndcg")] = m.get(f"ndcg_cut_{K}", 0.0)
        out[(q, "recall")] = m.get(f"recall_{K}", 0.0)
    return out


def ranx_engine() -> tuple[RanxMaker, str] | None:
    """A maker of timed ranx calls, or None when ranx is not installed."""
    try:
        import ranx
    except ImportError:
        return None

    def make(qrels: Labels, run: Ranked) -> Callable[[], PerQuery]:
        q, r = ranx.Qrels(qrels), ranx.Run({k: v for k, v in run.items() if k in qrels})

        def call() -> PerQuery:
            ranx.evaluate(q, r, [f"ndcg@{K}", f"recall@{K}"], make_comparable=True)
            out: PerQuery = {}
            for query in qrels:
                scores = r.scores
                out[(query, "ndcg")] = float(scores[f"ndcg@{K}"].get(query, 0.0))
                out[(query, "recall")] = float(scores[f"recall@{K}"].get(query, 0.0))
            return out

        return call

    return make, getattr(ranx, "__version__", "installed")


def agree(name: str, got: PerQuery, want: PerQuery) -> float:
    if got.keys() != want.keys():
        raise SystemExit(f"{name}: {len(got)} per-query values against toolex's {len(want)}")
    worst = max(abs(got[key] - want[key]) for key in want)
    if worst > 1e-9:
        raise SystemExit(f"{name} and toolex disagree by {worst}")
    return worst


def measure(
    store: Store, run_id: str, label: str, make_ranx: RanxMaker | None, rounds: int
) -> dict[str, object]:
    """Time the engines on one run, check they agree, print and return its figures."""
    qrels, run = inputs(store, run_id)
    n_results = sum(map(len, run.values()))
    engines: dict[str, Callable[[], PerQuery]] = {
        "toolex": partial(by_toolex, store, run_id),
        "pytrec_eval": partial(by_pytrec, qrels, run),
    }
    if make_ranx is not None:
        engines["ranx"] = make_ranx(qrels, run)
        engines["ranx"]()  # numba compiles here, untimed
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in engines}
    for _ in range(rounds):
        if make_ranx is not None:  # a fresh Run: ranx keeps a run's scores
            engines["ranx"] = make_ranx(qrels, run)
        values: dict[str, PerQuery] = {}
        for name, fn in engines.items():
            out, cpu, wall = timed(fn)
            values[name] = out
            times[name].append((cpu, wall))
        for name in engines:
            if name != "toolex":
                agree(name, values[name], values["toolex"])
    med = {
        name: (statistics.median(c for c, _ in t), statistics.median(w for _, w in t))
        for name, t in times.items()
    }
    cpu_tx, wall_tx = med["toolex"]
    print(f"{label}: {len(qrels)} queries, {n_results} results; nDCG@{K} and R@{K} "
          f"equal to 1e-9 across {', '.join(engines)}")  # fmt: skip
    fig: dict[str, object] = {"run": label, "queries": len(qrels), "results": n_results}
    for name, (cpu, wall) in med.items():
        ratio = (
            "" if name == "toolex" else f"  {cpu / cpu_tx:6.2f}x CPU, {wall / wall_tx:6.2f}x wall"
        )
        print(f"  {name:12} {cpu * 1000:9.1f} CPU-ms {wall * 1000:9.1f} ms{ratio}")
        fig[f"{name} CPU-ms"] = round(cpu * 1000, 1)
        fig[f"{name} ms"] = round(wall * 1000, 1)
        if name != "toolex":
            fig[f"{name} / toolex, CPU"] = round(cpu / cpu_tx, 2)
            fig[f"{name} / toolex, wall"] = round(wall / wall_tx, 2)
    return fig


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--depth", type=int, default=1000)
    args = ap.parse_args()
    started = load()
    print(f"# {os.cpu_count()} cores, load {os.getloadavg()}", flush=True)
    ranx_made = ranx_engine()
    if ranx_made is None:
        print("ranx is not installed (pip install ranx): its lines are skipped")
    figs: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp_name:
        store = Store.open(prepare(Path(tmp_name), args.depth))
        metrics.ensure_macros(store)
        make_ranx = ranx_made[0] if ranx_made else None
        for run_id, label in (("deep", f"depth {args.depth}"), ("cut", f"top-{K} cut")):
            figs.append(measure(store, run_id, label, make_ranx, args.rounds))
        store.close()
    record(
        "bench_engines",
        {"metric engines, evaluation only": figs},
        data=f"the four ToolRet tasks of ../shared/data (2,098 queries, 3,020 labels), a BM25 run "
        f"of depth {args.depth} and one of depth {K}, made by toolex retrieve",
        notes=f"{args.rounds} rounds, medians, evaluation only; ranx "
        f"{ranx_made[1] if ranx_made else 'not installed'} warmed (numba) before the clock; "
        "ratios are reference / toolex (>1: toolex faster)",
        load_at_start=started,
    )


if __name__ == "__main__":
    main()
