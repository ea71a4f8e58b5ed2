"""A generated store of ToolEq's size, for the Spark engine test and benchmarks/bench_spark.py.

7,000 queries with 1-4 ground-truth items each (graded 1 or 2, one label in 20 a 0), about 35,000
expanded combinations (1-9 per query, 80 % valid, members near the ground truth), and 10 runs of
100 results with two-decimal scores (ties broken as trec_eval does) in which the ground truth
and its neighbours sit at random depths; 1 % of the queries are left unanswered by each run.
Vectorised with numpy and written with one INSERT per table, so a store takes seconds: scale
``n_queries`` for a larger one (``benchmarks/bench_spark.py --scale 10``).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
from duckdb import DuckDBPyConnection

from toolex.store import Store

BENCH = "tooleq"
CATEGORIES = ("code", "web", "customized")
# Ground-truth items of one query lie this far apart in the library, so a neighbour (+1..+5)
# of one is never another's.
SPREAD = 577


def build(
    store: Store, n_queries: int = 7000, n_runs: int = 10, depth: int = 100, seed: int = 13
) -> dict[str, int]:
    """Fill ``store`` (empty, migrated) with the benchmark; returns its row counts."""
    rng = np.random.default_rng(seed)
    n_items = max(3000, n_queries // 2)
    # Ids as Arrow arrays, gathered with take(): numpy object arrays of millions of strings
    # took most of the time.
    qid = pa.array([f"q{q:06d}" for q in range(n_queries)])
    item = pa.array([f"tool_{i:06d}" for i in range(n_items)])
    con = store.con  # test set-up writes the tables directly, as tests/metrics does

    con.execute(
        "INSERT INTO benchmarks (benchmark, format, source) VALUES (?, 'plain', 'gen')", [BENCH]
    )
    queries = pa.table(
        {
            "query_id": qid,
            "task": [f"task_{q % 35}" for q in range(n_queries)],
            "category": [CATEGORIES[q % 3] for q in range(n_queries)],
        }
    )
    _insert(
        con,
        "queries (benchmark, query_id, task, category, text)",
        "query_id, task, category, 'q'",
        queries,
    )

    # Ground truth: slot s of query q is item (base_q + s * SPREAD) mod n_items.
    n_gt = rng.integers(1, 5, n_queries)
    q_of_slot = np.repeat(np.arange(n_queries), n_gt)
    slot = np.concatenate([np.arange(n) for n in n_gt])
    base = rng.integers(0, n_items, n_queries)
    gt = (base[q_of_slot] + slot * SPREAD) % n_items
    relevance = rng.choice([0, 1, 1, 1, 1, 1, 1, 2, 2, 2], len(gt)) if len(gt) else gt
    qrels = pa.table(
        {
            "query_id": qid.take(q_of_slot),
            "item_id": item.take(gt),
            "relevance": relevance,
            "slot": slot,
        }
    )
    _insert(con, "qrels", "query_id, item_id, relevance, slot", qrels)

    # Combinations 1..c of each query, each filling every slot with its reference or a near item.
    n_combo = rng.integers(1, 10, n_queries)
    c_query = np.repeat(np.arange(n_queries), n_combo)
    c_id = np.concatenate([np.arange(1, n + 1) for n in n_combo])
    valid = rng.random(len(c_id)) < 0.8
    combos = pa.table(
        {
            "query_id": qid.take(c_query),
            "combo_id": c_id,
            "status": np.where(valid, "valid", "rejected_audit").astype(object),
        }
    )
    _insert(
        con,
        "combinations (benchmark, expansion, query_id, combo_id, status)",
        "'default', query_id, combo_id, status",
        combos,
    )
    first_slot = np.concatenate([[0], np.cumsum(n_gt)[:-1]])
    per_combo = n_gt[c_query]
    m_combo = np.repeat(np.arange(len(c_id)), per_combo)
    m_slot = np.concatenate([np.arange(n) for n in per_combo])
    m_ref = gt[first_slot[c_query[m_combo]] + m_slot]
    moved = rng.random(len(m_ref)) >= 0.4
    m_item = np.where(moved, (m_ref + rng.integers(1, 6, len(m_ref))) % n_items, m_ref)
    members = pa.table(
        {
            "query_id": qid.take(c_query[m_combo]),
            "combo_id": c_id[m_combo],
            "slot": m_slot,
            "item_id": item.take(m_item),
        }
    )
    _insert(con, "combination_items", "'default', query_id, combo_id, slot, item_id", members)

    # Runs: 2 x depth candidates per query, the first six near its first reference with a
    # probability that grows with the run; scores rounded to two decimals after the boost.
    near_base = gt[first_slot]
    for r in range(n_runs):
        cand = rng.integers(0, n_items, (n_queries, 2 * depth))
        near = (near_base[:, None] + rng.integers(0, 6, (n_queries, 6))) % n_items
        planted = rng.random((n_queries, 6)) < 0.5 + 0.04 * r
        cand[:, :6] = np.where(planted, near, cand[:, :6])
        boost = np.zeros((n_queries, 2 * depth))
        boost[:, :6] = 0.3
        score = np.round(rng.random((n_queries, 2 * depth)) + boost, 2).ravel()
        q = np.repeat(np.arange(n_queries), 2 * depth)
        cand = cand.ravel()
        # An item drawn twice for a query keeps its best score; then trec_eval's order (score
        # descending, item id descending: ids are zero-padded, so numbers order as strings).
        # Sorted on one int64 key each (cents fit 8 bits): much quicker than a 3-key lexsort.
        cents = 255 - np.rint(score * 100).astype(np.int64)
        order = np.argsort((q * n_items + cand) * 256 + cents, kind="stable")
        first = np.ones(len(order), dtype=bool)
        first[1:] = (q[order][1:] != q[order][:-1]) | (cand[order][1:] != cand[order][:-1])
        keep = order[first]
        keep = keep[np.argsort((q[keep] * 256 + cents[keep]) * n_items + n_items - 1 - cand[keep])]
        starts = np.searchsorted(q[keep], np.arange(n_queries))
        rank = np.arange(len(keep)) - starts[q[keep]] + 1
        answered = rng.random(n_queries) >= 0.01
        shown = (rank <= depth) & answered[q[keep]]
        keep, rank = keep[shown], rank[shown]
        run_id = f"run{r:02d}"
        con.execute(
            "INSERT INTO runs (run_id, benchmark, level) VALUES (?, ?, 'query')", [run_id, BENCH]
        )
        results = pa.table(
            {
                "run_id": pa.array([run_id] * len(keep)),
                "query_id": qid.take(q[keep]),
                "item_id": item.take(cand[keep]),
                "score": score[keep],
                "rank": rank.astype(np.int32),
            }
        )
        con.register("gen_results", results)
        con.execute("INSERT INTO run_results SELECT * FROM gen_results")
        con.unregister("gen_results")
    tables = ("queries", "qrels", "combinations", "combination_items", "runs", "run_results")
    return {t: con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0] for t in tables}


def _insert(con: DuckDBPyConnection, target: str, columns: str, rows: pa.Table) -> None:
    con.register("gen_rows", rows)
    con.execute(f"INSERT INTO {target} SELECT $bench, {columns} FROM gen_rows", {"bench": BENCH})
    con.unregister("gen_rows")
