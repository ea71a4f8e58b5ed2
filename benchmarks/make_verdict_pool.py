"""Draw the items of the shipped verdict label set (toolex/data/labels/) from a store.

    python benchmarks/make_verdict_pool.py --db pool.duckdb --out /tmp/pool

The store holds ``toolret`` (the four tasks of ../shared/data, pooled library) and
``stabletoolbench``, each expanded to the candidates stage with the default retriever (BM25,
top 20), e.g. ``toolex expand --benchmark toolret --scope benchmark --stage candidates``.

For each benchmark part (StableToolBench group families; ToolRet task) it draws (query, slot)
groups at random (seeded) and, per group, five candidates, never the reference itself:

- one each from the candidate rank bands 1-3, 4-10 and 11-20 of that sub-query's list;
- two near-duplicates of the reference: the items whose own documentation is closest to the
  reference's (BM25 with the reference's text as the query, over the same library), so that
  cross-provider twins and hard near-misses (same domain, other operation or inputs) are in the
  set in numbers that a plain rank sample would not give.

Nothing here reads a verdict: the labels come from people reading both documentations
(docs/verdict-guideline.md). The output is a task file per annotator pass, candidates shuffled
and the band hidden, plus ``pool.jsonl`` with the provenance of every item.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import reads

from toolex.store import Store

if TYPE_CHECKING:
    import bm25s

PARTS = {
    # part -> (benchmark, SQL filter on queries, groups to draw)
    "stb-G1": ("stabletoolbench", "q.category LIKE 'G1%'", 30),
    "stb-G2G3": ("stabletoolbench", "q.category NOT LIKE 'G1%'", 30),
    "apigen": ("toolret", "q.task = 'apigen'", 30),
    "toolink": ("toolret", "q.task = 'toolink'", 25),
    "gorilla": ("toolret", "q.task = 'gorilla-huggingface'", 20),
    "apibank": ("toolret", "q.task = 'apibank'", 15),
}
BANDS: tuple[tuple[int, int], ...] = ((1, 3), (4, 10), (11, 20))
NEAR = 2
# Batch 2 tops the set up to 100+ true equivalents without leaning on one benchmark: fewer
# gorilla groups (model cards are the easiest twins), more cross-provider API near-duplicates.
PARTS_2 = {
    "stb-G1": ("stabletoolbench", "q.category LIKE 'G1%'", 8),
    "stb-G2G3": ("stabletoolbench", "q.category NOT LIKE 'G1%'", 8),
    "apigen": ("toolret", "q.task = 'apigen'", 12),
    "toolink": ("toolret", "q.task = 'toolink'", 6),
    "gorilla": ("toolret", "q.task = 'gorilla-huggingface'", 6),
}
BANDS_2 = ((1, 3),)
NEAR_2 = 3
DOC_CHARS = 1800


class Candidate(TypedDict):
    """One candidate drawn for a group, and how."""

    item_id: str
    source: str  # "rank 1-3", ..., or "near-duplicate"
    rank: int | None  # its rank in the sub-query's candidates (None: a near-duplicate not there)


class Group(TypedDict):
    """A (query, slot) drawn, with its candidates."""

    part: str
    benchmark: str
    query_id: str
    slot: int
    query: str
    instruction: str | None
    reference: str
    candidates: list[Candidate]


class ItemDoc(TypedDict):
    """What an annotator reads of a tool: its documentation text, cut to DOC_CHARS."""

    item_id: str
    task: str | None
    doc: str


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=20261126)
    ap.add_argument("--batch", type=int, default=1, choices=(1, 2))
    ap.add_argument(
        "--exclude", type=Path, help="pool.jsonl of batch 1: its references are skipped"
    )
    args = ap.parse_args()
    rng = random.Random(args.seed + args.batch - 1)
    global BANDS, NEAR
    parts = PARTS if args.batch == 1 else PARTS_2
    if args.batch == 2:
        BANDS, NEAR = BANDS_2, NEAR_2
    excluded: set[str] = set()
    if args.exclude:
        excluded = {json.loads(line)["reference"] for line in args.exclude.read_text().splitlines()}
    first_group = 0 if args.batch == 1 else 150
    store = Store.open(args.db, read_only=True)
    args.out.mkdir(parents=True, exist_ok=True)
    groups: list[Group] = []
    for part, (bench, where, n) in parts.items():
        rows = reads.rows(
            store,
            f"""SELECT s.query_id, s.slot, s.reference, q.text, q.instruction
                FROM subqueries s JOIN queries q USING (benchmark, query_id)
                WHERE s.benchmark = ? AND s.expansion = 'default' AND {where}
                ORDER BY s.query_id, s.slot""",
            [bench],
        )
        rng.shuffle(rows)
        taken = 0
        seen_refs: set[str] = set(excluded)
        for qid, slot, ref, text, instr in rows:
            if taken == n:
                break
            if ref in seen_refs:  # one group per reference: spread over the library
                continue
            cands = _draw(store, rng, bench, qid, slot, ref)
            if len(cands) < len(BANDS) + NEAR:
                continue
            seen_refs.add(ref)
            taken += 1
            groups.append(
                {
                    "part": part,
                    "benchmark": bench,
                    "query_id": qid,
                    "slot": slot,
                    "query": text,
                    "instruction": instr,
                    "reference": ref,
                    "candidates": cands,
                }
            )
    _write(store, groups, args.out, rng, first_group)


def _draw(
    store: Store, rng: random.Random, bench: str, qid: str, slot: int, ref: str
) -> list[Candidate]:
    ranked = reads.rows(
        store,
        "SELECT item_id, rank FROM candidates WHERE benchmark = ? AND expansion = 'default' "
        "AND query_id = ? AND slot = ? AND item_id <> ? ORDER BY rank",
        [bench, qid, slot, ref],
    )
    out: dict[str, Candidate] = {}
    for lo, hi in BANDS:
        band = [(i, r) for i, r in ranked if lo <= r <= hi and i not in out]
        if band:
            item, rank = rng.choice(band)
            out[item] = {"item_id": item, "source": f"rank {lo}-{hi}", "rank": rank}
    for item in _near_duplicates(store, bench, ref):
        if len([c for c in out.values() if c["source"] == "near-duplicate"]) == NEAR:
            break
        if item not in out:
            rank = next((r for i, r in ranked if i == item), None)
            out[item] = {"item_id": item, "source": "near-duplicate", "rank": rank}
    return list(out.values())


# benchmark -> its item ids, their BM25 index and their texts, built once
_BM25: dict[str, tuple[list[str], bm25s.BM25, dict[str, str]]] = {}


def _near_duplicates(store: Store, bench: str, ref: str) -> list[str]:
    import bm25s

    if bench not in _BM25:
        rows = reads.rows(
            store, "SELECT item_id, text FROM items WHERE benchmark = ? ORDER BY item_id", [bench]
        )
        ids = [r[0] for r in rows]
        retr = bm25s.BM25(k1=1.5, b=0.75)
        retr.index(
            bm25s.tokenize([r[1] for r in rows], stopwords="en", show_progress=False),
            show_progress=False,
        )
        _BM25[bench] = (ids, retr, dict(rows))
    ids, retr, texts = _BM25[bench]
    docs, _ = retr.retrieve(
        bm25s.tokenize([texts[ref][:2000]], stopwords="en", show_progress=False),
        k=8,
        show_progress=False,
    )
    return [ids[d] for d in docs[0] if ids[d] != ref]


def _doc(store: Store, bench: str, item: str) -> ItemDoc:
    name, platform, task, text = reads.rows(
        store,
        "SELECT name, platform, task, text FROM items WHERE benchmark = ? AND item_id = ?",
        [bench, item],
    )[0]
    text = text if len(text) <= DOC_CHARS else text[:DOC_CHARS] + " …[cut]"
    return {"item_id": item, "task": task, "doc": text}


def _write(
    store: Store, groups: list[Group], out: Path, rng: random.Random, first_group: int
) -> None:
    pool: list[dict[str, object]] = []
    tasks: list[dict[str, object]] = []
    for g_no, g in enumerate(groups, start=first_group):
        cands = list(g["candidates"])
        rng.shuffle(cands)
        task = {
            "group": g_no,
            "benchmark": g["benchmark"],
            "query_id": g["query_id"],
            "slot": g["slot"],
            "query": g["query"],
            "instruction": g["instruction"],
            "reference": _doc(store, g["benchmark"], g["reference"]),
            "candidates": [_doc(store, g["benchmark"], c["item_id"]) for c in cands],
        }
        tasks.append(task)
        for c in cands:
            pool.append(
                {
                    "group": g_no,
                    "part": g["part"],
                    "benchmark": g["benchmark"],
                    "query_id": g["query_id"],
                    "slot": g["slot"],
                    "reference": g["reference"],
                    "candidate": c["item_id"],
                    "source": c["source"],
                    "rank": c["rank"],
                }
            )
    (out / "pool.jsonl").write_text("".join(json.dumps(p) + "\n" for p in pool))
    (out / "tasks.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tasks))
    print(f"{len(groups)} groups, {len(pool)} verdicts -> {out}")


if __name__ == "__main__":
    main()
