"""ToolRet-style JSONL: one query per line in the shape of ToolRet's queries.json, whose labels
list every valid combination.

    {"id": ..., "query": ..., "instruction": ..., "task": ..., "category": ...,
     "labels": [{"id": ..., "relevance": ...}, ...],          # the original, as in ToolRet
     "combinations": [                                         # every valid combination
        {"combo_id": 0, "is_original": true, "rrf": ..., "rrf_rank": ...,
         "labels": [{"id": ..., "relevance": ..., "slot": 0}, ...]}, ...]}

``labels`` stays ToolRet's own field, so ToolRet's evaluation code reads the file unchanged;
``combinations`` carries the expansion, original first.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from toolex.errors import InputError
from toolex.exports.common import resolve
from toolex.exports.files import output_file
from toolex.exports.qrels import expanded_qrels
from toolex.exports.queries import toolret_queries
from toolex.loaders.readers import iter_jsonl
from toolex.store import Store


def export_toolret_jsonl(
    store: Store, path: str | Path, benchmark: str | None = None, expansion: str = "default"
) -> int:
    """Write the JSONL; returns the number of queries written."""
    benchmark, expansion = resolve(store, benchmark, expansion)
    combos: dict[str, dict[int, dict[str, Any]]] = defaultdict(dict)
    for r in expanded_qrels(store, benchmark, expansion, valid_only=True).to_pylist():
        combo = combos[r["query_id"]].setdefault(
            r["combo_id"],
            {
                "combo_id": r["combo_id"],
                "is_original": r["is_original"],
                "rrf": r["rrf"],
                "rrf_rank": r["rrf_rank"],
                "labels": [],
            },
        )
        combo["labels"].append({"id": r["item_id"], "relevance": r["relevance"], "slot": r["slot"]})
    queries = toolret_queries(store, benchmark)
    with output_file(path, store.path) as temp, temp.open("w", encoding="utf-8") as out:
        for q in queries:
            found = combos[q.id]
            record = {**q._asdict(), "combinations": [found[c] for c in sorted(found)]}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return len(queries)


def read_toolret_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """The combination members of a ToolRet-style JSONL file as rows ``query_id, combo_id,
    slot, item_id, relevance`` (the shape
    `toolex.expansions.combinations.import_combinations` reads)."""
    rows = []
    # toolex.loaders.readers: bounded nesting, no NaN, located errors, and a file holding one
    # JSON document instead of one record per line said so
    for rec, n in iter_jsonl(path):
        if not isinstance(rec, dict) or "id" not in rec:
            raise InputError("expected an object with an 'id'", str(path), n)
        combinations = rec.get("combinations")
        if combinations is None:  # a plain ToolRet record: its labels are combo 0
            combinations = [
                {
                    "combo_id": 0,
                    "labels": [{**lab, "slot": s} for s, lab in enumerate(rec.get("labels") or [])],
                }
            ]
        for combo in combinations:
            if "combo_id" not in combo or not isinstance(combo.get("labels"), list):
                raise InputError(
                    "combination without combo_id or labels",
                    str(path),
                    n,
                    record=str(rec["id"]),
                    field="combinations",
                )
            for lab in combo["labels"]:
                rows.append(
                    {
                        "query_id": str(rec["id"]),
                        "combo_id": int(combo["combo_id"]),
                        "slot": int(lab["slot"]),
                        "item_id": str(lab["id"]),
                        "relevance": int(lab.get("relevance", 1)),
                    }
                )
    return rows
