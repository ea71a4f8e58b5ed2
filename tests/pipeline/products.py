"""Queries with given accepted sets, written straight into the stage tables (tests only).

A query is a list of slots ``(ref, [(item, rank, accepted), ...])``; the reference is added at
rank K+1 = 21 when the list leaves it out, and is always accepted (as the verify stage does)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

import pyarrow as pa

from pipeline.helpers import add_item, add_query
from toolex.store import Store

Slots = Sequence[tuple[str, Sequence[tuple[str, int, bool]]]]


def add_products(
    store: Store,
    queries: Mapping[str, Slots],
    expansions: Iterable[str] = ("default",),
    platforms: Mapping[str, str | None] | None = None,
) -> None:
    """Items, queries, qrels, and per expansion the sub-queries, candidates and verdicts."""
    platforms = platforms or {}
    known = {r[0] for r in store.con.execute("SELECT item_id FROM items").fetchall()}
    for query_id, slots in queries.items():
        for ref, cands in slots:
            for item in [ref, *(c[0] for c in cands)]:
                if item not in known:
                    add_item(store, item, {"name": item, "description": item}, platforms.get(item))
                    known.add(item)
        add_query(store, query_id, "q", [ref for ref, _ in slots])
    sub, cand = [], []
    for query_id, slots in queries.items():
        for slot, (ref, cands) in enumerate(slots):
            sub.append({"query_id": query_id, "slot": slot, "reference": ref})
            rows = list(cands) + ([(ref, 21, True)] if ref not in [c[0] for c in cands] else [])
            for item, rank, accepted in rows:
                cand.append(
                    {
                        "query_id": query_id,
                        "slot": slot,
                        "item_id": item,
                        "rank": rank,
                        "accepted": bool(accepted or item == ref),
                    }
                )
    for expansion in expansions:
        with store.registered("sub", pa.Table.from_pylist(sub)):
            store.con.execute(
                "INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, reference) "
                "SELECT 'b', ?, query_id, slot, 's', reference FROM sub",
                [expansion],
            )
        with store.registered("cand", pa.Table.from_pylist(cand)):
            store.con.execute(
                "INSERT INTO candidates SELECT 'b', ?, query_id, slot, item_id, rank, NULL, 'x' "
                "FROM cand",
                [expansion],
            )
            store.con.execute(
                "INSERT INTO verdicts SELECT 'b', ?, query_id, slot, item_id, accepted, NULL, "
                "'j', NULL, NULL FROM cand",
                [expansion],
            )


# Item ids that sort differently by bytes, by case and by length, platforms that clash.
ITEMS = ["a", "b", "B", "ab", "a b", "é", "Ω", "z", "zz", "t::x", "t::y", "ü", "10", "9"]
PLATFORMS = {item: ("P", "Q", None)[i % 3] for i, item in enumerate(ITEMS)}


def random_queries(seed: int, n: int, max_k: int = 4) -> dict[str, Slots]:
    """Small products full of RRF ties (few distinct ranks), repeated tools across slots,
    unretrieved references, rejected candidates, and now and then two candidates of one rank."""
    rng = random.Random(seed)
    out: dict[str, Slots] = {}
    for q in range(n):
        slots = []
        for ref in rng.sample(ITEMS, rng.randint(1, max_k)):  # one ground-truth tool per slot
            others = rng.sample([i for i in ITEMS if i != ref], rng.randint(0, 5))
            ranks = rng.sample(range(1, 8), len(others) + 1)
            if rng.random() < 0.2 and len(ranks) > 2:
                ranks[2] = ranks[1]
            ref_rank = 21 if rng.random() < 0.3 else ranks[0]
            cands = [(ref, ref_rank, True)]
            cands += [(o, r, rng.random() < 0.8) for o, r in zip(others, ranks[1:], strict=True)]
            slots.append((ref, cands))
        out[f"q{q:02d}"] = slots
    return out
