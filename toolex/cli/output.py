"""How rows are printed: the values, the aligned table, and the CSV and JSON writers that every
command prints rows through (toolex.cli.options.emit_rows) and `toolex sql` streams through.

The conventions are duckdb's and psql's:

- headers are the column names as given, a repeated name included (``SELECT 1 AS a, 2 AS a``
  prints two columns ``a``, in a table and in CSV);
- JSON objects need unique keys, so there a repeated name takes the suffix DuckDB gives it when
  the query is read as a sub-query (:func:`unique_names`: ``a``, ``a_1``, ``a_2``; a name taken
  already, in any case, moves on to the next number), and so does a Parquet file's schema;
- numbers keep their significant digits (a table shows 6, so 1e-06 never prints as 0.0000);
  JSON and CSV carry floats rounded to 12 significant digits, so two runs of the same
  computation print the same text (DuckDB's parallel sums differ in the 16th digit);
- exact numbers stay exact: an integer of any size (HUGEINT, UHUGEINT: toolex.store's
  ``user_reader`` hands them over whole) and a DECIMAL print every digit, in a table, in CSV and
  as a JSON number (``1234567890123456789012345678.0123456789``, never ``1.23456789012e+27``);
- in CSV a STRUCT or LIST value is JSON, NULL is empty, a boolean is ``true``/``false``;
- text from data is never markup: a table's cells, headers, title and footer are
  ``rich.text.Text`` made by :func:`shown` (``[/INST]``, ``tool[v2]`` print as themselves),
  with control, bidi and invisible characters written as escapes (toolex.printable).

The writers take rows as sequences in column order, so nothing keyed by name can lose a column.
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, TextIO, TypeAlias

from toolex.printable import printable

if TYPE_CHECKING:
    from rich.text import Text

# A value as :func:`json_value` hands it to :func:`json_text` (a Decimal is written as a number).
JsonValue: TypeAlias = (
    None | bool | int | float | str | Decimal | dict[str, "JsonValue"] | list["JsonValue"]
)


def reader_gone() -> None:
    """After a broken pipe: point stdout and stderr at /dev/null, so nothing more is written
    to the closed pipe and the interpreter's last flush does not fail again with "Exception
    ignored" (the Python documentation's recipe)."""
    import os
    import sys

    for stream in (sys.stdout, sys.stderr):
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):  # no real file descriptor (a capture)
            pass


def unique_names(columns: Sequence[str]) -> list[str]:
    """``columns`` with each repeated name made unique, as DuckDB names the columns of
    ``SELECT * FROM (<query>)``: the first keeps its name, the next ``name_1``, ``name_2``, ...,
    skipping a name already taken (names compare case-insensitively, as DuckDB's do)."""
    taken: set[str] = set()
    suffix: dict[str, int] = {}
    out = []
    for name in columns:
        key = name.lower()
        if key in taken:
            n = suffix.get(key, 0)
            while True:
                n += 1
                candidate = f"{name}_{n}"
                if candidate.lower() not in taken:
                    break
            suffix[key] = n
            name = candidate
        taken.add(name.lower())
        out.append(name)
    return out


def stable_float(value: float) -> float:
    """``value`` rounded to 12 significant digits: the same text from run to run (sums over
    parallel threads differ in the last bits), and still exact for every metric value."""
    if not math.isfinite(value) or value == 0:
        return value
    return float(f"{value:.12g}")


def json_value(value: object) -> JsonValue:
    """``value`` as JSON holds it: floats stable, integers and Decimals exact (a Decimal stays
    one: :func:`json_text` writes it as a number, every digit), non-finite floats and anything
    JSON lacks (dates, blobs) as text."""
    if isinstance(value, bool) or value is None or isinstance(value, int | str):
        return value
    if isinstance(value, float):
        return stable_float(value) if math.isfinite(value) else str(value)
    if isinstance(value, Decimal):
        return value if value.is_finite() else str(value)
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_value(v) for v in value]
    return str(value)


def decimal_text(value: Decimal) -> str:
    """A Decimal's every digit, as DuckDB prints it (its scale kept, never an exponent)."""
    return f"{value:f}"


