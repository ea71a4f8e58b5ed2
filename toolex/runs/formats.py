"""Reading run files: the only reader of retrieval runs made elsewhere.

Formats (``fmt="auto"`` picks by suffix: .parquet, .csv/.tsv, .json, anything else TREC):

* ``trec``         ``qid Q0 docid rank score tag`` per line, whitespace separated (trec_eval's)
* ``csv``          header with ``query_id,item_id,score`` (aliases qid/docid accepted),
                   optional ``slot``
* ``parquet``      the same columns
* ``toolret-json`` ``{query_id: {item_id: score}}`` (ToolRet's saved retrieval output), or
                   keyed by task first: ``{task: {query_id: {item_id: score}}}``

TREC files split on whitespace, yet real item ids hold spaces (82% of the StableToolBench
library: ``Pack & Send::/api/Tracking/``). One mapping, used by every TREC writer and reader
(``toolex.loaders.trec_ids``): in a TREC file a whitespace character of an id is written as its
percent-encoded UTF-8 bytes (space ``%20``, tab ``%09``) and ``%`` itself as ``%25``; reading
decodes exactly those sequences back, so a third-party id such as ``a%41`` stays as written.
Ids are accepted with spaces everywhere else (loads, CSV, Parquet, JSON).

Every reader returns one Arrow table (``RESULT_SCHEMA``: query_id, item_id, score, slot, line),
its ids dictionary-encoded (:mod:`toolex.runs.codes`).
The file's own rank column is ignored: :mod:`toolex.runs.write` ranks every run with one rule.
Bad rows are an InputError naming the file, line (or record) and field.
"""

from __future__ import annotations

import math
import mmap
import re
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from toolex.errors import InputError
from toolex.loaders.readers import read_json_value, read_text
from toolex.loaders.trec_ids import trec_escape, trec_unescape
from toolex.runs.codes import ID_TYPE, deduplicated, encoded

__all__ = [
    "RESULT_SCHEMA",
    "RUN_FORMATS",
    "read_run",
    "resolve_format",
    "trec_escape",
    "trec_unescape",
]

RUN_FORMATS = ("auto", "trec", "csv", "parquet", "toolret-json")
# Ids are dictionary-encoded (toolex.runs.codes): a run repeats a few thousand ids many times.
RESULT_SCHEMA = pa.schema(
    [
        ("query_id", ID_TYPE),
        ("item_id", ID_TYPE),
        ("score", pa.float64()),
        ("slot", pa.int32()),
        ("line", pa.int64()),
    ]
)
_ALIASES = {
    "query_id": ("query_id", "qid", "query-id", "query"),
    "item_id": ("item_id", "docid", "doc_id", "corpus-id", "item", "tool_id"),
    "score": ("score",),
    "slot": ("slot",),
}


def resolve_format(path: Path, fmt: str = "auto") -> str:
    """The concrete format of ``path``: ``fmt`` itself, or (``auto``) the one its suffix names."""
    if fmt not in RUN_FORMATS:
        raise InputError(
            f"unknown run format {fmt!r}; choose one of {', '.join(RUN_FORMATS)}", field="format"
        )
    if fmt != "auto":
        return fmt
    suffix = path.suffix.lower()
    return {".parquet": "parquet", ".csv": "csv", ".tsv": "csv", ".json": "toolret-json"}.get(
        suffix, "trec"
    )


def read_run(path: str | Path, fmt: str = "auto") -> pa.Table:
    """The run file as an Arrow table (``RESULT_SCHEMA``); no slot column = null slots."""
    path = Path(path)
    fmt = resolve_format(path, fmt)
    table = {
        "trec": _read_trec,
        "csv": _read_table,
        "parquet": _read_table,
        "toolret-json": _read_toolret_json,
    }[fmt](path, fmt)
    if table.num_rows == 0:
        raise InputError("the run file holds no results", path=str(path))
    return table


