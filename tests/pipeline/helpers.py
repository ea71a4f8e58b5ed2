"""A tiny benchmark inserted row by row, and a deterministic retrieval stand-in (tests only)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from toolex.pipeline.stats import AnnotationRow
from toolex.retrieval.texts import TextRow
from toolex.store import Store
from toolex.tooldoc.render import render_doc


def add_item(
    store: Store,
    item_id: str,
    doc: dict[str, Any],
    platform: str | None = None,
    task: str = "t",
    benchmark: str = "b",
) -> None:
    store.con.execute(
        "INSERT INTO items (benchmark, item_id, name, platform, task, category, doc, text)"
        " VALUES (?, ?, ?, ?, ?, 'c', ?, ?)",
        [
            benchmark,
            item_id,
            doc.get("name"),
            platform,
            task,
            json.dumps(doc),
            render_doc(doc, platform=platform),
        ],
    )


def add_query(
    store: Store,
    query_id: str,
    text: str,
    labels: Sequence[str],
    task: str = "t",
    category: str = "G1",
    benchmark: str = "b",
) -> None:
    store.con.execute(
        "INSERT INTO queries VALUES (?, ?, ?, ?, ?, NULL)",
        [benchmark, query_id, task, category, text],
    )
    for slot, item in enumerate(labels):
        store.con.execute(
            "INSERT INTO qrels VALUES (?, ?, ?, 1, ?)", [benchmark, query_id, item, slot]
        )


def add_benchmark(store: Store, benchmark: str = "b") -> None:
    store.con.execute(
        "INSERT INTO benchmarks (benchmark, format, source) VALUES (?, 'test', 'x')", [benchmark]
    )


def fated(row: AnnotationRow) -> int:
    """The combinations of an annotation row given a fate: each assembled one has exactly one."""
    return (
        row.valid_combos
        + row.rejected_platform
        + row.repeated
        + row.rejected_audit
        + row.cut
        + row.pending
    )


def overlap_search(
    store: Store,
    benchmark: str,
    retriever: str,
    texts: Sequence[TextRow],
    depth: int = 20,
    scope: str = "task",
    rendering: str = "default",
) -> pa.Table:
    """Rank items of the query's task by shared lower-case words; ties by item_id DESC."""
    items = store.con.execute(
        "SELECT item_id, task, lower(text) FROM items WHERE benchmark = ?", [benchmark]
    ).fetchall()
    tasks = dict(
        store.con.execute(
            "SELECT query_id, task FROM queries WHERE benchmark = ?", [benchmark]
        ).fetchall()
    )
    rows = []
    for query_id, slot, text in texts:
        words = set(text.lower().split())
        scored = [
            (len(words & set(t.replace(":", " ").split())), i)
            for i, task, t in items
            if scope != "task" or task == tasks[query_id]
        ]
        scored = [s for s in scored if s[0] > 0]
        scored.sort(key=lambda s: (-s[0], [-ord(c) for c in s[1]]))
        for rank, (score, item_id) in enumerate(scored[:depth], start=1):
            rows.append(
                {
                    "query_id": query_id,
                    "slot": slot,
                    "item_id": item_id,
                    "score": float(score),
                    "rank": rank,
                }
            )
    return pa.Table.from_pylist(
        rows,
        schema=pa.schema(
            [
                ("query_id", pa.string()),
                ("slot", pa.int64()),
                ("item_id", pa.string()),
                ("score", pa.float64()),
                ("rank", pa.int64()),
            ]
        ),
    )