def json_text(value: object, *, indent: int | None = None) -> str:
    """``json.dumps(value, ensure_ascii=False)`` that writes a Decimal (from
    :func:`json_value`) as a JSON number with every digit, where json would raise or a float
    would round it. Anything else JSON lacks is its text (``default=str``)."""
    marks: list[str] = []
    nonces: list[str] = []  # made at the first Decimal: secrets (OpenSSL) loads in 6 CPU-ms

    def exact(obj: object) -> object:
        if isinstance(obj, Decimal) and obj.is_finite():
            if not nonces:
                import secrets

                nonces.append(secrets.token_hex(4))
            marks.append(decimal_text(obj))
            return f"\x00{nonces[0]}:{len(marks) - 1}\x00"
        return str(obj)

    text = json.dumps(value, indent=indent, ensure_ascii=False, default=exact)
    if not marks:
        return text
    mark = re.compile(rf'"\\u0000{nonces[0]}:(\d+)\\u0000"')
    return mark.sub(lambda m: marks[int(m.group(1))], text)


def csv_value(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list | tuple):
        return json_text(json_value(value))
    if isinstance(value, Decimal):
        return decimal_text(value) if value.is_finite() else str(value)
    if isinstance(value, float):
        return repr(stable_float(value))
    return value


def cell(value: object) -> str:
    """``value`` in a table cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return decimal_text(value) if value.is_finite() else str(value)
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, dict | list | tuple):
        return json_text(json_value(value))
    return str(value)


def shown(value: object, style: str = "") -> Text:
    """Text from data as Rich prints it: never read as markup (``[/x]`` would raise, ``[bold]``
    restyle), every character that is not shown as itself escaped (toolex.printable). The one
    way a value, a column name or a title reaches a Rich console."""
    from rich.text import Text

    return Text(printable(value if isinstance(value, str) else cell(value)), style=style)


def width(value: object) -> int:
    """Terminal cells ``value`` takes in a table (a CJK letter or an emoji takes two)."""
    from rich.cells import cell_len

    return cell_len(printable(value if isinstance(value, str) else cell(value)))


def numeric(values: Iterable[object]) -> bool:
    """True when every value is a number or NULL, and one is a number (right-aligned)."""
    seen = False
    for v in values:
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int | float | Decimal):
            return False
        seen = True
    return seen


class CsvWriter:
    """CSV to ``out``: the header when created, then rows as they come."""

    def __init__(self, out: TextIO, columns: Sequence[str]) -> None:
        self._writer = csv.writer(out, lineterminator="\n")
        self._width = len(columns)
        if columns:
            self._writer.writerow(columns)

    def write(self, rows: Iterable[Sequence[object]]) -> None:
        if self._width:
            self._writer.writerows([csv_value(v) for v in row] for row in rows)

    def close(self) -> None:
        pass


class JsonWriter:
    """A JSON array of objects to ``out``, one object at a time, byte for byte what
    ``json.dumps(rows, indent=2, ensure_ascii=False)`` prints for the whole list: a result
    need not fit in memory to print as one JSON document."""

    def __init__(self, out: TextIO, columns: Sequence[str]) -> None:
        self._out = out
        self._keys = [f"    {json.dumps(k, ensure_ascii=False)}: " for k in unique_names(columns)]
        self._first = True

    def write(self, rows: Iterable[Sequence[object]]) -> None:
        # Each member is dumped alone (a scalar on its own is 3-4x faster than the indented
        # object whole), then set at the object's depth.
        for row in rows:
            members = ",\n".join(
                key + _member(json_value(v)) for key, v in zip(self._keys, row, strict=True)
            )
            text = f"  {{\n{members}\n  }}" if members else "  {}"
            self._out.write(("[\n" if self._first else ",\n") + text)
            self._first = False

    def close(self) -> None:
        self._out.write("[]\n" if self._first else "\n]\n")


def _member(value: object) -> str:
    """A member's value as json.dumps(..., indent=2) prints it two levels deep."""
    if isinstance(value, dict | list) and value:
        return json_text(value, indent=2).replace("\n", "\n    ")
    if isinstance(value, Decimal):
        return decimal_text(value)
    return json.dumps(value, ensure_ascii=False)


def writer(fmt: str, out: TextIO, columns: Sequence[str]) -> CsvWriter | JsonWriter:
    """The streamed writer of ``fmt`` (csv or json)."""
    if fmt == "csv":
        return CsvWriter(out, columns)
    if fmt == "json":
        return JsonWriter(out, columns)
    raise ValueError(f"no streamed writer for {fmt!r}")
