"""Fields of an input record, read and validated: each getter names what is wrong and where
(file, line, record, field) through a :class:`Where`, so a bad input file is an InputError a
user can fix rather than a traceback."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, overload

from toolex.errors import InputError
from toolex.loaders.readers import loads
from toolex.printable import described, first_unshown, printable

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1  # the store's INTEGER (relevance, slot)
_INT_TEXT = re.compile(r"\s*-?[0-9]{1,10}\s*", re.ASCII)
_NUMBER_TEXT = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?", re.ASCII)


@dataclass(frozen=True)
class Where:
    """Location of one record, for error messages."""

    path: str
    line: int | None = None
    record: str | None = None
    what: str = "record"  # what the record is named by: "query id", "item id", ...
    # (schema field, the file's own field) pairs of a mapped record (toolex.loaders.fieldmap):
    # an error names the field as the user's file spells it
    fields: tuple[tuple[str, str], ...] = ()

    def error(self, message: str, field: str | None = None) -> InputError:
        if field is not None and self.fields:
            field = dict(self.fields).get(field, field)
        return InputError(
            message,
            path=self.path,
            line=self.line,
            record=self.record,
            field=field,
            what=self.what,
        )


@overload
def get_str(
    rec: Mapping[str, object], key: str, where: Where, *, required: Literal[True] = True
) -> str: ...
@overload
def get_str(rec: Mapping[str, object], key: str, where: Where, *, required: bool) -> str | None: ...
def get_str(
    rec: Mapping[str, object], key: str, where: Where, *, required: bool = True
) -> str | None:
    """A string field; ints are accepted as ids (ToolBench query ids are numbers)."""
    value = rec.get(key)
    if value is None:
        if required:
            raise where.error("missing required field", key)
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise where.error(f"expected a string, found {type(value).__name__}", key)
    text = str(value)
    if required and not text.strip():
        raise where.error("empty text", key)
    return text


def check_id(value: str, where: Where, field: str) -> str:
    """An id as the store keeps it: only characters shown as themselves (toolex.printable): no
    control character (newline, tab, NUL, ...), no line or paragraph separator, no invisible
    format character (a byte order mark, a bidi override such as U+202E, a zero width space)
    and no lone surrogate. A control character breaks every line- and tab-based file an id
    travels through (TREC and BEIR qrels, runs, CSV, the TUI); an invisible one makes an id
    that looks like another (and a bidi override prints a line backwards). Refused where
    read."""
    bad = first_unshown(value)
    if bad is not None:
        kind = "control character" if bad.group() < "\xa0" else "character"  # Cc: C0, C1
        raise where.error(
            f"id {printable(_brief(value))} holds the {kind} {described(bad.group())} at "
            f"position {bad.start()}: ids may hold spaces but no newline, tab, NUL, other "
            "control character or invisible formatting character (byte order mark, bidi "
            "override, zero width space)",
            field,
        )
    return value


def get_id(rec: Mapping[str, object], key: str, where: Where) -> str:
    """A required id field (:func:`get_str`) checked by :func:`check_id`."""
    return check_id(get_str(rec, key, where), where, key)


@overload
def get_int(rec: Mapping[str, object], key: str, where: Where, default: int) -> int: ...
@overload
def get_int(rec: Mapping[str, object], key: str, where: Where, default: None) -> int | None: ...
def get_int(rec: Mapping[str, object], key: str, where: Where, default: int | None) -> int | None:
    """An integer field that fits the store's INTEGER (32 bits): an int, an integral float,
    or text of ASCII digits with an optional minus ("²", "--1", "1_000" are refused)."""
    value = rec.get(key, default)
    if value is None:
        return default
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and _INT_TEXT.fullmatch(value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise where.error(f"expected an integer, found {_brief(value)}", key)
    if not INT32_MIN <= value <= INT32_MAX:
        raise where.error(f"{_brief(value)} does not fit a 32-bit integer", key)
    return value


def relevance_of(text: str, where: Where, field: str = "score") -> int:
    """A relevance grade written as a number in a text file: a whole number ('1', '2.0',
    '1e0'), finite and within a 32-bit integer ('inf', '1_000', '1e12' are errors). A fraction
    ('1.5', '0.4') is refused: trec_eval would truncate it (1.5 -> 1, and 0.4 -> 0, no longer
    relevant), so a grade would change silently."""
    text = text.strip()
    if not _NUMBER_TEXT.fullmatch(text):
        raise where.error(f"score {_brief(text)} is not a number", field)
    value = float(text)
    if not (math.isfinite(value) and INT32_MIN <= value <= INT32_MAX):
        raise where.error(f"score {_brief(text)} does not fit a 32-bit integer", field)
    if not value.is_integer():
        raise where.error(
            f"score {_brief(text)} is not a whole number: relevance grades are integers "
            f"(trec_eval would read it as {int(value)}); write the grade you mean",
            field,
        )
    return int(value)


def _brief(value: object, limit: int = 60) -> str:
    text = repr(value) if not isinstance(value, int) or value.bit_length() < 200 else "a huge int"
    return text if len(text) <= limit else text[:limit] + "..."


def get_doc(rec: Mapping[str, object], key: str, where: Where) -> dict[str, object]:
    """Raw documentation: a JSON object (or a string holding one, as in the Hub Parquet)."""
    value = rec.get(key)
    if isinstance(value, str):
        try:
            value = loads(value)  # bounded: no NaN, no 100-level nesting
        except json.JSONDecodeError as exc:
            raise where.error(f"documentation string is not JSON: {exc.msg}", key) from None
    if value is None:
        raise where.error("missing required field", key)
    if not isinstance(value, dict):
        raise where.error(f"expected a JSON object, found {type(value).__name__}", key)
    if not value:
        raise where.error("empty documentation", key)
    return value


def dump_doc(doc: Mapping[str, object]) -> str:
    return json.dumps(doc, ensure_ascii=False)