def _read_trec(path: Path, fmt: str) -> pa.Table:
    """Columns at a time in Arrow, not a line at a time in Python (a 690,795-line StableToolBench
    run: 0.33-0.5 CPU-s, was 5.3; benchmarks/bench_run_import.py). Arrow's whitespace is the set
    Python's ``str.split()`` splits on (``tests/runs/test_trec_reader.py`` checks every code
    point), so a line has the same fields either way; the first bad line, in file order, is the
    error, worded as before."""
    data, start, text = _text(path)
    # Arrow's ASCII kernels split on ASCII whitespace, byte by byte: on UTF-8 text that is exact
    # (no byte of a multi-byte character is ASCII) unless the text holds whitespace they do not
    # know and str.split() does: the separators \x1c-\x1f and the non-ASCII spaces. They cost
    # half the Unicode kernels (a 690,795-line StableToolBench run, ids not all ASCII: 0.09 vs
    # 0.22 CPU-s for the split). The tests on the bytes: Arrow's regex on one 54 MB string costs
    # 0.08 s, a byte search a few ms.
    ascii_kernels = all(data.find(c, start) < 0 for c in _SEPARATORS) and not _has_unicode_space(
        np.frombuffer(data, np.uint8)[start:]
    )
    trim, split = (
        (pc.ascii_trim_whitespace, pc.ascii_split_whitespace)
        if ascii_kernels
        else (pc.utf8_trim_whitespace, pc.utf8_split_whitespace)
    )
    # Arrow splits a leading or trailing run of whitespace into empty fields, str.split() does
    # not: trim first. A blank line (which TREC readers skip) then splits into one empty field.
    lines = trim(pc.split_pattern(text, "\n").flatten())
    del data, text
    line_no = np.flatnonzero(pc.binary_length(lines).to_numpy() > 0) + 1
    fields = split(lines)
    del lines
    starts = fields.offsets.to_numpy()
    width = np.diff(starts)[line_no - 1]
    bad_width = np.flatnonzero(width != 6)
    first_width = int(bad_width[0]) if len(bad_width) else len(width)
    # Rows before the first misshapen line; field j of row r is values[starts[r] + j].
    values = fields.values
    at = starts[line_no[:first_width] - 1]
    score_text = values.take(pa.array(at + 4))
    # Text of _SCORE_RE's grammar parses in Arrow exactly as float() parses it (to the bit; the
    # test compares). Arrow's cast takes that grammar plus "inf", "nan" and "infinity", which
    # is_finite refuses below, and fails on anything else; only then is the grammar asked which
    # row is wrong (the regex costs as much as the cast).
    try:
        scores = pc.cast(score_text, pa.float64())
    except pa.ArrowInvalid:
        valid = pc.match_substring_regex(score_text, _SCORE_RE)
        scores = pc.cast(pc.if_else(valid, score_text, None), pa.float64())
    finite = pc.fill_null(pc.is_finite(scores), False)
    bad_score = np.flatnonzero(~finite.to_numpy(zero_copy_only=False))
    if len(bad_score):
        row = int(bad_score[0])
        _score_text(score_text[row].as_py(), path, int(line_no[row]))  # raises
    if len(bad_width):
        raise InputError(
            f"expected 6 columns 'qid Q0 docid rank score tag', found {width[first_width]}",
            path=str(path),
            line=int(line_no[first_width]),
        )
    return pa.table(
        {
            "query_id": _unescaped(values.take(pa.array(at))),
            "item_id": _unescaped(values.take(pa.array(at + 2))),
            "score": scores,
            "slot": pa.nulls(len(at), pa.int32()),
            "line": pa.array(line_no, pa.int64()),
        },
        schema=RESULT_SCHEMA,
    )


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
    other = pc.invert(plain).to_numpy(zero_copy_only=False)
    if other.any():
        decoded = spaced.to_pylist()
        for i in np.flatnonzero(other):
            decoded[i] = trec_unescape(names[int(i)].as_py())
        spaced = pa.array(decoded, pa.string())
    return deduplicated(ids.indices, spaced)


def _read_table(path: Path, fmt: str) -> pa.Table:
    if not path.is_file():
        raise InputError("file not found", path=str(path))
    first_line = 1
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            raw = pq.read_table(path)
        else:
            import pyarrow.csv as pacsv

            read_text(path)  # a non-UTF-8 file is reported with its byte offset, not a CSV error
            delim = "\t" if path.suffix.lower() == ".tsv" else ","
            raw = pacsv.read_csv(
                path,
                parse_options=pacsv.ParseOptions(delimiter=delim),
                convert_options=pacsv.ConvertOptions(
                    column_types={
                        a: pa.string() for k in ("query_id", "item_id") for a in _ALIASES[k]
                    }
                ),
            )
            first_line = 2  # the header is line 1
    except pa.ArrowInvalid as exc:
        raise InputError(f"cannot read {fmt}: {exc}", path=str(path)) from None
    cols = {}
    for key, names in _ALIASES.items():
        found = next((n for n in names if n in raw.column_names), None)
        if found is None and key != "slot":
            raise InputError(
                f"missing column {key!r} (found {raw.column_names})", path=str(path), field=key
            )
        cols[key] = found
    lines = pa.array(range(first_line, first_line + raw.num_rows), pa.int64())
    out = {}
    for key, typ in (
        ("query_id", pa.string()),
        ("item_id", pa.string()),
        ("score", pa.float64()),
        ("slot", pa.int32()),
    ):
        if cols[key] is None:
            out[key] = pa.nulls(raw.num_rows, typ)
            continue
        col = raw.column(cols[key])
        try:
            out[key] = col.cast(typ)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            raise InputError(f"column values are not {typ}", path=str(path), field=key) from None
        _check_no_nulls(out[key], lines, path, key, allow=key == "slot")
        if key == "score":
            _check_finite(out[key], lines, path)
    for key in ("query_id", "item_id"):
        out[key] = encoded(out[key])
    out["line"] = lines
    return pa.table(out, schema=RESULT_SCHEMA)


