"""A small, real store for the TUI and review tests, built from ../shared/data/stabletoolbench.

Queries, items and qrels are the real StableToolBench records (ids per the team conventions).
The pipeline outputs (sub-queries, candidates, verdicts, combinations) and one query-level run are
hand-made here by fixed, readable rules, so every expected value in the tests can be derived by
reading this file:

- sub-query of slot i = "Use an API to: <first sentence of the GT tool's description>";
- candidates of a slot = the 5 library items of the GT tool's category with the highest word
  overlap (Jaccard) with that sub-query, plus the reference; ranks by overlap DESC, item_id DESC;
- a non-reference candidate is accepted iff it is the best-ranked non-reference candidate of
  slot 0 and the query is at an even position in ``QUERIES`` (a controllable, known set);
- combinations = Cartesian product of accepted sets, RRF over candidate ranks (k = 60); a
  combination mixing platforms in a multi-tool query is 'rejected_platform';
- run 'kw' ranks the whole library for each query by Jaccard with the query text (top 50);
- run 'swap' is 'kw' where, for each query with an accepted slot-0 equivalent, that equivalent is
  moved to rank 1 and the slot-0 ground-truth tool to rank 11 (a retriever that prefers an
  unlabelled equivalent): exactly those queries have new Recall@10 > old, and GT outside / an
  equivalent inside the top 10.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pyarrow as pa

from toolex.store import Store
from toolex.tooldoc.render import render_doc

BENCH = "stabletoolbench"
EXP = "default"
# (group, index in the group's file): 3 single-platform G1, 3 multi-tool G2/G3.
QUERIES = [
    ("G1_instruction", 0),
    ("G1_instruction", 1),
    ("G1_instruction", 2),
    ("G1_tool", 0),
    ("G2_instruction", 0),
    ("G2_instruction", 2),
    ("G3_instruction", 0),
    ("G2_category", 0),
]
_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def jaccard(a: str, b: str) -> float:
    wa, wb = words(a), words(b)
    return len(wa & wb) / len(wa | wb) if wa | wb else 0.0


def _insert(store: Store, table: str, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    tbl = pa.Table.from_pylist(rows)
    store.con.register("_fixture_rows", tbl)
    cols = ", ".join(tbl.column_names)
    # table names come from this module's literals only
    store.con.execute(f"INSERT INTO {table} ({cols}) SELECT {cols} FROM _fixture_rows")
    store.con.unregister("_fixture_rows")


def build_store(path: Path, data_root: Path, queries: list[tuple[str, int]] = QUERIES) -> Store:
    """Create ``path`` and fill it as the module docstring says. Returns the open store."""
    store = Store.open(path)
    raw: dict[str, list[dict[str, Any]]] = {}
    items: dict[str, dict[str, Any]] = {}
    qrows, qrels = [], []
    for group, idx in queries:
        if group not in raw:
            raw[group] = json.loads(
                (data_root / "stabletoolbench" / "test_instruction" / f"{group}.json").read_text()
            )
        rec = raw[group][idx]
        qid = f"{group}:{rec['query_id']}"
        qrows.append(
            {
                "benchmark": BENCH,
                "query_id": qid,
                "task": group,
                "category": group.split("_")[0],
                "text": rec["query"],
                "instruction": None,
            }
        )
        for api in rec["api_list"]:
            iid = f"{api['tool_name']}::{api['api_name']}"
            items.setdefault(
                iid,
                {
                    "benchmark": BENCH,
                    "item_id": iid,
                    "kind": "tool",
                    "name": api["api_name"],
                    "platform": api["tool_name"],
                    "task": None,
                    "category": api["category_name"],
                    "doc": json.dumps(api),
                    "text": render_doc(api, platform=api["tool_name"]),
                },
            )
        for slot, (tool, api_name) in enumerate(rec["relevant APIs"]):
            qrels.append(
                {
                    "benchmark": BENCH,
                    "query_id": qid,
                    "item_id": f"{tool}::{api_name}",
                    "relevance": 1,
                    "slot": slot,
                }
            )
    with store.transaction():
        store.con.execute(
            "INSERT INTO benchmarks (benchmark, format, source) VALUES (?, 'stabletoolbench', ?)",
            [BENCH, str(data_root / "stabletoolbench")],
        )
        _insert(store, "items", list(items.values()))
        _insert(store, "queries", qrows)
        _insert(store, "qrels", qrels)
        store.con.execute(
            "INSERT INTO expansions (benchmark, expansion) VALUES (?, ?)", [BENCH, EXP]
        )
        _fill_pipeline(store, qrows, qrels, items)
        _fill_run(store, qrows, items)
    return store


def _first_sentence(doc: dict[str, Any]) -> str:
    desc = (doc.get("api_description") or doc.get("api_name") or "").strip()
    return re.split(r"(?<=[.!?])\s", desc, maxsplit=1)[0][:160] or doc["api_name"]


def _fill_pipeline(
    store: Store,
    qrows: list[dict[str, Any]],
    qrels: list[dict[str, Any]],
    items: dict[str, dict[str, Any]],
) -> None:
    subs, cands, verdicts, combos, combo_items = [], [], [], [], []
    for qpos, q in enumerate(qrows):
        qid = q["query_id"]
        gt = sorted((r for r in qrels if r["query_id"] == qid), key=lambda r: r["slot"])
        accepted: list[list[tuple[str, int]]] = []
        for r in gt:
            ref = items[r["item_id"]]
            text = f"Use an API to {ref['name']}: " + _first_sentence(json.loads(ref["doc"]))
            subs.append(
                {
                    "benchmark": BENCH,
                    "expansion": EXP,
                    "query_id": qid,
                    "slot": r["slot"],
                    "text": text,
                    "operation": "retrieve",
                    "entity": ref["name"],
                    "reference": ref["item_id"],
                    "judge": "fixture",
                }
            )
            pool = [i for i in items.values() if i["category"] == ref["category"]]
            scored = sorted(((jaccard(text, i["text"]), i["item_id"]) for i in pool), reverse=True)
            top = scored[:5]
            if ref["item_id"] not in [iid for _, iid in top]:
                top.append((jaccard(text, ref["text"]), ref["item_id"]))
            slot_ok = []
            first_other = next((iid for _, iid in top if iid != ref["item_id"]), None)
            for rank, (score, iid) in enumerate(top, start=1):
                is_reference = iid == ref["item_id"]
                ok = is_reference or (iid == first_other and r["slot"] == 0 and qpos % 2 == 0)
                cands.append(
                    {
                        "benchmark": BENCH,
                        "expansion": EXP,
                        "query_id": qid,
                        "slot": r["slot"],
                        "item_id": iid,
                        "rank": rank,
                        "score": score,
                        "retriever": "fixture-jaccard",
                    }
                )
                reason = (
                    "reference tool"
                    if is_reference
                    else "same operation on the same entity; parameters map one to one"
                    if ok
                    else "different operation: does not answer the sub-query"
                )
                verdicts.append(
                    {
                        "benchmark": BENCH,
                        "expansion": EXP,
                        "query_id": qid,
                        "slot": r["slot"],
                        "item_id": iid,
                        "accepted": ok,
                        "reason": reason,
                        "judge": "reference" if is_reference else "fixture",
                    }
                )
                if ok:
                    slot_ok.append((iid, rank))
            accepted.append(slot_ok)
        product = list(itertools.product(*accepted))
        ranked = sorted(
            product, key=lambda c: (-sum(1 / (60 + rk) for _, rk in c), [iid for iid, _ in c])
        )
        original = tuple(r["item_id"] for r in gt)
        next_id = 1
        for rrf_rank, combo in enumerate(ranked, start=1):
            ids = tuple(iid for iid, _ in combo)
            is_orig = ids == original
            cid = 0 if is_orig else next_id
            next_id += 0 if is_orig else 1
            platforms = {items[i]["platform"] for i in ids}
            orig_platforms = {items[i]["platform"] for i in original}
            if is_orig:
                status, reason = "valid", "original ground truth"
            elif len(ids) > 1 and len(platforms) > len(orig_platforms):
                status, reason = "rejected_platform", "members from different providers share ids"
            else:
                status, reason = "valid", "covers every sub-query; dependencies consistent"
            combos.append(
                {
                    "benchmark": BENCH,
                    "expansion": EXP,
                    "query_id": qid,
                    "combo_id": cid,
                    "rrf": sum(1 / (60 + rk) for _, rk in combo),
                    "rrf_rank": rrf_rank,
                    "is_original": is_orig,
                    "status": status,
                    "reason": reason,
                    "judge": "fixture",
                }
            )
            for slot, iid in enumerate(ids):
                combo_items.append(
                    {
                        "benchmark": BENCH,
                        "expansion": EXP,
                        "query_id": qid,
                        "combo_id": cid,
                        "slot": slot,
                        "item_id": iid,
                    }
                )
    _insert(store, "subqueries", subs)
    _insert(store, "candidates", cands)
    _insert(store, "verdicts", verdicts)
    _insert(store, "combinations", combos)
    _insert(store, "combination_items", combo_items)


def _fill_run(store: Store, qrows: list[dict[str, Any]], items: dict[str, dict[str, Any]]) -> None:
    for run in ("kw", "swap"):
        store.con.execute(
            "INSERT INTO runs (run_id, benchmark, level, retriever) VALUES (?, ?, 'query', ?)",
            [run, BENCH, "fixture-" + run],
        )
    equiv = dict(
        store.con.execute(
            "SELECT v.query_id, v.item_id FROM verdicts v JOIN subqueries s "
            "USING (benchmark, expansion, query_id, slot) "
            "WHERE v.accepted AND v.slot = 0 AND v.item_id <> s.reference"
        ).fetchall()
    )
    gt0 = dict(store.con.execute("SELECT query_id, item_id FROM qrels WHERE slot = 0").fetchall())
    rows = []
    for q in qrows:
        qid = q["query_id"]
        scored = sorted(
            ((jaccard(q["text"], i["text"]), iid) for iid, i in items.items()), reverse=True
        )
        ranked = [iid for _, iid in scored[:50]]
        swapped = list(ranked)
        if qid in equiv:
            swapped = [i for i in ranked if i not in (equiv[qid], gt0[qid])]
            swapped.insert(0, equiv[qid])
            swapped.insert(10, gt0[qid])
        for run, order in (("kw", ranked), ("swap", swapped)):
            for rank, iid in enumerate(order, start=1):
                # scores strictly decreasing so the stored rank follows the ranking rule
                rows.append(
                    {
                        "run_id": run,
                        "query_id": qid,
                        "item_id": iid,
                        "score": 1.0 - rank / 100,
                        "rank": rank,
                    }
                )
    _insert(store, "run_results", rows)
