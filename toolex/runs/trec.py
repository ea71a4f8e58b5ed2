"""Reading TREC run files (``qid Q0 docid rank score tag`` per line, whitespace separated, as
trec_eval reads them): a column at a time in Arrow and numpy, never a line at a time in Python.

A file is read exactly as ``line.split()`` on each line of its text would read it (the reader
before issue 11, kept as the reference in ``tests/runs/test_trec_reader.py``): the same rows, the
same ids and scores to the bit, and the same first error (file, line, message). Ids are
percent-decoded (``toolex.loaders.trec_ids``) once per distinct id.

Two ways to the fields, one answer:

* **single-spaced** files, as trec_eval and toolex write them (one space between fields, one
  newline after each line, nothing else below 0x21): the separators are found with numpy and the
  fields are slices of the mapped file, with no split at all (:func:`_single_spaced`);
* **any other** file: Arrow splits lines, trims them and splits the fields on whitespace.

On ``benchmarks/bench_run_import.py``'s 690,795-line StableToolBench run (54 MB, ids not all
ASCII) the reader costs 0.16 CPU-s the first way and 0.23 the second; the line-at-a-time reader
took 4.3.
"""

from __future__ import annotations

import math
import mmap
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from toolex.errors import InputError
from toolex.loaders.readers import read_text
from toolex.loaders.trec_ids import trec_unescape
from toolex.runs.codes import RESULT_SCHEMA, as_arrow, as_numpy, deduplicated, encoded

__all__ = ["UNICODE_SPACE", "read_trec"]

_BOM = "\ufeff".encode()


def read_trec(path: Path) -> pa.Table:
    """The run in ``path`` as a ``RESULT_SCHEMA`` table (no slots); the first bad line, in file
    order, is the InputError."""
    data, start, text = _text(path)
    raw = np.frombuffer(data, np.uint8)[start:]
    # A single-spaced file needs no split (_single_spaced); any other goes to Arrow's kernels.
    # The ASCII ones split on ASCII whitespace, byte by byte: on UTF-8 text that is exact (no
    # byte of a multi-byte character is ASCII) unless the text holds whitespace they do not know
    # and str.split() does: the separators \x1c-\x1f and the non-ASCII spaces. They cost half
    # the Unicode kernels (0.09 vs 0.22 CPU-s for the split of the benchmark's run). The tests on
    # the bytes: Arrow's regex on one 54 MB string costs 0.08 s, a byte search a few ms. A
    # non-ASCII space also rules out _single_spaced, which sees only bytes below 0x21.
    unicode_space = _has_unicode_space(raw)
    fields = None if unicode_space else _single_spaced(raw, text)
    if fields is None:
        ascii_kernels = not unicode_space and all(data.find(c, start) < 0 for c in _SEPARATORS)
        fields = _split(text, ascii_kernels)
    del data, raw, text
    score_text = fields.values.take(as_arrow(fields.first + 4))
    # Text of _SCORE_RE's grammar parses in Arrow exactly as float() parses it (to the bit; the
    # test compares). Arrow's cast takes that grammar plus "inf", "nan" and "infinity", which
    # is_finite refuses below, and fails on anything else; only then is the grammar asked which
    # row is wrong (the regex costs as much as the cast).
    try:
        scores = pc.cast(score_text, pa.float64())
    except pa.ArrowInvalid:
        valid = pc.match_substring_regex(score_text, _SCORE_RE)
        scores = pc.cast(pc.if_else(valid, score_text, None), pa.float64())
    finite = pc.and_kleene(pc.is_finite(scores), pc.is_valid(scores))  # null: not finite
    bad_score = np.flatnonzero(~as_numpy(finite))
    if len(bad_score):
        row = int(bad_score[0])
        _score_text(score_text[row].as_py(), path, int(fields.line[row]))  # raises
    if fields.misshapen is not None:
        line, width = fields.misshapen
        raise InputError(
            f"expected 6 columns 'qid Q0 docid rank score tag', found {width}",
            path=str(path),
            line=line,
        )
    return pa.table(
        {
            "query_id": _unescaped(fields.values.take(as_arrow(fields.first))),
            "item_id": _unescaped(fields.values.take(as_arrow(fields.first + 2))),
            "score": scores,
            "slot": pa.nulls(len(fields.first), pa.int32()),
            "line": as_arrow(fields.line),
        },
        schema=RESULT_SCHEMA,
    )


@dataclass
class _Fields:
    """The fields of the rows before the first misshapen line: field j (0, 2 and 4 are read) of
    row r is ``values[first[r] + j]``, read from line ``line[r]``; ``misshapen`` is that line and
    its field count, if there is one."""

    values: pa.Array
    first: np.ndarray
    line: np.ndarray
    misshapen: tuple[int, int] | None = None


