"""Readers for JSON arrays, JSONL and Parquet that keep each record's line number.

Every loader reads through these, so a bad file is reported the same way everywhere: the file,
the line (1-based; for Parquet the row, 1-based), and the byte offset of undecodable bytes.
A JSON array is scanned element by element with ``JSONDecoder.raw_decode`` so each record knows
the line it starts on, at C speed (no per-character Python loop).
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from toolex.errors import InputError

_DECODER = json.JSONDecoder()
_WS = " \t\n\r"

Record = tuple[Any, int]  # (parsed value, 1-based line or row)


def read_text(path: str | Path) -> str:
    """The file as text; non-UTF-8 bytes are an InputError naming line and byte offset."""
    path = Path(path)
    if not path.is_file():
        raise InputError("file not found", path=str(path))
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"not UTF-8: byte 0x{data[exc.start]:02x} at byte offset {exc.start} cannot be decoded "
            "(re-save the file as UTF-8)",
            path=str(path),
            line=line,
        ) from None
    return text.removeprefix("\ufeff")


class _Lines:
    """Maps a character offset to its 1-based line and column."""

    def __init__(self, text: str) -> None:
        self.starts = [0]
        pos = text.find("\n")
        while pos != -1:
            self.starts.append(pos + 1)
            pos = text.find("\n", pos + 1)

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def col(self, offset: int) -> int:
        return offset - self.starts[self.line(offset) - 1] + 1


def _skip_ws(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in _WS:
        i += 1
    return i


def _json_error(path: Path, text: str, lines: _Lines, offset: int, msg: str) -> InputError:
    return InputError(
        f"malformed JSON at line {lines.line(offset)}, column {lines.col(offset)}: {msg}",
        path=str(path),
        line=lines.line(offset),
    )


def read_json_array(path: str | Path, *, lines_json: bool = True) -> list[Record]:
    """Elements of a top-level JSON array with the line each starts on (or, when the file
    starts with an object and ``lines_json``, its JSON lines)."""
    path = Path(path)
    text = read_text(path)
    lines = _Lines(text)
    i = _skip_ws(text, 0)
    if i < len(text) and text[i] == "{" and lines_json:
        return _jsonl(path, text)  # Hugging Face writes JSON Lines under a .json name
    if i >= len(text) or text[i] != "[":
        raise _json_error(path, text, lines, i, "expected a JSON array '[' at the top level")
    out: list[Record] = []
    i = _skip_ws(text, i + 1)
    if i < len(text) and text[i] == "]":
        return out
    while True:
        try:
            value, end = _DECODER.raw_decode(text, i)
        except json.JSONDecodeError as exc:
            raise _json_error(path, text, lines, exc.pos, exc.msg) from None
        out.append((value, lines.line(i)))
        i = _skip_ws(text, end)
        if i < len(text) and text[i] == ",":
            i = _skip_ws(text, i + 1)
            continue
        if i < len(text) and text[i] == "]":
            break
        raise _json_error(path, text, lines, i, "expected ',' or ']' after an array element")
    rest = _skip_ws(text, i + 1)
    if rest < len(text):
        raise _json_error(path, text, lines, rest, "extra data after the JSON array")
    return out


def read_json_value(path: str | Path) -> Any:
    """A whole JSON document (e.g. an object), errors with line and column."""
    path = Path(path)
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}",
            path=str(path),
            line=exc.lineno,
        ) from None


def read_jsonl(path: str | Path) -> list[Record]:
    """One JSON value per non-blank line."""
    path = Path(path)
    return _jsonl(path, read_text(path))


def _jsonl(path: Path, text: str) -> list[Record]:
    out: list[Record] = []
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            out.append((json.loads(line), lineno))
        except json.JSONDecodeError as exc:
            raise InputError(
                f"malformed JSON line (column {exc.colno}): {exc.msg}", path=str(path), line=lineno
            ) from None
    return out


def read_parquet(path: str | Path) -> list[Record]:
    """Rows of a Parquet file as dicts; the 'line' is the 1-based row number."""
    import pyarrow.parquet as pq

    path = Path(path)
    if not path.is_file():
        raise InputError("file not found", path=str(path))
    try:
        rows = pq.read_table(path).to_pylist()
    except Exception as exc:  # pyarrow raises several types for a corrupt file
        raise InputError(f"cannot read Parquet: {exc}", path=str(path)) from None
    return [(row, i) for i, row in enumerate(rows, start=1)]


def read_records(path: str | Path) -> list[Record]:
    """Records of a .json (array), .jsonl/.ndjson or .parquet file, chosen by suffix."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return read_jsonl(path)
    if suffix == ".parquet":
        return read_parquet(path)
    if suffix == ".json":
        return read_json_array(path)
    raise InputError(
        f"unknown file type {suffix!r}: expected .json (array), .jsonl or .parquet", path=str(path)
    )


def iter_dicts(path: str | Path, records: list[Record]) -> Iterator[tuple[dict[str, Any], int]]:
    """The records, each checked to be a JSON object."""
    for value, line in records:
        if not isinstance(value, dict):
            raise InputError(
                f"expected a JSON object, found {type(value).__name__}", path=str(path), line=line
            )
        yield value, line
