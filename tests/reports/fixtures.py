"""A small but complete store for the report/export tests, written row by row.

Two categories (web: task apibank, code: task toolink), 14 tools each, six queries with one- and
two-tool ground truths, an expansion 'default' with sub-queries, candidates, verdicts and
combinations of every status, and three runs (two query-level, one sub-query-level).

    query  category  GT (slot order)  accepted equivalents     combinations (id: items, status)
    q1     web       w1               w2 (slot 0)              1: w2 valid
    q2     web       w3, w4           w5 (slot 0)              1: w5,w4 valid
    q3     web       w6               -                        -
    q4     code      c1               c2 (slot 0)              1: c2 valid; 2: c6 cut
    q5     code      c3, c4           c5 (slot 0)              1: c5,c4 rejected_platform
    q6     code      c5               c1 (slot 0)              1: c1 rejected_audit

Rankings (top of each list; the rest of the task's tools follow in id order) are in RUNS.
"""

from __future__ import annotations

import json

from toolex.store import Store

BENCHMARK = "toolret"
EXPANSION = "default"
WEB = [f"w{i}" for i in range(1, 15)]
CODE = [f"c{i}" for i in range(1, 15)]

QUERIES = {  # query_id: (task, category, text, ground truth in slot order)
    "q1": ("apibank", "web", "What is the weather in Paris tomorrow?", ["w1"]),
    "q2": ("apibank", "web", "Book a flight to Rome and send the ticket by email", ["w3", "w4"]),
    "q3": ("apibank", "web", "Convert 20 euros to dollars", ["w6"]),
    "q4": ("toolink", "code", "Sort a list of numbers", ["c1"]),
    "q5": ("toolink", "code", "Parse the CSV and plot column A", ["c3", "c4"]),
    "q6": ("toolink", "code", "Compute the SHA-256 of a file", ["c5"]),
}
# (query_id, slot): accepted equivalents (besides the reference); REJECTED were judged no.
ACCEPTED = {
    ("q1", 0): ["w2"],
    ("q2", 0): ["w5"],
    ("q4", 0): ["c2", "c6"],
    ("q5", 0): ["c5"],
    ("q6", 0): ["c1"],
}
REJECTED = {("q1", 0): ["w3"], ("q3", 0): ["w7"], ("q4", 0): ["c7"]}
COMBINATIONS = {  # query_id: [(combo_id, items, status, rrf_rank)] besides the original (id 0)
    "q1": [(1, ["w2"], "valid", 2)],
    "q2": [(1, ["w5", "w4"], "valid", 2)],
    "q4": [(1, ["c2"], "valid", 2), (2, ["c6"], "cut", 3)],
    "q5": [(1, ["c5", "c4"], "rejected_platform", 2)],
    "q6": [(1, ["c1"], "rejected_audit", 2)],
}
RUNS = {  # run_id: (level, retriever, {query_id: top of the ranking})
    "bm25": (
        "query",
        "bm25",
        {
            "q1": ["w2", "w9", "w1"],
            "q2": ["w5", "w4", "w8", "w3"],
            "q3": ["w6"],
            "q4": ["c9", "c8", "c2", "c1"],
            "q5": ["c5", "c4", "c3"],
            "q6": ["c1", "c7", "c5"],
        },
    ),
    "bm25-ft": (
        "query",
        "bm25",
        {
            "q1": ["w1", "w2"],
            "q2": ["w3", "w4", "w5"],
            "q3": ["w9", "w6"],
            "q4": ["c1", "c2"],
            "q5": ["c3", "c4", "c5"],
            "q6": ["c5", "c1"],
        },
    ),
    "sub-bm25": (
        "subquery",
        "bm25",
        {
            "q1": ["w2", "w1"],
            "q2": ["w4", "w5", "w9", "w3"],
            "q3": ["w10", "w11", "w6"],
            "q4": ["c2", "c9", "c1"],
            "q5": ["c4", "c5", "c3"],
            "q6": ["c1", "c2", "c5"],
        },
    ),
}
RUN_DEPTH = 14  # every task's library has 14 tools, so every list ranks every tool


def library(task: str) -> list[str]:
    return WEB if task == "apibank" else CODE


def ranking(run_id: str, query_id: str) -> list[str]:
    """The full ranked list of ``run_id`` for ``query_id``, best first."""
    top = RUNS[run_id][2][query_id]
    rest = [i for i in library(QUERIES[query_id][0]) if i not in top]
    return top + rest


def build(store: Store) -> Store:
    """Fill ``store`` with the fixture (returns it for chaining)."""
    with store.transaction():  # one commit, not one per row: keeps the tests fast
        _build(store)
    return store