def _single_spaced(raw: np.ndarray, text: pa.LargeStringArray) -> _Fields | None:
    """The fields of a file whose every line is six fields joined by single spaces and ended by
    a newline (the last one may lack it), or None for any other file. Every byte of 0x20 or less
    is found, a block at a time; the file is single-spaced if they are, line after line, five
    spaces then a newline, and no two are adjacent (no empty field, no blank line). The fields
    are then the stretches between separators, taken from one Arrow string array over the
    mapped bytes: no byte is copied until the three fields read are taken. Other whitespace (a
    tab, a carriage return) or any control byte: None, and Arrow splits the file instead."""
    n = len(raw)
    if not n:
        return None
    seps = _below_0x21(raw)
    kinds = raw[seps]
    if raw[-1] != 0x0A:  # the last line is ended by the file's end, as by a newline
        seps = np.append(seps, seps.dtype.type(n))
        kinds = np.append(kinds, np.uint8(0x0A))
    if not len(seps) or len(seps) % 6 or seps[0] == 0 or (np.diff(seps) == 1).any():
        return None
    grid = kinds.reshape(-1, 6)
    if not ((grid[:, :5] == 0x20).all() and (grid[:, 5] == 0x0A).all()):
        return None
    # One string array over the mapped bytes whose values alternate the three fields read and
    # what lies between them: per line, query id, " Q0 " (or whatever the second field is),
    # item id, " rank ", score, then " tag\n" up to the next line's query id.
    ends = seps.reshape(-1, 6)
    rows = len(ends)
    offsets = np.empty((rows, 6), dtype=seps.dtype)
    offsets[0, 0] = 0
    offsets[1:, 0] = ends[:-1, 5] + 1
    offsets[:, 1] = ends[:, 0]
    offsets[:, 2] = ends[:, 1] + 1
    offsets[:, 3] = ends[:, 2]
    offsets[:, 4] = ends[:, 3] + 1
    offsets[:, 5] = ends[:, 4]
    kind = pa.string() if offsets.dtype == np.int32 else pa.large_string()
    data = text.buffers()[2]  # the file's text, after any BOM
    values = pa.Array.from_buffers(
        kind, 6 * rows - 1, [None, pa.py_buffer(offsets.reshape(-1)), data]
    )
    return _Fields(values, np.arange(rows, dtype=np.int64) * 6, np.arange(1, rows + 1))


def _below_0x21(raw: np.ndarray) -> np.ndarray:
    """The positions of every byte of 0x20 or less, found a block at a time in one reused mask,
    as int32 when the file allows (a 54 MB run has 4 M of them: fresh memory is what costs)."""
    kind = np.dtype(np.int32 if len(raw) < 1 << 31 else np.int64)
    mask = np.empty(min(len(raw), _BLOCK), dtype=bool)
    found = []
    for at in range(0, len(raw), _BLOCK):
        block = raw[at : at + _BLOCK]
        hits = np.flatnonzero(np.less_equal(block, 0x20, out=mask[: len(block)])).astype(kind)
        hits += at
        found.append(hits)
    return np.concatenate(found)


def _split(text: pa.LargeStringArray, ascii_kernels: bool) -> _Fields:
    """The fields of any file, as Arrow's whitespace kernels split its lines: the same fields
    as ``str.split()`` (``tests/runs/test_trec_reader.py`` checks every code point)."""
    trim, split = (
        (pc.ascii_trim_whitespace, pc.ascii_split_whitespace)
        if ascii_kernels
        else (pc.utf8_trim_whitespace, pc.utf8_split_whitespace)
    )
    # Arrow splits a leading or trailing run of whitespace into empty fields, str.split() does
    # not: trim first. A blank line (which TREC readers skip) then splits into one empty field.
    lines = trim(pc.split_pattern(text, "\n").flatten())
    line_no = np.flatnonzero(as_numpy(pc.binary_length(lines)) > 0) + 1
    split_lines = split(lines)
    del lines
    starts = as_numpy(split_lines.offsets)
    width = np.diff(starts)[line_no - 1]
    bad_width = np.flatnonzero(width != 6)
    good = int(bad_width[0]) if len(bad_width) else len(width)
    misshapen = (int(line_no[good]), int(width[good])) if len(bad_width) else None
    first = starts[line_no[:good] - 1]
    return _Fields(split_lines.values, first, line_no[:good], misshapen)


