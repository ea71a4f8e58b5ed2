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
    indices: np.ndarray = ids.indices.to_numpy(zero_copy_only=False)
    return indices


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
    order = pc.sort_indices(ids.dictionary).to_numpy()
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
