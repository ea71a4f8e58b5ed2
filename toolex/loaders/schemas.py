"""The Arrow schemas of the rows a load writes (items, queries, qrels, dependency edges), and
row dicts turned into Arrow tables of those schemas for the store's registered inputs."""

from __future__ import annotations

from typing import Any

import pyarrow as pa

ITEM_SCHEMA = pa.schema(
    [
        ("item_id", pa.string()),
        ("kind", pa.string()),
        ("name", pa.string()),
        ("platform", pa.string()),
        ("task", pa.string()),
        ("category", pa.string()),
        ("doc", pa.string()),
        ("text", pa.string()),
        ("platform_source", pa.string()),
    ]
)
QUERY_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("task", pa.string()),
        ("category", pa.string()),
        ("text", pa.string()),
        ("instruction", pa.string()),
    ]
)
QREL_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("item_id", pa.string()),
        ("relevance", pa.int32()),
        ("slot", pa.int32()),
    ]
)
EDGE_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("producer_slot", pa.int32()),
        ("consumer_slot", pa.int32()),
        ("value", pa.string()),
        ("source", pa.string()),
        ("origin", pa.string()),
    ]
)


def arrow_rows(rows: list[dict[str, Any]], schema: pa.Schema, chunk: int = 4096) -> pa.Table:
    """Row dicts as an Arrow table, converted a chunk of rows at a time: one builder per
    column for all rows grows by doubling and can hold twice the data, where chunks are sized
    to what they hold (benchmarks/bench_loader_memory.py)."""
    batches = [
        pa.RecordBatch.from_pylist(rows[i : i + chunk], schema=schema)
        for i in range(0, len(rows), chunk)
    ]
    return pa.Table.from_batches(batches, schema=schema)
