"""Draw a fresh blind round of the offline verifier's accepted verdicts (used by fresh_sample.py).

The population of one benchmark is the accepted verdicts of the expansion ``default`` that no
earlier label set holds (the shipped sets, the earlier rounds): the items a user's verdicts would
be made of, never seen by anyone who wrote or checked the rules. Strata are the query's category
(StableToolBench's group, a ToolRet task) x the candidate's rank band (1-3, 4-10, 11-20), the
review protocol's (sql/review/42_verdict_population.sql); ``n`` items are allocated over them
in proportion to their populations (largest remainders, toolex.review.sample.allocate), and the
first ones in md5(seed:key) order are kept, as a review sample keeps them. Rejected verdicts are
drawn the same way as decoys, so the labellers cannot tell the parts apart (round 2 did the
same); each item keeps its stratum's population and the number drawn from it, so population /
drawn is what a label stands for.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa

from toolex.review.sample import allocate
from toolex.store import Store

BEYOND_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("slot", pa.int64()),
        ("item_id", pa.string()),
        ("rank", pa.int64()),
    ]
)
SHORT = {"stabletoolbench": "stb", "toolret": "toolret"}


def _key(seed: int, *parts: object) -> str:
    return hashlib.md5(":".join(str(p) for p in (seed, *parts)).encode()).hexdigest()


def population(
    store: Store, benchmark: str, seen: set[tuple[str, str, str]]
) -> list[dict[str, Any]]:
    """The accepted and rejected verdicts of ``benchmark``'s default expansion, each with its
    stratum and whether an earlier label set holds its (query, reference, candidate)."""
    empty = pa.Table.from_pylist([], schema=BEYOND_SCHEMA)
    with store.registered("review_beyond", empty):
        rows = store.rows(
            "review/42_verdict_population.sql", {"benchmark": benchmark, "expansion": "default"}
        )
    out = []
    for r in rows:
        if r["part"] not in ("accepted", "rejected"):
            continue
        r["stratum"] = f"{r['part']}/{r['category']}/{r['rank_band']}"
        r["seen"] = (r["query_id"], r["reference"], r["item_id"]) in seen
        out.append(r)
    return out


def draw(rows: list[dict[str, Any]], part: str, n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` unseen items of ``part``, allocated over its strata in proportion to their sizes."""
    strata: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        if r["part"] == part and not r["seen"]:
            strata[r["stratum"]].append(r)
    quotas = allocate({h: len(items) for h, items in strata.items()}, n)
    kept = []
    for h, items in sorted(strata.items()):
        items.sort(key=lambda r: _key(seed, r["query_id"], r["slot"], r["item_id"]))
        for r in items[: quotas[h]]:
            kept.append({**r, "population": len(items), "drawn": quotas[h]})
    return kept


def packet(
    store: Store,
    benchmark: str,
    drawn: list[dict[str, Any]],
    seed: int,
    tag: str = "r3",
) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """The labellers' items (the request, the step, both documentations: nothing a judge said)
    and the draw record (each item's part, stratum, population, drawn), in one shuffled order."""
    ids = sorted({r["item_id"] for r in drawn} | {r["reference"] for r in drawn})
    docs = {
        d["item_id"]: d
        for d in store.rows("review/54_item_docs.sql", {"benchmark": benchmark, "item_ids": ids})
    }
    queries = {
        q["query_id"]: q
        for q in store.rows("retrieval/071_query_texts.sql", {"benchmark": benchmark})
    }
    order = sorted(drawn, key=lambda r: _key(seed, "order", r["query_id"], r["slot"], r["item_id"]))
    items: list[dict[str, object]] = []
    record: list[dict[str, object]] = []
    for i, r in enumerate(order, 1):
        item = f"{tag}-{SHORT.get(benchmark, benchmark)}#{i}"  # the round's tag: ids stay unique
        q = queries[r["query_id"]]
        items.append(
            {
                "item": item,
                "benchmark": benchmark,
                "request": q["text"],
                "instruction": q["instruction"],
                "subquery": r["subquery"],
                "reference": _doc(docs[r["reference"]]),
                "candidate": _doc(docs[r["item_id"]]),
            }
        )
        record.append(
            {
                "item": item,
                "benchmark": benchmark,
                "query_id": r["query_id"],
                "slot": r["slot"],
                "reference": r["reference"],
                "candidate": r["item_id"],
                "subquery": r["subquery"],
                "part": r["part"],
                "category": r["category"],
                "rank": r["rank"],
                "rank_band": r["rank_band"],
                "stratum": r["stratum"],
                "population": r["population"],
                "drawn": r["drawn"],
            }
        )
    return items, record


def _doc(row: dict[str, Any]) -> dict[str, object]:
    """A tool's full documentation as loaded (its id, name and platform beside it)."""
    doc = row["doc"]
    return {
        "id": row["item_id"],
        "name": row["name"],
        "platform": row["platform"],
        "documentation": json.loads(doc) if isinstance(doc, str) else doc,
    }


def write_jsonl(path: Path, rows: Iterable[Mapping[str, object]]) -> None:
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows),
        encoding="utf-8",
    )
