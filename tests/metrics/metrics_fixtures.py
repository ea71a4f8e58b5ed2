"""Synthetic stores for the metric tests, built by inserting rows directly, and a plain-Python
reference (pytrec_eval per combination, max per query) to compare the SQL engine with."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import pyarrow as pa
import pytrec_eval
from duckdb import DuckDBPyConnection

BENCH = "b"


def ranked(results: dict[str, float]) -> list[str]:
    """trec_eval order: score descending, then item id descending (byte order)."""
    return sorted(results, key=lambda item: (-results[item], _desc(item)))


def _desc(item: str) -> tuple[int, ...]:
    return tuple(-b for b in item.encode()) + (1,)


@dataclass
class Synthetic:
    """What was inserted, in the shapes pytrec_eval takes."""

    qrels: dict[str, dict[str, int]] = field(default_factory=dict)
    slots: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # query -> [(item, rel)]
    runs: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    combos: dict[str, list[list[str]]] = field(default_factory=dict)  # valid expanded only
    meta: dict[str, tuple[str, str]] = field(default_factory=dict)  # query -> (task, category)


def add_benchmark(con: DuckDBPyConnection, name: str = BENCH) -> None:
    con.execute(
        "INSERT INTO benchmarks (benchmark, format, source) VALUES (?, 'plain', 'synth')", [name]
    )


def add_query(
    con: DuckDBPyConnection,
    qid: str,
    labels: Sequence[tuple[str, int]],
    task: str = "t1",
    category: str = "c1",
    bench: str = BENCH,
) -> None:
    """A query and its ground truth; labels = [(item_id, relevance)], slot = position."""
    con.execute(
        "INSERT INTO queries (benchmark, query_id, task, category, text) VALUES (?, ?, ?, ?, 'q')",
        [bench, qid, task, category],
    )
    for slot, (item, rel) in enumerate(labels):
        con.execute("INSERT INTO qrels VALUES (?, ?, ?, ?, ?)", [bench, qid, item, rel, slot])


def add_run(
    con: DuckDBPyConnection, run_id: str, results: dict[str, dict[str, float]], bench: str = BENCH
) -> None:
    """A run with trec_eval ranks computed here (score DESC, item_id DESC)."""
    con.execute(
        "INSERT INTO runs (run_id, benchmark, level) VALUES (?, ?, 'query')", [run_id, bench]
    )
    rows = []
    for qid, res in results.items():
        rows += [(run_id, qid, item, res[item], rank) for rank, item in enumerate(ranked(res), 1)]
    if rows:
        con.executemany("INSERT INTO run_results VALUES (?, ?, ?, ?, ?)", rows)


def add_combo(
    con: DuckDBPyConnection,
    qid: str,
    combo_id: int,
    items: Sequence[str],
    status: str = "valid",
    expansion: str = "default",
    bench: str = BENCH,
) -> None:
    con.execute(
        "INSERT INTO combinations (benchmark, expansion, query_id, combo_id, is_original,"
        " status) VALUES (?, ?, ?, ?, ?, ?)",
        [bench, expansion, qid, combo_id, combo_id == 0, status],
    )
    con.executemany(
        "INSERT INTO combination_items VALUES (?, ?, ?, ?, ?, ?)",
        [(bench, expansion, qid, combo_id, s, it) for s, it in enumerate(items)],
    )


def tool_set(combo: Sequence[str], labels: Sequence[tuple[str, int]]) -> frozenset[tuple[str, int]]:
    """What scoring reads of a combination: its items, each at the grade of its slot's label."""
    best: dict[str, int] = {}
    for it, (_, grade) in zip(combo, labels, strict=True):
        best[it] = max(best.get(it, grade), grade)
    return frozenset(best.items())


def build_random(
    con: DuckDBPyConnection,
    *,
    seed: int,
    n_queries: int,
    n_runs: int = 2,
    n_items: int = 60,
    max_depth: int = 30,
    p_empty: float = 0.1,
    max_combos: int = 4,
) -> Synthetic:
    """Hundreds of queries, graded labels 0..3, scores rounded to 1 decimal (many ties), ids of
    mixed length (i7 vs i10, so byte order matters), some queries with no results at all."""
    rng = random.Random(seed)
    items = [f"i{n}" for n in range(n_items)]
    syn = Synthetic()
    rows: dict[str, list[tuple[object, ...]]] = {
        t: []
        for t in ("queries", "qrels", "combinations", "combination_items", "runs", "run_results")
    }
    add_benchmark(con)
    for qn in range(n_queries):
        qid = f"q{qn}"
        labels = [(it, rng.choice([0, 1, 1, 2, 3])) for it in rng.sample(items, rng.randint(1, 4))]
        task, cat = rng.choice(["t1", "t2", "t3"]), rng.choice(["c1", "c2"])
        rows["queries"].append((BENCH, qid, task, cat, "q", None))
        rows["qrels"] += [(BENCH, qid, it, rel, slot) for slot, (it, rel) in enumerate(labels)]
        syn.qrels[qid] = dict(labels)
        syn.slots[qid] = labels
        syn.meta[qid] = (task, cat)
        valid = []
        held = {tool_set([it for it, _ in labels], labels)}  # a query's tool sets are distinct
        for cid in range(1, rng.randint(0, max_combos) + 1):
            combo = [it if rng.random() < 0.4 else rng.choice(items) for it, _ in labels]
            status = "valid" if rng.random() < 0.8 else rng.choice(["cut", "rejected_audit"])
            if status != "cut":  # a stored tool set the query holds (the checks leave out cut)
                if tool_set(combo, labels) in held:
                    continue  # the random draws stay as they were: only the row is left out
                held.add(tool_set(combo, labels))
            rows["combinations"].append(
                (BENCH, "default", qid, cid, None, None, False, status, None, None, None)
            )
            rows["combination_items"] += [
                (BENCH, "default", qid, cid, slot, it) for slot, it in enumerate(combo)
            ]
            if status == "valid":
                valid.append(combo)
        syn.combos[qid] = valid
    for rn in range(n_runs):
        run_id = f"run{rn}"
        run: dict[str, dict[str, float]] = {}
        for qid in syn.qrels:
            if rng.random() < p_empty:
                continue
            picked = rng.sample(items, rng.randint(1, max_depth))
            run[qid] = {it: round(rng.random() * 1.5, 1) for it in picked}
            rows["run_results"] += [
                (run_id, qid, it, run[qid][it], rank) for rank, it in enumerate(ranked(run[qid]), 1)
            ]
        rows["runs"].append((run_id, BENCH, "query", None, None, None))
        syn.runs[run_id] = run
    for table, values in rows.items():  # one bulk insert per table: row-by-row is slow in DuckDB
        if values:
            cols = [d[0] for d in con.execute(f"DESCRIBE {table}").fetchall()][: len(values[0])]
            columns = [list(col) for col in zip(*values, strict=True)]
            con.register("rows_in", pa.table(dict(zip(cols, columns, strict=True))))
            con.execute(f"INSERT INTO {table} ({', '.join(cols)}) SELECT * FROM rows_in")
            con.unregister("rows_in")
    return syn


