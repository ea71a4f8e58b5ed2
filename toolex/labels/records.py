"""Verdict label files: JSONL and CSV, read with located errors and written back.

One record is one person's yes/no on a verdict: is ``candidate`` a functional equivalent of
``reference`` (a ground-truth item of ``query_id``) for that step? Fields:

- required: ``benchmark``, ``query_id``, ``reference``, ``candidate``, ``label`` (yes/no; true/false
  and 1/0 are read as yes/no);
- optional: ``slot`` (the reference's slot), ``subquery`` (the step's text; without it the
  expansion's sub-query is used, see toolex.labels.tasks), ``labeller``, ``note``, ``source``
  (the label set; default: the file's name), ``stratum`` (a JSON object saying how the item was
  drawn: part, candidate_source, rank, ...; in CSV a JSON string).

Reading checks each record on its own (types, required fields, duplicates); whether the names exist
in the store is checked by toolex.labels.table. Every problem is an ``InputError`` naming file,
line and field; all of a file's problems are gathered into one :class:`LabelErrors`.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from toolex.errors import InputError, ToolexError
from toolex.loaders.fields import Where, get_int, get_str
from toolex.loaders.readers import loads, read_jsonl, read_text
from toolex.resources import data_path

# The shipped verdict sets (docs/labels/README.md) and the loads they need: the set drawn from
# the pipeline's own candidate lists (the default of `judges eval`), and the hand-picked
# near-miss set of the first round (a diagnostic).
SHIPPED = data_path("labels/pipeline-v2.jsonl")
SHIPPED_DEV = data_path("labels/dev-v1.jsonl")
SHIPPED_SETS = (SHIPPED, SHIPPED_DEV)
SHIPPED_LOADS = {
    "toolret": "toolex load toolret ../shared/data/toolret",
    "stabletoolbench": "toolex load stabletoolbench ../shared/data/stabletoolbench",
}
FILE_FORMATS = ("jsonl", "csv")
YES, NO = "yes", "no"
_TRUTHY = {"yes": YES, "true": YES, "1": YES, "no": NO, "false": NO, "0": NO}
DEFAULT_LABELLER = "unknown"
MAX_SHOWN_ERRORS = 20


class LabelKey(NamedTuple):
    """What names one label in the ``labels`` table (its primary key)."""

    source: str
    benchmark: str
    query_id: str
    reference: str
    candidate: str


@dataclass(frozen=True)
class Label:
    """One verdict label; mirrors the ``labels`` table (sql/schema/060_verdict_quality.sql)."""

    benchmark: str
    query_id: str
    slot: int | None
    subquery: str | None
    reference: str
    candidate: str
    label: str  # yes | no
    labeller: str
    note: str | None
    source: str
    stratum: dict[str, Any] | None
    labelled_at: datetime | None = None

    @property
    def key(self) -> LabelKey:
        return LabelKey(self.source, self.benchmark, self.query_id, self.reference, self.candidate)

    def record(self) -> dict[str, object]:
        """The file record (every field but ``labelled_at``, in file order)."""
        out = asdict(self)
        out.pop("labelled_at")
        return out


FIELDS = tuple(f.name for f in fields(Label) if f.name != "labelled_at")


class LabelErrors(ToolexError):
    """Every problem of one label file; nothing of it was imported."""

    def __init__(self, path: str, errors: Sequence[InputError]) -> None:
        self.path, self.errors = path, list(errors)
        shown = "\n".join(f"  {e}" for e in self.errors[:MAX_SHOWN_ERRORS])
        more = len(self.errors) - MAX_SHOWN_ERRORS
        super().__init__(
            f"{len(self.errors)} problem(s) in {path}; nothing was imported:\n{shown}"
            + (f"\n  ... and {more} more" if more > 0 else "")
        )


def file_format(path: str | Path, fmt: str | None = None) -> str:
    """``fmt`` when given, else by suffix: .csv is CSV, anything else JSONL."""
    if fmt:
        if fmt not in FILE_FORMATS:
            raise InputError(f"unknown label file format {fmt!r}; use jsonl or csv", field="format")
        return fmt
    return "csv" if Path(path).suffix.lower() == ".csv" else "jsonl"


def read_labels(
    path: str | Path,
    *,
    source: str | None = None,
    benchmark: str | None = None,
    fmt: str | None = None,
) -> tuple[list[tuple[Label, Where]], list[str]]:
    """The labels of a file with where each was read, and notes (unknown fields ignored).

    ``source`` names the label set of every record (else the record's ``source``, else the file's
    name); ``benchmark`` is the benchmark of records that name none (a record naming another is an
    error). Raises :class:`LabelErrors` listing every problem found."""
    path = Path(path)
    records = _csv_records(path) if file_format(path, fmt) == "csv" else _jsonl_records(path)
    out: list[tuple[Label, Where]] = []
    errors: list[InputError] = []
    unknown: set[str] = set()
    spelled: Counter[str] = Counter()  # labels not written yes/no, by how they were written
    seen: dict[tuple[str, ...], int] = {}
    for rec, line in records:
        where = Where(str(path), line)
        if not isinstance(rec, dict):
            errors.append(where.error(f"expected a JSON object, found {type(rec).__name__}"))
            continue
        unknown |= set(rec) - set(FIELDS)
        try:
            label = parse_record(rec, where, source or path.name, benchmark, forced=bool(source))
        except InputError as exc:
            errors.append(exc)
            continue
        key = (label.source, label.benchmark, label.query_id, label.reference, label.candidate)
        if key in seen:
            errors.append(
                where.error(
                    f"this (benchmark, query, reference, candidate) is labelled twice in source "
                    f"{label.source!r}; first at line {seen[key]}",
                    "candidate",
                )
            )
            continue
        seen[key] = line
        out.append((label, where))
        spelled[_spelling(rec.get("label"))] += 1
    if not out and not errors:
        errors.append(InputError("no labels in the file", path=str(path)))
    if errors:
        raise LabelErrors(str(path), errors)
    notes = [f"ignored unknown field(s): {', '.join(sorted(unknown))}"] if unknown else []
    spelled.pop("", None)
    if spelled:
        forms = ", ".join(f"{n} as {form}" for form, n in sorted(spelled.items()))
        notes.append(
            f"{sum(spelled.values())} label(s) not written yes/no were read as yes/no ({forms})"
        )
    return out, notes


def _spelling(value: object) -> str:
    """How a label was written, when not as yes/no ('' for yes/no): a JSON true/false, a
    number, or a word of :data:`_TRUTHY` other than yes/no. Accepted (annotation tools export
    booleans and 1/0, and each reads one way), but counted, so that none is read silently."""
    if isinstance(value, bool):
        return "JSON true/false"
    if isinstance(value, int | float):
        return "the number 1/0"
    text = str(value).strip().lower()
    return "" if text in (YES, NO) else f"{text!r}"


def parse_record(
    rec: dict[str, Any],
    where: Where,
    default_source: str,
    benchmark: str | None = None,
    *,
    forced: bool = False,
) -> Label:
    """One record as a Label; the first problem is raised as a located InputError."""
    given = _blank_to_none(rec)
    if benchmark is not None and given.get("benchmark") is None:
        given["benchmark"] = benchmark
    bench = get_str(given, "benchmark", where)
    if benchmark is not None and bench != benchmark:
        raise where.error(f"names benchmark {bench!r}, but --benchmark {benchmark!r} was given")
    query_id = get_str(given, "query_id", where)
    where = Where(where.path, where.line, query_id)
    reference = get_str(given, "reference", where)
    candidate = get_str(given, "candidate", where)
    if candidate == reference:
        raise where.error("the candidate is the reference itself", "candidate")
    source = default_source if forced else get_str(given, "source", where, required=False)
    return Label(
        benchmark=bench,
        query_id=query_id,
        slot=_slot(given, where),
        subquery=_text(given, "subquery", where),
        reference=reference,
        candidate=candidate,
        label=_label(given.get("label"), where),
        labeller=_text(given, "labeller", where) or DEFAULT_LABELLER,
        note=_text(given, "note", where),
        source=(source or default_source).strip(),
        stratum=_stratum(given.get("stratum"), where),
    )


def write_labels(path: str | Path, labels: Iterable[Label], fmt: str | None = None) -> int:
    """Write labels as JSONL (one object per line) or CSV (stratum as a JSON string)."""
    path = Path(path)
    rows = [label.record() for label in labels]
    if file_format(path, fmt) == "csv":
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=list(FIELDS), lineterminator="\n")
        writer.writeheader()
        for row in rows:
            stratum = row["stratum"]
            row["stratum"] = json.dumps(stratum, ensure_ascii=False) if stratum else None
            writer.writerow(row)
        text = buf.getvalue()
    else:
        text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    path.write_text(text, encoding="utf-8")
    return len(rows)


# -- fields ----------------------------------------------------------------------------------


def _blank_to_none(rec: dict[str, Any]) -> dict[str, object]:
    """CSV cells are strings: an empty cell is a missing field, as null is in JSON."""
    return {k: (None if isinstance(v, str) and not v.strip() else v) for k, v in rec.items()}


def _label(value: Any, where: Where) -> str:
    if value is None:
        raise where.error("missing required field", "label")
    if isinstance(value, bool):
        return YES if value else NO
    if isinstance(value, int | float) and value in (0, 1):
        return YES if value else NO
    if isinstance(value, str) and value.strip().lower() in _TRUTHY:
        return _TRUTHY[value.strip().lower()]
    raise where.error(f"expected yes or no (or true/false, 1/0), found {value!r}", "label")


def _slot(rec: Mapping[str, object], where: Where) -> int | None:
    slot = get_int(rec, "slot", where, None)
    if slot is not None and slot < 0:
        raise where.error(f"a slot is 0 or more, found {slot}", "slot")
    return slot


def _text(rec: Mapping[str, object], key: str, where: Where) -> str | None:
    value = get_str(rec, key, where, required=False)
    if value is None:
        return None
    return value.strip() or None


def _stratum(value: object, where: Where) -> dict[str, object] | None:
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = loads(value)  # bounded nesting, no NaN
        except json.JSONDecodeError as exc:
            raise where.error(f"not JSON: {exc.msg}", "stratum") from None
    if not isinstance(value, dict):
        raise where.error(f"expected a JSON object, found {type(value).__name__}", "stratum")
    return value or None


# -- files -----------------------------------------------------------------------------------


def _jsonl_records(path: Path) -> list[tuple[Any, int]]:
    return read_jsonl(path)


def _csv_records(path: Path) -> list[tuple[Any, int]]:
    """Rows of a CSV file with a header, each with the line it starts on."""
    text = read_text(path)
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise InputError("empty CSV file: expected a header row", path=str(path)) from None
    except csv.Error as exc:
        raise InputError(f"malformed CSV: {exc}", path=str(path), line=1) from None
    header = [h.strip() for h in header]
    missing = [f for f in ("query_id", "reference", "candidate", "label") if f not in header]
    if missing:
        raise InputError(
            f"the CSV header lacks the column(s) {', '.join(missing)}", path=str(path), line=1
        )
    out: list[tuple[Any, int]] = []
    start = reader.line_num + 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise InputError(f"malformed CSV: {exc}", path=str(path), line=start) from None
        if any(cell.strip() for cell in row):
            if len(row) != len(header):
                raise InputError(
                    f"{len(row)} cells for {len(header)} columns", path=str(path), line=start
                )
            out.append((dict(zip(header, row, strict=True)), start))
        start = reader.line_num + 1
    return out
