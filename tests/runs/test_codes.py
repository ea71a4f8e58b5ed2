"""toolex.runs.codes: each answer over the codes equals the same question asked of the strings."""

from __future__ import annotations

import itertools

import numpy as np
import pyarrow as pa
import pytest

from toolex.runs import codes

IDS = ["b", "a", "B", "é", "a b", "ab", "", "e\u0301", "b", "a", "zz", "é"]


def test_encoded_holds_each_id_once_in_order_of_first_appearance() -> None:
    got = codes.encoded(pa.chunked_array([IDS[:5], IDS[5:]]))
    assert got.type == codes.ID_TYPE
    assert got.dictionary.to_pylist() == list(dict.fromkeys(IDS))
    assert got.to_pylist() == IDS
    # chunks of a dictionary column, each with its own dictionary, become one
    parts = [pa.array(IDS[:5]).dictionary_encode(), pa.array(IDS[5:]).dictionary_encode()]
    chunks = pa.chunked_array(parts)
    assert codes.encoded(chunks).to_pylist() == IDS
    assert codes.encoded(chunks).dictionary.to_pylist() == list(dict.fromkeys(IDS))


def test_a_dictionary_that_repeats_a_string_is_merged() -> None:
    merged = codes.deduplicated(pa.array([0, 1, 2, 1, 0], pa.int32()), pa.array(["x", "y", "x"]))
    assert merged.dictionary.to_pylist() == ["x", "y"]
    assert merged.to_pylist() == ["x", "y", "x", "y", "x"]
    assert codes.codes(merged).tolist() == [0, 1, 0, 1, 0]


def test_first_rows_and_ordinals_answer_as_the_strings_do() -> None:
    rng = np.random.default_rng(0)
    ids = [IDS[i] for i in rng.integers(0, len(IDS), 500)]
    enc = codes.encoded(pa.array(ids))
    first = codes.first_rows(enc)
    assert [ids.index(v) for v in enc.dictionary.to_pylist()] == first.tolist()
    place = codes.ordinals(enc)
    for i, j in itertools.combinations(range(0, 500, 7), 2):
        a, b = ids[i].encode(), ids[j].encode()  # byte order, as DuckDB and Arrow compare
        assert (place[i] < place[j], place[i] == place[j]) == (a < b, a == b)


@pytest.mark.parametrize("width", [3, 5000, 3_000_000_000])  # counts, a sort, sorted rows
def test_repeated_finds_exactly_a_repeated_combination(width: int) -> None:
    rng = np.random.default_rng(width)
    for _ in range(20):
        n = int(rng.integers(1, 60))
        cols = [rng.integers(0, 4, n), rng.integers(0, width, n), rng.integers(0, width, n)]
        cols[1][rng.integers(0, n)] = cols[2][rng.integers(0, n)] = width - 1  # widest there
        if n > 1 and rng.random() < 0.5:  # copy a row half the time, so repeats are tested
            i, j = rng.choice(n, 2, replace=False)
            for c in cols:
                c[j] = c[i]
        want = len(set(zip(*(c.tolist() for c in cols), strict=True))) < n
        assert codes.repeated(*cols) is want
    pair = np.array([width - 1, width - 1])
    assert codes.repeated(np.array([0, 1]), pair, pair) is False
    assert codes.repeated(np.array([1, 1]), pair, pair) is True
    assert codes.repeated(np.array([], np.int64)) is False


def test_numpy_and_arrow_move_through_their_buffers_as_pyarrow_converts() -> None:
    """as_numpy/as_arrow give what pyarrow's own conversions give (which import pandas), also
    for a sliced array (an offset into the buffer), booleans and a chunked column."""
    from toolex.runs.codes import as_arrow, as_numpy

    ints = pa.array(list(range(-3, 20)), pa.int64()).slice(5, 11)
    assert as_numpy(ints).tolist() == ints.to_pylist() and as_numpy(ints).dtype == np.int64
    flags = pa.array([i % 3 == 0 for i in range(21)]).slice(3, 13)
    assert as_numpy(flags).tolist() == flags.to_pylist()
    chunked = pa.chunked_array([pa.array([1, 2], pa.int32()), pa.array([7], pa.int32())])
    assert as_numpy(chunked).tolist() == [1, 2, 7] and as_numpy(chunked).dtype == np.int32
    with_null = pa.array([1.5, None])
    assert np.isnan(as_numpy(with_null)[1])  # nulls still go through to_numpy
    made = as_arrow(np.array([4, -1, 9]), pa.int32())
    assert made.type == pa.int32() and made.to_pylist() == [4, -1, 9]
    assert as_arrow(np.arange(3, dtype=np.uint64)).equals(pa.array([0, 1, 2], pa.uint64()))