def _build(store: Store) -> None:
    con = store.con
    con.execute(
        "INSERT INTO benchmarks (benchmark, format, source, revision) VALUES (?, ?, ?, ?)",
        [BENCHMARK, "toolret", "tests/reports/fixtures.py", "fixture-1"],
    )
    items = []
    for task, cat, ids in (("apibank", "web", WEB), ("toolink", "code", CODE)):
        for n, item_id in enumerate(ids):
            words = " ".join(["word"] * (5 + 3 * n))  # documentation lengths 5..44 words
            doc = {"name": f"tool_{item_id}", "description": words}
            platform = "p1" if n % 2 == 0 else "p2"
            text = f"name: tool_{item_id}\ndescription: {words}"
            items.append(
                [BENCHMARK, item_id, f"tool_{item_id}", platform, task, cat, json.dumps(doc), text]
            )
    con.executemany(
        "INSERT INTO items (benchmark, item_id, name, platform, task, category, doc, text) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        items,
    )
    for qid, (task, cat, text, gt) in QUERIES.items():
        con.execute(
            "INSERT INTO queries (benchmark, query_id, task, category, text) VALUES (?,?,?,?,?)",
            [BENCHMARK, qid, task, cat, text],
        )
        for slot, item in enumerate(gt):
            con.execute(
                "INSERT INTO qrels (benchmark, query_id, item_id, relevance, slot) "
                "VALUES (?, ?, ?, 1, ?)",
                [BENCHMARK, qid, item, slot],
            )
    _expansion(store)
    _runs(store)


def _expansion(store: Store) -> None:
    con = store.con
    con.execute(
        "INSERT INTO expansions (benchmark, expansion, config) VALUES (?, ?, ?)",
        [BENCHMARK, EXPANSION, json.dumps({"judge": "heuristic", "k": 20})],
    )
    for qid, (_task, _cat, text, gt) in QUERIES.items():
        for slot, ref in enumerate(gt):
            con.execute(
                "INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, reference, "
                "judge) VALUES (?, ?, ?, ?, ?, ?, 'heuristic')",
                [BENCHMARK, EXPANSION, qid, slot, f"{text} (part {slot + 1})", ref],
            )
            accepted = ACCEPTED.get((qid, slot), [])
            rejected = REJECTED.get((qid, slot), [])
            judged = [(ref, True, "reference")] + [(i, True, "heuristic") for i in accepted]
            judged += [(i, False, "heuristic") for i in rejected]
            for rank, (item, ok, judge) in enumerate(judged, start=1):
                con.execute(
                    "INSERT INTO candidates (benchmark, expansion, query_id, slot, item_id, rank, "
                    "score, retriever) VALUES (?, ?, ?, ?, ?, ?, ?, 'bm25')",
                    [BENCHMARK, EXPANSION, qid, slot, item, rank, 1.0 / rank],
                )
                con.execute(
                    "INSERT INTO verdicts (benchmark, expansion, query_id, slot, item_id, "
                    "accepted, reason, judge) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [BENCHMARK, EXPANSION, qid, slot, item, ok, "fixture", judge],
                )
        combos = [(0, gt, "valid", 1)] + COMBINATIONS.get(qid, [])
        for combo_id, members, status, rrf_rank in combos:
            rrf = sum(1.0 / (60 + rrf_rank + s) for s in range(len(members)))
            con.execute(
                "INSERT INTO combinations (benchmark, expansion, query_id, combo_id, rrf, "
                "rrf_rank, is_original, status, reason, judge) VALUES (?,?,?,?,?,?,?,?,?,?)",
                [
                    BENCHMARK,
                    EXPANSION,
                    qid,
                    combo_id,
                    rrf,
                    rrf_rank,
                    combo_id == 0,
                    status,
                    f"fixture {status}",
                    "heuristic",
                ],
            )
            for slot, item in enumerate(members):
                con.execute(
                    "INSERT INTO combination_items (benchmark, expansion, query_id, combo_id, "
                    "slot, item_id) VALUES (?, ?, ?, ?, ?, ?)",
                    [BENCHMARK, EXPANSION, qid, combo_id, slot, item],
                )


def _runs(store: Store) -> None:
    con = store.con
    for run_id, (level, retriever, _lists) in RUNS.items():
        con.execute(
            "INSERT INTO runs (run_id, benchmark, level, retriever, params) VALUES (?,?,?,?,?)",
            [run_id, BENCHMARK, level, retriever, json.dumps({"k": RUN_DEPTH})],
        )
        rows = []
        for qid in QUERIES:
            for rank, item in enumerate(ranking(run_id, qid), start=1):
                rows.append([run_id, qid, item, float(RUN_DEPTH + 1 - rank), rank])
        con.executemany(
            "INSERT INTO run_results (run_id, query_id, item_id, score, rank) VALUES (?,?,?,?,?)",
            rows,
        )
        if level == "subquery":  # the per-slot lists the fused ranking came from
            sub = []
            for qid, (_t, _c, _x, gt) in QUERIES.items():
                for slot in range(len(gt)):
                    for rank, item in enumerate(ranking(run_id, qid)[:5], start=1):
                        sub.append([run_id, qid, slot, item, 1.0 / rank, rank])
            con.executemany(
                "INSERT INTO subquery_results (run_id, query_id, slot, item_id, score, rank) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                sub,
            )
