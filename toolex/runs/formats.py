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
from collections.abc import Mapping
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from toolex.errors import InputError
from toolex.loaders.readers import read_json_value, read_text
from toolex.loaders.trec_ids import trec_escape, trec_unescape
from toolex.runs.codes import RESULT_SCHEMA, encoded
from toolex.runs.format_names import RUN_FORMATS, resolve_format
from toolex.runs.trec import read_trec

__all__ = [
    "RESULT_SCHEMA",
    "RUN_FORMATS",
    "read_run",
    "resolve_format",
    "trec_escape",
    "trec_unescape",
]

_ALIASES = {
    "query_id": ("query_id", "qid", "query-id", "query"),
    "item_id": ("item_id", "docid", "doc_id", "corpus-id", "item", "tool_id"),
    "score": ("score",),
    "slot": ("slot",),
}


def read_run(path: str | Path, fmt: str = "auto") -> pa.Table:
    """The run file as an Arrow table (``RESULT_SCHEMA``); no slot column = null slots."""
    path = Path(path)
    fmt = resolve_format(path, fmt)
    if fmt == "trec":
        table = read_trec(path)
    elif fmt == "toolret-json":
        table = _read_toolret_json(path)
    else:
        table = _read_table(path, fmt)
    if table.num_rows == 0:
        raise InputError("the run file holds no results", path=str(path))
    return table


def _read_table(path: Path, fmt: str) -> pa.Table:
    if not path.is_file():
        raise InputError("file not found", path=str(path))
    raw, first_line = _read_raw(path, fmt)
    cols = _columns(raw, path)
    lines = pa.array(range(first_line, first_line + raw.num_rows), pa.int64())
    out = {}
    for key, typ in (
        ("query_id", pa.string()),
        ("item_id", pa.string()),
        ("score", pa.float64()),
        ("slot", pa.int32()),
    ):
        found = cols[key]
        if found is None:
            out[key] = pa.nulls(raw.num_rows, typ)
            continue
        col = raw.column(found)
        if fmt == "parquet":
            _check_parquet_type(col, key, lines, path)
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


def _read_raw(path: Path, fmt: str) -> tuple[pa.Table, int]:
    """The file's table as written, and the line its first row is on."""
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            return pq.read_table(path), 1
        import pyarrow.csv as pacsv

        read_text(path)  # a non-UTF-8 file is reported with its byte offset, not a CSV error
        delim = "\t" if path.suffix.lower() == ".tsv" else ","
        raw = pacsv.read_csv(
            path,
            parse_options=pacsv.ParseOptions(delimiter=delim),
            convert_options=pacsv.ConvertOptions(
                column_types={a: pa.string() for k in ("query_id", "item_id") for a in _ALIASES[k]}
            ),
        )
        return raw, 2  # the header is line 1
    except pa.ArrowInvalid as exc:
        raise InputError(f"cannot read {fmt}: {exc}", path=str(path)) from None


def _columns(raw: pa.Table, path: Path) -> dict[str, str | None]:
    """Which of the file's columns holds each field (by its aliases); only slot may be absent."""
    cols: dict[str, str | None] = {}
    for key, names in _ALIASES.items():
        found = next((n for n in names if n in raw.column_names), None)
        if found is None and key != "slot":
            raise InputError(
                f"missing column {key!r} (found {raw.column_names})", path=str(path), field=key
            )
        cols[key] = found
    return cols


def _check_parquet_type(col: pa.ChunkedArray, key: str, lines: pa.Array, path: Path) -> None:
    """A Parquet column is typed: a score or a slot written as text (or true/false) says the
    file was made wrong (columns swapped, a CSV round trip), and casting it would hide that, so
    it is refused at its first value. (CSV and TREC are text: their numbers are parsed.)"""
    kind = col.type
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    numeric = pa.types.is_integer(kind) or pa.types.is_null(kind)
    if key == "score":
        numeric = numeric or pa.types.is_floating(kind) or pa.types.is_decimal(kind)
    elif key == "slot":
        numeric = numeric or pa.types.is_floating(kind)  # pandas writes ints with gaps as floats
    else:
        return
    if numeric:
        return
    valid = pc.is_valid(col)
    first = pc.index(valid, True).as_py() if pc.any(valid).as_py() else 0
    value = col[first].as_py() if len(col) else None
    wanted = "a number" if key == "score" else "an integer"
    raise InputError(
        f"the Parquet column is {kind}, not {wanted} (first value {value!r}): write {key} as "
        f"{wanted}",
        path=str(path),
        line=lines[first].as_py() if len(lines) else None,
        field=key,
    )


def _check_no_nulls(
    col: pa.ChunkedArray, lines: pa.Array, path: Path, key: str, *, allow: bool
) -> None:
    bad = pc.is_null(col, nan_is_null=True)
    if allow or not pc.any(bad).as_py():
        return
    first = pc.index(bad, True).as_py()
    raise InputError("empty or NaN value", path=str(path), line=lines[first].as_py(), field=key)


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


def _read_toolret_json(path: Path) -> pa.Table:
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


def _keyed_by_task(value: Mapping[str, object]) -> bool:
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
