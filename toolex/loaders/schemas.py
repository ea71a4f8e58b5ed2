"""The Arrow schemas of the rows a load writes (items, queries, qrels, dependency edges), and
row dicts turned into Arrow tables of those schemas for the store's registered inputs."""

from __future__ import annotations

import array
import contextlib
from collections.abc import Mapping, Sequence

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


def arrow_rows(
    rows: Sequence[Mapping[str, object]], schema: pa.Schema, chunk: int = 4096
) -> pa.Table:
    """Row dicts as an Arrow table, converted a chunk of rows at a time: one builder per
    column for all rows grows by doubling and can hold twice the data, where chunks are sized
    to what they hold (benchmarks/bench_loader_memory.py)."""
    batches = [
        pa.RecordBatch.from_arrays(
            [_column([r.get(f.name) for r in rows[i : i + chunk]], f.type) for f in schema],
            schema=schema,
        )
        for i in range(0, len(rows), chunk)
    ]
    return pa.Table.from_batches(batches, schema=schema)


def _column(values: list[object], type_: pa.DataType) -> pa.Array:
    """One column of a chunk. Strings and int32s are laid into Arrow's buffers here: pyarrow
    converting Python objects (pa.array, from_pylist) imports pandas first, 0.35 CPU-s of
    `toolex eval --run-file`, which never uses it. Anything else, or a value these do not take
    (a wrong type, an int out of range), goes through pa.array, which raises pyarrow's own
    error for it."""
    nulls_or = {pa.string(): (str,), pa.int32(): (int,)}.get(type_)
    fits = nulls_or is not None and all(
        v is None or (isinstance(v, nulls_or) and not isinstance(v, bool)) for v in values
    )
    with contextlib.suppress(OverflowError, UnicodeError):
        if fits and type_ == pa.string():
            return _strings(values)
        if fits:
            data = array.array("i", [v if isinstance(v, int) else 0 for v in values])
            return pa.Array.from_buffers(
                type_, len(values), [_validity(values), pa.py_buffer(data)]
            )
    return pa.array(values, type_)


def _strings(values: list[object]) -> pa.Array:
    encoded = [v.encode() if isinstance(v, str) else b"" for v in values]
    offsets = array.array("i", [0])
    for e in encoded:
        offsets.append(offsets[-1] + len(e))
    buffers = [_validity(values), pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))]
    return pa.Array.from_buffers(pa.string(), len(values), buffers)


def _validity(values: list[object]) -> pa.Buffer | None:
    """Arrow's validity bitmap (bit i set: value i is not null); None when nothing is null."""
    if all(v is not None for v in values):
        return None
    bits = bytearray((len(values) + 7) // 8)
    for i, v in enumerate(values):
        if v is not None:
            bits[i >> 3] |= 1 << (i & 7)
    return pa.py_buffer(bits)
