"""Readers for JSON arrays, JSONL and Parquet that keep each record's line number.

Every loader reads through these, so a bad file is reported the same way everywhere: the file,
the line (1-based; for Parquet the row, 1-based), and the byte offset of undecodable bytes.
A JSON array is scanned element by element with ``JSONDecoder.raw_decode`` so each record knows
the line it starts on, at C speed (no per-character Python loop).

Memory: the ``iter_*`` readers stream, so a loader holds one parsed record at a time (the
``read_*`` functions are their lists). JSON Lines and Parquet are read line by line and batch
by batch; a JSON array needs its text whole (one copy, the file's bytes freed once decoded) but
yields its elements one by one, counting lines as it goes rather than indexing every line.

Hostile JSON is a located InputError like any other malformed input: what
toolex/loaders/jsontext.py refuses (nesting deeper than ``MAX_DEPTH``, ``NaN``/``Infinity``,
numbers beyond a float's range, integers of thousands of digits, lone surrogates).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from toolex.errors import InputError
from toolex.loaders.jsontext import WHITESPACE, raw_decode, skip_ws
from toolex.loaders.jsontext import loads as loads  # the loaders' and labels' JSON decoder

_BOM = "\ufeff"

Record = tuple[Any, int]  # (parsed value, 1-based line or row)


def _check_file(path: Path) -> None:
    if path.is_file():
        return
    if path.is_dir():
        raise InputError("a folder, not a file", path=str(path))
    if path.is_symlink():
        raise InputError("a symbolic link that leads to no file (a loop?)", path=str(path))
    raise InputError("file not found", path=str(path))


def _not_utf8(path: Path, data: bytes, exc: UnicodeDecodeError, base: int, line: int) -> InputError:
    offset = base + exc.start
    return InputError(
        f"not UTF-8: byte 0x{data[exc.start]:02x} at byte offset {offset} cannot be decoded "
        "(re-save the file as UTF-8)",
        path=str(path),
        line=line,
    )


def read_text(path: str | Path) -> str:
    """The file as text; non-UTF-8 bytes are an InputError naming line and byte offset."""
    path = Path(path)
    _check_file(path)
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _not_utf8(path, data, exc, 0, data.count(b"\n", 0, exc.start) + 1) from None
    del data  # the text is the one copy kept
    return text.removeprefix(_BOM)


def _line_col(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _json_error(path: Path, text: str, offset: int, msg: str) -> InputError:
    line, col = _line_col(text, offset)
    return InputError(
        f"malformed JSON at line {line}, column {col}: {msg}", path=str(path), line=line
    )


# What a file holding one top-level JSON object is told: it is not a list of records. (`load
# plain` words it its own way, for it can read records under a key: toolex.loaders.fieldmap.)
TOP_LEVEL_OBJECT = (
    "the file holds one top-level JSON object, which is not supported: give the records as a "
    "JSON array ([{...}, {...}]) or as JSON Lines (one object per line, .jsonl); if the "
    "records sit under a key of the object, write out that list"
)


class TopLevelObjectError(InputError):
    """A file of records that holds one top-level object instead (TOP_LEVEL_OBJECT)."""

    def __init__(self, path: Path) -> None:
        super().__init__(TOP_LEVEL_OBJECT, path=str(path))


def record_lists(value: object) -> list[str]:
    """The keys of an object that hold a non-empty list of objects: where its records may be."""
    if not isinstance(value, dict):
        return []
    return [
        str(k)
        for k, v in value.items()
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)
    ]


def _one_object(path: Path) -> bool:
    """True when the whole file is one JSON object (spread over lines, or nothing else in it)."""
    return isinstance(_whole(path), dict)


def _one_object_or_array(path: Path) -> bool:
    return isinstance(_whole(path), dict | list)


def _whole(path: Path) -> object:
    """The file as one JSON value, or None when it is not one (read only to word an error)."""
    try:
        return loads(read_text(path))
    except (json.JSONDecodeError, InputError):
        return None


def _first_char(path: Path) -> str:
    """The first non-blank character of the file (after a BOM), '' for a blank file."""
    with path.open("rb") as fh:
        while chunk := fh.read(4096):
            text = chunk.decode("utf-8", errors="replace").lstrip(_BOM + WHITESPACE)
            if text:
                return text[0]
    return ""


def iter_json_array(path: str | Path, *, lines_json: bool = True) -> Iterator[Record]:
    """Elements of a top-level JSON array with the line each starts on (or, when the file
    starts with an object and ``lines_json``, its JSON lines), one at a time."""
    path = Path(path)
    _check_file(path)
    if lines_json and _first_char(path) == "{":
        try:  # Hugging Face writes JSON Lines under a .json name
            yield from _unless_a_wrapper(path, iter_jsonl(path))
        except InputError:
            if _one_object(path):  # a pretty-printed object: its first line is not JSON
                raise TopLevelObjectError(path) from None
            raise
        return
    text = read_text(path)
    i = skip_ws(text, 0)
    if i < len(text) and text[i] == "{" and _one_object(path):
        raise TopLevelObjectError(path)
    if i >= len(text) or text[i] != "[":
        raise _json_error(path, text, i, "expected a JSON array '[' at the top level")
    i = skip_ws(text, i + 1)
    if i < len(text) and text[i] == "]":
        return
    yield from _elements(path, text, i)


def _elements(path: Path, text: str, i: int) -> Iterator[Record]:
    """The elements of the array whose first element starts at ``i``, each with its line."""
    line, counted = 1, 0  # lines are counted incrementally: no index of every line start
    while True:
        try:
            value, end = raw_decode(text, i)
        except json.JSONDecodeError as exc:
            raise _json_error(path, text, exc.pos, exc.msg) from None
        line += text.count("\n", counted, i)
        counted = i
        yield value, line
        del value
        i = skip_ws(text, end)
        if i < len(text) and text[i] == ",":
            i = skip_ws(text, i + 1)
            continue
        if i < len(text) and text[i] == "]":
            break
        raise _json_error(path, text, i, "expected ',' or ']' after an array element")
    rest = skip_ws(text, i + 1)
    if rest < len(text):
        raise _json_error(path, text, rest, "extra data after the JSON array")


def _unless_a_wrapper(path: Path, records: Iterator[Record]) -> Iterator[Record]:
    """``records``, or TOP_LEVEL_OBJECT when the file's one line is an object wrapping the
    records (``{"items": [{...}, ...]}``, as json.dump writes it): read as JSON Lines, it would
    pass for one record and fail later on a field it lacks. A one-line file holding a record
    (an id or a text beside its lists) still reads as one record."""
    first = next(records, None)
    if first is None:
        return
    second = next(records, None)
    if second is None and _wraps_records(first[0]):
        raise TopLevelObjectError(path)
    yield first
    if second is not None:
        yield second
        yield from records


def _wraps_records(value: object) -> bool:
    """An object of containers only, one of them a non-empty list of objects."""
    if not isinstance(value, dict) or not value:
        return False
    if not all(isinstance(v, dict | list) for v in value.values()):
        return False
    return any(
        isinstance(v, list) and v and all(isinstance(x, dict) for x in v) for v in value.values()
    )


def read_json_array(path: str | Path, *, lines_json: bool = True) -> list[Record]:
    """:func:`iter_json_array` as a list."""
    return list(iter_json_array(path, lines_json=lines_json))


def read_json_value(path: str | Path) -> object:
    """A whole JSON document (e.g. an object), errors with line and column."""
    path = Path(path)
    text = read_text(path)
    try:
        return loads(text)
    except json.JSONDecodeError as exc:
        line, col = _line_col(text, exc.pos)
        raise InputError(
            f"malformed JSON at line {line}, column {col}: {exc.msg}", path=str(path), line=line
        ) from None


def iter_jsonl(path: str | Path) -> Iterator[Record]:
    """One JSON value per non-blank line, read and parsed one line at a time."""
    path = Path(path)
    _check_file(path)
    with path.open("rb") as fh:
        yield from _jsonl_lines(path, fh)


def _jsonl_lines(path: Path, fh: BinaryIO) -> Iterator[Record]:
    offset = 0
    for lineno, raw in enumerate(fh, start=1):
        base, offset = offset, offset + len(raw)
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _not_utf8(path, raw, exc, base, lineno) from None
        del raw
        if lineno == 1:
            line = line.removeprefix(_BOM)
        if not line.strip():
            continue
        try:
            value = loads(line)
        except json.JSONDecodeError as exc:
            if lineno == 1 and _one_object_or_array(path):
                raise InputError(
                    "the file holds one JSON document spread over lines, not JSON Lines (one "
                    "object per line): write one record per line, or give a JSON array as .json",
                    path=str(path),
                ) from None
            raise InputError(
                f"malformed JSON line (column {exc.colno}): {exc.msg}", path=str(path), line=lineno
            ) from None
        del line
        yield value, lineno


def read_jsonl(path: str | Path) -> list[Record]:
    """:func:`iter_jsonl` as a list."""
    return list(iter_jsonl(path))


def iter_parquet(path: str | Path, batch_rows: int = 4096) -> Iterator[Record]:
    """Rows of a Parquet file as dicts, a batch at a time; the 'line' is the 1-based row."""
    import pyarrow.parquet as pq

    path = Path(path)
    _check_file(path)
    row = 0
    try:
        batches = pq.ParquetFile(path).iter_batches(batch_size=batch_rows)
        for batch in batches:
            for rec in batch.to_pylist():
                row += 1
                yield rec, row
    except InputError:
        raise
    except Exception as exc:  # pyarrow raises several types for a corrupt file
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise InputError(f"cannot read Parquet: {first}", path=str(path), line=row + 1) from None


def read_parquet(path: str | Path) -> list[Record]:
    """:func:`iter_parquet` as a list."""
    return list(iter_parquet(path))


def iter_records(path: str | Path) -> Iterator[Record]:
    """Records of a .json (array), .jsonl/.ndjson or .parquet file, chosen by suffix, one at a
    time (what loaders use: a record is dropped once validated)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return iter_jsonl(path)
    if suffix == ".parquet":
        return iter_parquet(path)
    if suffix == ".json":
        return iter_json_array(path)
    raise InputError(
        f"unknown file type {suffix!r}: expected .json (array), .jsonl or .parquet", path=str(path)
    )


def read_records(path: str | Path) -> list[Record]:
    """:func:`iter_records` as a list."""
    return list(iter_records(path))


def iter_dicts(
    path: str | Path, records: Iterable[Record]
) -> Iterator[tuple[dict[str, object], int]]:
    """The records, each checked to be a JSON object."""
    for value, line in records:
        if not isinstance(value, dict):
            raise InputError(
                f"expected a JSON object, found {type(value).__name__}", path=str(path), line=line
            )
        yield value, line
