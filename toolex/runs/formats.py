"""Reading run files: the only reader of retrieval runs made elsewhere.

Formats (``fmt="auto"`` picks by suffix: .parquet, .csv/.tsv, .json, anything else TREC):

* ``trec``         ``qid Q0 docid rank score tag`` per line, whitespace separated (trec_eval's)
* ``csv``          header with ``query_id,item_id,score`` (aliases qid/docid accepted),
                   optional ``slot``
* ``parquet``      the same columns
* ``toolret-json`` ``{query_id: {item_id: score}}`` (ToolRet's saved retrieval output)

Every reader returns one Arrow table (``RESULT_SCHEMA``: query_id, item_id, score, slot, line).
The file's own rank column is ignored: :mod:`toolex.runs.write` ranks every run with one rule.
Bad rows are an InputError naming the file, line (or record) and field.
"""

from __future__ import annotations

import math
from pathlib import Path

import pyarrow as pa

from toolex.errors import InputError
from toolex.loaders.readers import read_json_value, read_text

RUN_FORMATS = ("auto", "trec", "csv", "parquet", "toolret-json")
RESULT_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("item_id", pa.string()),
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
    qids, dids, scores, lines = [], [], [], []
    for lineno, line in enumerate(read_text(path).split("\n"), start=1):
        cols = line.split()
        if not cols:
            continue
        if len(cols) != 6:
            raise InputError(
                f"expected 6 columns 'qid Q0 docid rank score tag', found {len(cols)}",
                path=str(path),
                line=lineno,
            )
        try:
            score = float(cols[4])
        except ValueError:
            raise InputError(
                f"score {cols[4]!r} is not a number", path=str(path), line=lineno, field="score"
            ) from None
        if math.isnan(score):
            raise InputError("score is NaN", path=str(path), line=lineno, field="score")
        qids.append(cols[0])
        dids.append(cols[2])
        scores.append(score)
        lines.append(lineno)
    return _unslotted(qids, dids, scores, lines)


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
    out["line"] = lines
    return pa.table(out, schema=RESULT_SCHEMA)


def _check_no_nulls(
    col: pa.ChunkedArray, lines: pa.Array, path: Path, key: str, *, allow: bool
) -> None:
    import pyarrow.compute as pc

    bad = pc.is_null(col, nan_is_null=True)
    if allow or not pc.any(bad).as_py():
        return
    first = pc.index(bad, True).as_py()
    raise InputError("empty or NaN value", path=str(path), line=lines[first].as_py(), field=key)


def _read_toolret_json(path: Path, fmt: str) -> pa.Table:
    value = read_json_value(path)
    if not isinstance(value, dict):
        raise InputError("expected an object {query_id: {item_id: score}}", path=str(path))
    qids, dids, scores, records = [], [], [], []
    for n, (qid, ranked) in enumerate(value.items(), start=1):
        if not isinstance(ranked, dict):
            raise InputError("expected {item_id: score}", path=str(path), record=qid)
        for did, score in ranked.items():
            if isinstance(score, bool) or not isinstance(score, int | float) or math.isnan(score):
                raise InputError(
                    f"score {score!r} is not a number", path=str(path), record=qid, field=did
                )
            qids.append(qid)
            dids.append(did)
            scores.append(float(score))
            records.append(n)
    # 'line' holds the query's position in the object: a JSON object has no useful line per entry
    return _unslotted(qids, dids, scores, records)


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