def _text(path: Path) -> tuple[mmap.mmap | bytes, int, pa.LargeStringArray]:
    """The file's bytes, where its text starts (after any BOM), and that text as one Arrow
    string, with read_text's checks and located errors but without a Python str (decoding and
    copying 50 MB cost more than splitting it). The bytes are the file mapped into memory, not
    read into it: the copy and the fresh pages a read needs cost 0.03 CPU-s on 54 MB."""
    if not path.is_file():
        read_text(path)  # raises, naming what is wrong
    data: mmap.mmap | bytes
    with path.open("rb") as fh:
        try:
            data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        except (ValueError, OSError):  # an empty file, or one that cannot be mapped
            data = fh.read()
    start = len(_BOM) if data[: len(_BOM)] == _BOM else 0
    body = pa.py_buffer(data)
    offsets = pa.py_buffer(np.array([0, len(body) - start], np.int64))
    text = pa.Array.from_buffers(pa.large_string(), 1, [None, offsets, body.slice(start)])
    try:
        text.validate(full=True)  # UTF-8
    except pa.ArrowInvalid:
        read_text(path)  # raises, naming the line and byte offset
        raise
    return data, start, text


_SEPARATORS = (b"\x1c", b"\x1d", b"\x1e", b"\x1f")  # str.split() splits on them, Arrow does not
# The non-ASCII code points str.split() splits on (tests/runs/test_trec_reader.py checks the list).
UNICODE_SPACE = (0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F, 0x205F, 0x3000)
# Their UTF-8 bytes as integers, by length (two or three bytes), for _has_unicode_space.
_UTF8_SPACE = [int.from_bytes(chr(c).encode(), "big") for c in UNICODE_SPACE]
_UTF8_SPACE_2 = np.array([c for c in _UTF8_SPACE if c < 1 << 16], np.uint32)
_UTF8_SPACE_3 = np.array([c for c in _UTF8_SPACE if c >= 1 << 16], np.uint32)


def _has_unicode_space(raw: np.ndarray) -> bool:
    """Whether UTF-8 bytes hold a character of :data:`UNICODE_SPACE`: its two or three bytes,
    read as one integer at every lead byte of 0xC2 or more, looked up in one set (a substring
    search per character took 0.05 s each on 54 MB). The lead bytes are found a block at a time
    in one reused buffer: a mask of the whole file would cost fresh pages for every byte."""
    last = len(raw) - 1
    mask = np.empty(min(len(raw), _BLOCK), dtype=bool)
    for at in range(0, len(raw), _BLOCK):
        block = raw[at : at + _BLOCK]
        lead = np.flatnonzero(np.greater_equal(block, 0xC2, out=mask[: len(block)])) + at
        if not len(lead):
            continue
        # The bytes are valid UTF-8, so a lead byte's continuation bytes are there (also past
        # the block's end); only a two-byte character at the very end has no third byte, which
        # the two-byte lookup does not read.
        byte = [raw[np.minimum(lead + k, last)].astype(np.uint32) for k in (0, 1, 2)]
        three = (byte[0] << 16) | (byte[1] << 8) | byte[2]
        if np.isin(three >> 8, _UTF8_SPACE_2).any() or np.isin(three, _UTF8_SPACE_3).any():
            return True
    return False


_BLOCK = 1 << 20


def _unescaped(ids: pa.Array) -> pa.DictionaryArray:
    """trec_unescape over a column, once per distinct id that holds a ``%`` (a run repeats a few
    thousand ids hundreds of thousands of times). An id whose every ``%`` starts ``%20`` decodes
    to the id with those as spaces, so Arrow replaces them; only others go through Python. Two
    spellings that decode alike (``a%2541`` and ``a%41``) become one id."""
    ids = encoded(ids)
    names = ids.dictionary
    if not pc.any(pc.match_substring(names, "%")).as_py():
        return ids
    plain = pc.match_substring_regex(names, "^([^%]|%20)*$")
    spaced = pc.replace_substring(names, "%20", " ")
    other = as_numpy(pc.invert(plain))
    if other.any():
        decoded = spaced.to_pylist()
        for i in np.flatnonzero(other):
            decoded[i] = trec_unescape(names[int(i)].as_py())
        spaced = pa.array(decoded, pa.string())
    return deduplicated(ids.indices, spaced)


# A score as trec_eval writes one: digits, a point, an exponent. Python's float() also takes
# "1_000", "inf", "nan" and "Infinity", which no run should hold.
_SCORE_RE = r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$"  # RE2 and Python alike
_SCORE = re.compile(_SCORE_RE, re.ASCII)


def _score_text(text: str, path: Path, line: int) -> float:
    value = float(text) if _SCORE.fullmatch(text) else math.nan
    if not math.isfinite(value):
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise InputError(
            f"score {shown!r} is not a number (or not a finite one)",
            path=str(path),
            line=line,
            field="score",
        )
    return value
