"""Import a retrieval run made elsewhere: read it (:mod:`toolex.runs.formats`), check it against
the benchmark, and store it with the one writer (:mod:`toolex.runs.write`).

Checks before anything is written: every query id belongs to the benchmark (else an InputError
naming the line, or ``skip_unknown`` drops those rows and says how many); no item is listed twice
for one query (or sub-query); item ids the library lacks are kept (they are simply never relevant)
and counted in a note. With ``level="subquery"`` the file's ``slot`` column gives the per-sub-query
lists, and the query-level list is their RRF fusion, exactly as for a retrieved run; a slot that
is no sub-query of its query (below 0, or past k-1 for a query of k ground-truth tools) is an
InputError naming the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, TypedDict

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from toolex.errors import InputError
from toolex.loaders.fields import Where, check_id
from toolex.printable import first_unshown, printable
from toolex.runs import codes
from toolex.runs.format_names import resolve_format
from toolex.runs.formats import read_run
from toolex.runs.notes import skipped_note
from toolex.runs.rrf import RRF_K
from toolex.runs.write import check_free, check_level, write_run
from toolex.store import Store


@dataclass
class RunImport:
    run_id: str
    benchmark: str
    level: str
    format: str
    queries: int
    results: int
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"run {self.run_id!r} ({self.format}, {self.level} level): {self.results} results "
            f"for {self.queries} queries of {self.benchmark!r}"
        )


def import_run(
    store: Store,
    path: str | Path,
    *,
    run: str,
    benchmark: str,
    fmt: str = "auto",
    level: str = "query",
    skip_unknown: bool = False,
    replace: bool = False,
) -> RunImport:
    """Read, check and store one run; nothing is written unless every check passes."""
    path = Path(path)
    check_level(level)
    store.require_benchmark(benchmark)
    check_free(store, run, replace)
    real_fmt = resolve_format(path, fmt)
    table = read_run(path, real_fmt)
    target = RunTarget(run, benchmark, level, skip_unknown, replace)
    return import_results(store, table, source=str(path), fmt=real_fmt, target=target)


@dataclass(frozen=True)
class RunTarget:
    """Where an imported run goes: its name, benchmark and level; whether rows of queries the
    benchmark lacks are dropped (else refused) and whether it replaces a run of that name."""

    run: str
    benchmark: str
    level: str = "query"
    skip_unknown: bool = False
    replace: bool = False


def import_results(
    store: Store, table: pa.Table, *, source: str, fmt: str, target: RunTarget
) -> RunImport:
    """Check and store a run already read into ``RESULT_SCHEMA`` (a file's rows, or a run held
    in memory: toolex.api.frames) as ``target`` says; ``source`` names it in errors, ``fmt`` in
    the run's params. Rows are located by ``line``, or by query id for the formats in
    ``BY_RECORD``."""
    path = Path(source)
    run, benchmark, level = target.run, target.benchmark, target.level
    check_level(level)
    store.require_benchmark(benchmark)
    check_free(store, run, target.replace)
    _check_ids(table, path, fmt)
    _check_slots(table, level, path)
    result = RunImport(run, benchmark, level, fmt, 0, 0)
    read = _ReadRun(table, path, "record" if fmt in BY_RECORD else "line")
    result.notes += _check(store, benchmark, read, target.skip_unknown)
    if level == "subquery":
        _check_slot_range(store, benchmark, read)
    counts = write_run(
        store,
        run,
        benchmark=benchmark,
        level=level,
        results=table,
        params=_params(fmt, level),
        source=source,
        replace=target.replace,
    )
    result.queries, result.results = counts.queries, counts.results
    return result


@dataclass(frozen=True)
class _ReadRun:
    """A run's rows as read, the file they came from, and how a bad row is located there
    (``where``: its "line", or its query's "record")."""

    table: pa.Table
    path: Path
    where: str


# Formats whose rows have no line: a bad row is named by its query's record.
BY_RECORD = ("toolret-json", "dict", "ranx")


# A control character written %-encoded in a TREC id (%00, %0A, %7F): trec_ids decodes only
# whitespace, so %00 would stay as three characters and %0A become a newline, and neither is an
# id any store holds (loads refuse ids with control characters: toolex.loaders.fields.check_id).
# C1 controls are two bytes in UTF-8 (%C2%80-%C2%9F); a lone %80 is part of another character.
_ENCODED_CONTROL = re.compile(r"%[01][0-9A-Fa-f]|%7[Ff]|%[Cc]2%[89][0-9A-Fa-f]")


def _check_ids(table: pa.Table, path: Path, fmt: str) -> None:
    """No id holds a character not shown as itself (toolex.printable: a control, format or
    bidi character), as read or %-encoded in a TREC file: such an id breaks every line- and
    tab-based file it travels through, and names nothing a load accepts. Asked of each
    distinct id once (the dictionaries), located at its first row."""
    where_kind = "record" if fmt in BY_RECORD else "line"
    for key in ("query_id", "item_id"):
        ids = codes.encoded(table.column(key))
        for code, value in enumerate(ids.dictionary.to_pylist()):
            encoded_control = fmt == "trec" and _ENCODED_CONTROL.search(value)
            if not (encoded_control or first_unshown(value)):
                continue
            row = int(np.flatnonzero(codes.codes(ids) == code)[0])
            query_id = printable(table.column("query_id")[row].as_py())  # escaped: never obeyed
            line = table.column("line")[row].as_py()
            where = Where(str(path), **_located(query_id, line, where_kind))
            if encoded_control:
                raise where.error(
                    f"id {value!r} holds {encoded_control.group()}, an encoded control "
                    "character: ids may hold spaces but no newline, tab, NUL or other control "
                    "character",
                    key,
                )
            check_id(value, where, key)  # raises, naming the character


def _check_slots(table: pa.Table, level: str, path: Path) -> None:
    """A sub-query-level file gives every row a slot; a query-level file gives none."""
    slots = table.column("slot")
    if level == "query" and slots.null_count < table.num_rows:
        raise InputError(
            "the file has a slot column; import it with --level subquery",
            path=str(path),
            field="slot",
        )
    if level == "subquery" and slots.null_count == table.num_rows:
        raise InputError(
            "a sub-query-level run needs a slot column (query_id, slot, item_id, score)",
            path=str(path),
            field="slot",
        )
    if level == "subquery" and slots.null_count:
        first = pc.index(pc.is_null(slots), True).as_py()
        line = table.column("line")[first].as_py()
        raise InputError("empty slot value", path=str(path), line=line, field="slot")


def _check(store: Store, benchmark: str, read: _ReadRun, skip_unknown: bool) -> list[str]:
    """Check a read run against the benchmark; returns the notes. Each distinct id is asked
    about once, through the dictionaries, and the rows through their codes
    (:mod:`toolex.runs.codes`)."""
    table, path, where = read.table, read.path, read.where
    notes = []
    queries, items = codes.encoded(table.column("query_id")), codes.encoded(table.column("item_id"))
    first = codes.first_rows(queries)
    distinct = {
        "run_queries": pa.table(
            {
                "query_id": queries.dictionary,
                "line": table.column("line").take(codes.as_arrow(first)),
                "n_rows": codes.as_arrow(
                    np.bincount(codes.codes(queries), minlength=len(queries.dictionary))
                ),
            }
        ),
        "run_items": pa.table({"item_id": items.dictionary}),
    }
    with store.registered_tables(distinct):
        unknown = store.typed("runs/20_unknown_queries.sql", UnknownQuery, {"benchmark": benchmark})
        n_items = store.count("runs/22_unknown_items.sql", {"benchmark": benchmark})
    if unknown and not skip_unknown:
        first_unknown = unknown[0]
        raise InputError(
            f"query id {first_unknown.query_id!r} is not in benchmark {benchmark!r} "
            f"({len(unknown)} unknown query id(s); --skip-unknown drops them)",
            path=str(path),
            **_located(first_unknown.query_id, first_unknown.line, where),
            field="query_id",
        )
    if unknown:
        rows = sum(u.n_rows for u in unknown)
        notes.append(skipped_note(rows, len(unknown)))
    if _repeats(queries, table.column("slot"), items):
        with store.registered("new_results", table):
            d = store.typed("runs/21_duplicate_results.sql", DuplicateResult)[0]
        raise InputError(
            f"item {d.item_id!r} is listed twice for query {d.query_id!r} "
            f"(first at {where} {d.first_line})",
            path=str(path),
            **_located(d.query_id, d.line, where),
            field="item_id",
        )
    if n_items:
        notes.append(f"{n_items} item id(s) are not in the library (kept, never relevant)")
    return notes


def _check_slot_range(store: Store, benchmark: str, read: _ReadRun) -> None:
    """Every slot of a sub-query-level run is a sub-query of its query (0..k-1)."""
    table, path, where = read.table, read.path, read.where
    with store.registered("new_results", table):
        bad = store.typed("runs/23_subquery_slots.sql", SlotOutOfRange, {"benchmark": benchmark})
    if bad:
        row = bad[0]
        k = row.k
        slots = f"its sub-queries are slots 0..{k - 1}" if k else "it has no labels"
        raise InputError(
            f"slot {row.slot} is no sub-query of query {row.query_id!r}: it has {k} "
            f"ground-truth tool(s), so {slots}",
            path=str(path),
            **_located(row.query_id, row.line, where),
            field="slot",
        )


def _repeats(
    queries: pa.DictionaryArray, slots: pa.ChunkedArray, items: pa.DictionaryArray
) -> bool:
    """Whether an item is listed twice for one query (at sub-query level: one query and slot)."""
    keys = [codes.codes(queries)]
    if slots.null_count < len(slots):  # the slot's own values may be negative or large: encode
        keys.append(codes.codes(slots.combine_chunks().dictionary_encode()))
    keys.append(codes.codes(items))
    return codes.repeated(*keys)


class _Place(TypedDict, total=False):
    """Where an offending row is, as ``Where`` and ``InputError`` take it."""

    record: str
    what: str
    line: int | None


def _located(query_id: str, line: int | None, where: str) -> _Place:
    """An offending row's place for InputError: its line, or (ToolRet JSON) its query's record."""
    if where == "record":
        return {"record": query_id, "what": "query id"}
    return {"line": line}


class UnknownQuery(NamedTuple):
    """A query id of the run that the benchmark lacks, at its first line (runs/20)."""

    query_id: str
    line: int | None
    n_rows: int


class DuplicateResult(NamedTuple):
    """An item listed twice for one query (and slot): its first and second line (runs/21)."""

    query_id: str
    slot: int | None
    item_id: str
    first_line: int | None
    line: int | None


class SlotOutOfRange(NamedTuple):
    """A sub-query result whose slot is no ground-truth slot of its query (runs/23)."""

    query_id: str
    slot: int
    line: int | None
    k: int  # the query's ground-truth tools


def _params(fmt: str, level: str) -> dict[str, object]:
    out: dict[str, object] = {"imported": True, "format": fmt}
    if level == "subquery":
        out["fusion"] = {"method": "rrf", "k": RRF_K}
    return out