def trec_scores(
    qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]], ks: Iterable[int]
) -> dict[str, dict[str, dict[int, float]]]:
    """pytrec_eval ndcg_cut_K / recall_K per query (0 for queries it does not return)."""
    ks = list(ks)
    cut = ",".join(map(str, ks))
    ev = pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut.{cut}", f"recall.{cut}"})
    got = ev.evaluate({q: r for q, r in run.items() if q in qrels})
    out: dict[str, dict[str, dict[int, float]]] = {}
    for qid in qrels:
        m = got.get(qid, {})
        out[qid] = {
            "ndcg": {k: m.get(f"ndcg_cut_{k}", 0.0) for k in ks},
            "recall": {k: m.get(f"recall_{k}", 0.0) for k in ks},
        }
    return out


NO_CUT = 2**31 - 1  # toolex.metrics.registry.NO_CUT: a metric named without @K


def trec_extra(
    qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]], ks: Iterable[int]
) -> dict[str, dict[str, dict[int, float]]]:
    """pytrec_eval P_K, map_cut_K (map with no cut) and recip_rank (on the top K for RR@K)."""
    ks = list(ks)
    cut = [k for k in ks if k != NO_CUT]
    measures = {"recip_rank", "map"} | ({f"P.{','.join(map(str, cut))}"} if cut else set())
    measures |= {f"map_cut.{','.join(map(str, cut))}"} if cut else set()
    ev = pytrec_eval.RelevanceEvaluator(qrels, measures)
    got = ev.evaluate({q: r for q, r in run.items() if q in qrels})
    out: dict[str, dict[str, dict[int, float]]] = {}
    for qid in qrels:
        m = got.get(qid, {})
        out[qid] = {
            "p": {k: m.get(f"P_{k}", 0.0) for k in cut},
            "ap": {k: m.get("map" if k == NO_CUT else f"map_cut_{k}", 0.0) for k in ks},
            "rr": {},
        }
    for k in ks:  # RR@K: recip_rank of the run cut to its top K (trec_eval order)
        top = {q: {i: r[i] for i in ranked(r)[:k]} for q, r in run.items() if q in qrels}
        rr = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(top)
        for qid in qrels:
            out[qid]["rr"][k] = rr.get(qid, {}).get("recip_rank", 0.0)
    return out


def comp(labels: dict[str, int], results: dict[str, float], k: int) -> float:
    rel = {it for it, r in labels.items() if r > 0}
    top = set(ranked(results)[:k])
    return 1.0 if rel and rel <= top else 0.0


def reference(
    syn: Synthetic, run_id: str, ks: Sequence[int], *, extra: bool = False
) -> dict[tuple[str, str, int], tuple[float, float]]:
    """{(query, metric, k): (old, new)}: pytrec_eval per combination, then max per query; the
    paper's three metrics, or (``extra``) P, RR and AP."""
    run = syn.runs[run_id]
    per_combo: list[dict[str, dict[str, int]]] = [syn.qrels]
    depth = max((len(c) for c in syn.combos.values()), default=0)
    for j in range(depth):
        combo_qrels = {}
        for qid, combos in syn.combos.items():
            if j < len(combos):
                labels: dict[str, int] = {}
                for item, (_, rel) in zip(combos[j], syn.slots[qid], strict=True):
                    labels[item] = max(rel, labels.get(item, rel))
                combo_qrels[qid] = labels
        per_combo.append(combo_qrels)
    out: dict[tuple[str, str, int], tuple[float, float]] = {}
    for idx, qrels in enumerate(per_combo):
        scores = trec_extra(qrels, run, ks) if extra else trec_scores(qrels, run, ks)
        for qid, by_metric in scores.items():
            for k in ks if not extra else ():
                by_metric.setdefault("comp", {})[k] = comp(qrels[qid], run.get(qid, {}), k)
            for metric, values in by_metric.items():
                for k, v in values.items():
                    key = (qid, metric, k)
                    if idx == 0:
                        out[key] = (v, max(0.0, v))
                    else:  # every combination scores the same queries and metrics
                        old, new = out[key]
                        out[key] = (old, max(new, v))
    return out
