"""A run's ids as integer codes: what lets a 690,795-row run be checked and ranked without
comparing or hashing 690,795 strings.

A run repeats a few thousand query and item ids hundreds of thousands of times, so every reader
returns them dictionary-encoded (:func:`encoded`): one Arrow dictionary of distinct strings and
an int32 code per row. Questions about the strings are then asked of the dictionary (a few
thousand rows: which ids the benchmark lacks) and questions about rows of the codes (numpy over
ints: the first row of each id, an id pair listed twice, the order of two ids). On the
StableToolBench run of ``benchmarks/bench_run_import.py`` the import's checks cost 0.12 CPU-s as
SQL over the strings and a few milliseconds over the codes.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

ID_TYPE = pa.dictionary(pa.int32(), pa.string())
# What every run reader returns (toolex.runs.formats): ids as codes, the file's line (or record).
RESULT_SCHEMA = pa.schema(
    [
        ("query_id", ID_TYPE),
        ("item_id", ID_TYPE),
        ("score", pa.float64()),
        ("slot", pa.int32()),
        ("line", pa.int64()),
    ]
)


def encoded(ids: pa.Array | pa.ChunkedArray) -> pa.DictionaryArray:
    """``ids`` (strings, or a dictionary of strings) as one dictionary array with int32 codes
    whose dictionary holds each distinct id once, in order of first appearance when encoded
    here."""
    if isinstance(ids, pa.ChunkedArray):
        if ids.num_chunks != 1:  # chunks of a dictionary column may each have their own
            ids = ids.cast(ids.type.value_type) if pa.types.is_dictionary(ids.type) else ids
            ids = ids.combine_chunks()
        else:
            ids = ids.chunk(0)
    if not pa.types.is_dictionary(ids.type):
        ids = ids.dictionary_encode()
    return deduplicated(ids.indices.cast(pa.int32()), ids.dictionary.cast(pa.string()))


def deduplicated(codes: pa.Array, names: pa.Array) -> pa.DictionaryArray:
    """A dictionary array of ``codes`` into ``names`` where ``names`` may repeat a string (two
    spellings of one id, decoded alike): the repeats are merged, so each id has one code."""
    if _is_unique(names):
        return pa.DictionaryArray.from_arrays(codes, names)
    merged = names.dictionary_encode()
    return pa.DictionaryArray.from_arrays(merged.indices.take(codes), merged.dictionary)


def codes(ids: pa.DictionaryArray) -> np.ndarray:
    """The int32 code of every row (no nulls: a run's ids are never null)."""
    return as_numpy(ids.indices)


# Arrow's numeric types and numpy's, for the two conversions below.
_NUMPY = {
    pa.int8(): np.int8, pa.int16(): np.int16, pa.int32(): np.int32, pa.int64(): np.int64,
    pa.uint8(): np.uint8, pa.uint16(): np.uint16, pa.uint32(): np.uint32,
    pa.uint64(): np.uint64, pa.float32(): np.float32, pa.float64(): np.float64,
}  # fmt: skip


def as_numpy(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """A numeric or boolean column without nulls as numpy, read from its data buffer.

    pyarrow's own conversions both ways (``to_numpy``, ``np.asarray``, ``pa.array`` of numpy)
    import pandas first: 0.35 CPU-s of `toolex eval --run-file`, which never uses it. A column
    with nulls, or of another type, still takes ``to_numpy``."""
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    dtype = _NUMPY.get(values.type)
    if values.null_count or (dtype is None and values.type != pa.bool_()):
        out: np.ndarray = values.to_numpy(zero_copy_only=False)
        return out
    data = values.buffers()[1]
    n, at = len(values), values.offset
    if data is None:
        return np.zeros(0, dtype=dtype or bool)
    if dtype is None:  # booleans: one bit each, least significant first
        bits = np.unpackbits(np.frombuffer(data, np.uint8), bitorder="little")
        return bits[at : at + n].astype(bool)
    return np.frombuffer(data, dtype, count=n, offset=at * np.dtype(dtype).itemsize)


def as_arrow(values: np.ndarray, type_: pa.DataType | None = None) -> pa.Array:
    """A numeric numpy array as an Arrow array of ``type_`` (cast by numpy first; by default
    its own type), without pyarrow's conversion (see :func:`as_numpy`)."""
    if type_ is None:
        type_ = next(t for t, d in _NUMPY.items() if np.dtype(d) == values.dtype)
    data = np.ascontiguousarray(values, dtype=_NUMPY[type_])
    return pa.Array.from_buffers(type_, len(data), [None, pa.py_buffer(data)])


def first_rows(ids: pa.DictionaryArray) -> np.ndarray:
    """For each entry of the dictionary, the first row that holds it (the row count when none
    does)."""
    n = len(ids)
    first = np.full(len(ids.dictionary), n, dtype=np.int64)
    np.minimum.at(first, codes(ids), np.arange(n, dtype=np.int64))
    return first


def ordinals(ids: pa.DictionaryArray) -> np.ndarray:
    """Every row's place among the distinct ids in byte order (how DuckDB and Arrow order
    strings): comparing two rows' ordinals compares their ids."""
    order = as_numpy(pc.sort_indices(ids.dictionary))
    place = np.empty(len(order), dtype=np.int32)
    place[order] = np.arange(len(order), dtype=np.int32)
    placed: np.ndarray = place[codes(ids)]
    return placed


def repeated(*columns: np.ndarray) -> bool:
    """Whether two rows hold the same combination of values; every column holds non-negative
    integer codes (a dictionary's, or a column's own small values)."""
    if not len(columns[0]):
        return False
    key = np.zeros(len(columns[0]), dtype=np.int64)
    size = 1
    for column in columns:
        width = int(column.max()) + 1
        if size * width >= 1 << 62:  # too many combinations for one int64: compare sorted rows
            rows = np.unique(np.stack(columns, axis=1), axis=0)
            return len(rows) < len(columns[0])
        key = key * width + column
        size *= width
    if size <= max(8 * len(key), 1 << 22):  # a count per combination fits in a few MB
        return bool(np.bincount(key, minlength=size).max() > 1)
    key.sort()
    return bool((key[1:] == key[:-1]).any())


def _is_unique(names: pa.Array) -> bool:
    distinct: int = pc.count_distinct(names, mode="all").as_py()
    return distinct == len(names)
