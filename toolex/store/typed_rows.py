"""How ``Store.typed`` turns a shipped query's rows into typed records (NamedTuples or
dataclasses) without a dict per row.

The query's column names are checked against the record's fields once per call, before any row
is built: a column renamed in the SQL (or a field renamed in Python) fails there, with an error
that names the SQL file, the record and the columns missing or extra, not later in the code that
reads the field. The rows are then built positionally; a query whose columns are the record's
fields in another order is reordered once per row by one ``itemgetter``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TypeVar

R = TypeVar("R")


class RowShapeError(TypeError):
    """A shipped query's columns are not the fields of the record it is read into: the SQL and
    the Python that reads it disagree (a bug in toolex, not in a user's input)."""


def record_fields(row: type[object]) -> tuple[str, ...]:
    """The fields a record is built from, in its constructor's order: a NamedTuple's
    ``_fields``, or a dataclass's fields taken by ``__init__`` (each positional)."""
    named = getattr(row, "_fields", None)
    if isinstance(row, type) and issubclass(row, tuple) and isinstance(named, tuple):
        return named
    if isinstance(row, type) and dataclasses.is_dataclass(row):
        fields = [f for f in dataclasses.fields(row) if f.init]
        keyword = [f.name for f in fields if f.kw_only]
        if keyword:
            raise RowShapeError(
                f"{row.__qualname__} has keyword-only fields ({', '.join(keyword)}): a row is "
                "built positionally, so its fields must all be positional"
            )
        return tuple(f.name for f in fields)
    raise RowShapeError(f"{row!r} is not a NamedTuple or a dataclass: a typed row is one")


def _listed(names: Sequence[str]) -> str:
    return ", ".join(repr(n) for n in names)


def row_builder(
    name: str, row: type[R], columns: Sequence[str]
) -> Callable[[tuple[object, ...]], R]:
    """A function making one ``row`` from one result tuple of the query ``name`` (its columns
    ``columns``); RowShapeError when the columns are not the record's fields."""
    fields = record_fields(row)
    repeated = sorted({c for c in columns if list(columns).count(c) > 1})
    missing = [f for f in fields if f not in columns]
    extra = [c for c in columns if c not in fields]
    if repeated or missing or extra:
        problems = []
        if missing:
            problems.append(f"no column for field(s) {_listed(missing)}")
        if extra:
            problems.append(f"column(s) {_listed(extra)} not among its fields")
        if repeated:
            problems.append(f"column(s) {_listed(repeated)} named twice")
        raise RowShapeError(
            f"sql/{name} does not return the fields of {row.__module__}.{row.__qualname__}: "
            + "; ".join(problems)
            + f" (the query returns {_listed(columns)}; the record has {_listed(fields)})"
        )
    make: Callable[..., R] = getattr(row, "_make", None) or (lambda values: row(*values))
    if tuple(columns) == fields:
        return make
    # two fields at least: one field in another order is the same order
    order = itemgetter(*(list(columns).index(f) for f in fields))
    return lambda values: make(order(values))
