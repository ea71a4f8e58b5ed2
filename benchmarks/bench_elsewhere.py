"""Load, expand and score two benchmarks in other people's layouts, made from ../shared/data:
StableToolBench as a BEIR corpus with packed ToolBench text, and a SkillRet-layout skill library
made from ToolRet tasks (the generators: tests/loaders/elsewhere_data.py).

    python benchmarks/bench_elsewhere.py [--data ../shared/data] [--skill-tasks apibank,toolink]

Prints, per benchmark: load seconds and counts; expand seconds and outcome (sub-queries,
references missed from their candidate lists, equivalents per sub-query, valid combinations,
queries with an alternative, degenerate warnings); retrieve seconds; old/new nDCG@10, R@10,
Comp@10 of BM25; and the largest per-query difference between toolex's old scores and
pytrec_eval's on the same run and qrels. As a reference measured in the same process, the BEIR
benchmark's figures sit beside those of `load stabletoolbench` on the same data: the two must
agree, which is what parsing the packed text buys.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytrec_eval
import reads

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from loaders.elsewhere_data import packed_beir, skill_library  # noqa: E402

from toolex.judges.heuristic import HeuristicJudge  # noqa: E402
from toolex.loaders import load_beir, load_skillret, load_stabletoolbench  # noqa: E402
from toolex.loaders.result import LoadResult  # noqa: E402
from toolex.metrics import scores, summary  # noqa: E402
from toolex.pipeline.outcome import degenerate_warnings, expansion_outcome  # noqa: E402
from toolex.pipeline.runner import run_expansion  # noqa: E402
from toolex.retrieval.runs import retrieve_run  # noqa: E402
from toolex.store import Store  # noqa: E402

T = TypeVar("T")


def timed(fn: Callable[[], T]) -> tuple[T, float]:
    """``fn()`` and the seconds it took."""
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def figures(store: Store, name: str, load: Callable[[], LoadResult]) -> None:
    loaded, t_load = timed(load)
    print(f"\n{name}: load {t_load:.1f} s ({loaded.items} items, {loaded.queries} queries, "
          f"{loaded.qrels} qrels)")  # fmt: skip
    for note in loaded.notes:
        print(f"  note: {note}")
    _, t_exp = timed(lambda: run_expansion(store, name, HeuristicJudge(store, benchmark=name)))
    o = expansion_outcome(store, name, "default")
    print(
        f"  expand (heuristic) {t_exp:.1f} s: {o.subqueries} sub-queries, references missed "
        f"{o.refs_missed}/{o.with_candidates}, {o.accepted} equivalents accepted "
        f"({o.equivalents_per_subquery:.3f} per sub-query), {o.valid} valid combinations, "
        f"{o.with_alternative}/{o.queries} queries with an alternative, "
        f"{o.failed_queries} failed queries, top sub-query text x{o.top_text_n}"
    )
    for w in degenerate_warnings(o):
        print(f"  DEGENERATE: {w}")
    run_id = f"bm25-{name}"
    _, t_ret = timed(
        lambda: retrieve_run(store, name, "bm25", run_id, scope="benchmark", depth=100)
    )
    (rows, t_eval) = timed(lambda: summary(store, [run_id], (10,), "default", "category"))
    alls = {r.metric: r for r in rows if r.group == "all"}
    print(
        f"  retrieve bm25 {t_ret:.1f} s; eval {t_eval:.2f} s: "
        + ", ".join(
            f"{m}@10 {alls[m].old:.4f} -> {alls[m].new:.4f}" for m in ("ndcg", "recall", "comp")
        )
    )
    qrels: dict[str, dict[str, int]] = {}
    for q, i, r in reads.rows(
        store, "SELECT query_id, item_id, relevance FROM qrels WHERE benchmark = ?", [name]
    ):
        qrels.setdefault(q, {})[i] = r
    run: dict[str, dict[str, float]] = {}
    for q, i, s in reads.rows(
        store, "SELECT query_id, item_id, score FROM run_results WHERE run_id = ?", [run_id]
    ):
        run.setdefault(q, {})[i] = s
    ref = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recall.10"}).evaluate(run)
    # toolex's old scores (no expansion: the original qrels), typed rows of the metric engine
    ours = [*scores(store, "ndcg@10", [run_id]), *scores(store, "recall@10", [run_id])]
    diff = max(
        abs(s.value - ref.get(s.query_id, {}).get(
            "ndcg_cut_10" if s.metric == "ndcg" else "recall_10", 0.0))
        for s in ours
    )  # fmt: skip
    print(f"  largest |toolex old - pytrec_eval| per query (nDCG@10, R@10): {diff:.2e}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared/data"))
    ap.add_argument("--skill-tasks", default="apibank,toolink")
    args = ap.parse_args()
    data = Path(args.data)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        beir = packed_beir(data / "stabletoolbench", root / "stb-beir")
        skills = skill_library(
            data / "toolret", root / "skills", tuple(args.skill_tasks.split(","))
        )
        store = Store.open(root / "elsewhere.duckdb")
        figures(store, "stb-beir", lambda: load_beir(store, beir, name="stb-beir"))
        figures(
            store,
            "stabletoolbench",
            lambda: load_stabletoolbench(store, data / "stabletoolbench"),
        )
        # load_skillret also returns the substitutable qrels, which this figure does not import
        figures(store, "skills", lambda: load_skillret(store, skills, name="skills")[0])
        store.close()


if __name__ == "__main__":
    main()