def _check_no_nulls(
    col: pa.ChunkedArray, lines: pa.Array, path: Path, key: str, *, allow: bool
) -> None:
    bad = pc.is_null(col, nan_is_null=True)
    if allow or not pc.any(bad).as_py():
        return
    first = pc.index(bad, True).as_py()
    raise InputError("empty or NaN value", path=str(path), line=lines[first].as_py(), field=key)


# A score as trec_eval writes one: digits, a point, an exponent. Python's float() also takes
# "1_000", "inf", "nan" and "Infinity", which no run should hold.
_BOM = "\ufeff".encode()
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


def _finite(score: object) -> bool:
    """A JSON score: a number (not a bool) that is finite as a float."""
    if isinstance(score, bool) or not isinstance(score, int | float):
        return False
    try:
        return math.isfinite(float(score))
    except OverflowError:  # an integer beyond a float's range
        return False


def _check_finite(col: pa.ChunkedArray, lines: pa.Array, path: Path) -> None:
    bad = pc.invert(pc.is_finite(col))
    if not pc.any(bad).as_py():
        return
    first = pc.index(bad, True).as_py()
    raise InputError("score is infinite", path=str(path), line=lines[first].as_py(), field="score")


def _read_toolret_json(path: Path, fmt: str) -> pa.Table:
    """ToolRet's saved results: ``{query_id: {item_id: score}}``, or the same keyed by task
    first, ``{task: {query_id: {item_id: score}}}`` (ToolRet's result file over several tasks);
    a query id may appear under one task only."""
    value = read_json_value(path)
    if not isinstance(value, dict):
        raise InputError(
            "expected an object {query_id: {item_id: score}} or {task: {query_id: {item_id: "
            "score}}}",
            path=str(path),
        )
    by_task = _keyed_by_task(value)
    groups = value.items() if by_task else [(None, value)]
    qids, dids, scores, records = [], [], [], []
    task_of: dict[str, str] = {}
    n = 0
    for task, queries in groups:
        if not isinstance(queries, dict):
            raise InputError(
                "expected {query_id: {item_id: score}}", path=str(path), record=task, what="task"
            )
        for qid, ranked in queries.items():
            n += 1
            if task is not None:
                if qid in task_of:
                    raise InputError(
                        f"query id {qid!r} appears under tasks {task_of[qid]!r} and {task!r}",
                        path=str(path),
                        record=qid,
                        what="query id",
                    )
                task_of[qid] = task
            if not isinstance(ranked, dict):
                raise InputError(
                    "expected {item_id: score}", path=str(path), record=qid, what="query id"
                )
            for did, score in ranked.items():
                if not _finite(score):
                    raise InputError(
                        f"score {score!r} is not a number",
                        path=str(path),
                        record=qid,
                        field=did,
                        what="query id",
                    )
                qids.append(qid)
                dids.append(did)
                scores.append(float(score))
                records.append(n)
    # 'line' holds the query's position in the object: a JSON object has no useful line per entry
    return _unslotted(qids, dids, scores, records)


def _keyed_by_task(value: dict) -> bool:
    """True for ``{task: {query_id: {item_id: score}}}``: the first non-empty entry's values are
    objects, not scores."""
    for inner in value.values():
        if isinstance(inner, dict) and inner:
            return any(isinstance(v, dict) for v in inner.values())
    return False


def _unslotted(qids: list[str], dids: list[str], scores: list[float], lines: list[int]) -> pa.Table:
    """A query-level run (no slot column in the file) as a RESULT_SCHEMA table."""
    return pa.table(
        {
            "query_id": qids,
            "item_id": dids,
            "score": scores,
            "slot": [None] * len(qids),
            "line": lines,
        },
        schema=RESULT_SCHEMA,
    )
