"""Review sheets: one CSV per reviewer for people who label outside the TUI, at either level.

Export writes what the role may see (toolex.review.views: the request, the sub-query or the
checklist, and both documentations in adjacent columns, pretty-printed; reviewers see their own
label only, the adjudicator the disagreements with both labels and notes; nobody sees the
judge's verdicts, reasons or confidences, nor ranks or scores, unless the sample was drawn with
the judge's rationale shown: then a ``rationale`` column follows the documentations) plus the
label/bucket/note columns to fill. Columns, by level:

- verdict: sample_id, benchmark, expansion, query_id, slot, item_id (the candidate), position,
  query, instruction, subquery, reference, reference_doc, candidate_doc;
- combination: sample_id, benchmark, expansion, query_id, combo_id, position, stratum, query,
  instruction, checklist, reference, candidate, reference_docs, candidate_docs;
- then, for the adjudicator, r1_label, r1_bucket, r1_note, r2_label, r2_bucket, r2_note; and
  role, reviewer, label, bucket, note.

Import reads a filled sheet back: every row is checked before anything is written (an error names
the file, line and field), then all labels are saved in one transaction; rows with an empty label
are skipped (not yet labelled). Errors give a row's number as a spreadsheet shows it (the
header is line 1), not the file's physical line: documentation cells span several lines.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from toolex.errors import InputError, ToolexError
from toolex.review import protocol
from toolex.review.finals import in_sample
from toolex.review.labels import Label, check_role, items_for, write_label
from toolex.review.levels import Level, sample_level
from toolex.review.views import item_view
from toolex.store import Store

CONTEXT = {
    "verdict": (
        "position",
        "query",
        "instruction",
        "subquery",
        "reference",
        "reference_doc",
        "candidate_doc",
    ),
    "combination": (
        "position",
        "stratum",
        "query",
        "instruction",
        "checklist",
        "reference",
        "candidate",
        "reference_docs",
        "candidate_docs",
    ),
}
OTHERS = ("r1_label", "r1_bucket", "r1_note", "r2_label", "r2_bucket", "r2_note")
EDIT = ("role", "reviewer", "label", "bucket", "note")
INTEGER_KEYS = ("slot", "combo_id")


def columns(level: Level, role: str, rationale: bool = False) -> list[str]:
    others = OTHERS if role == "adjudicator" else ()
    shown = ("rationale",) if rationale else ()
    return ["sample_id", *level.key, *CONTEXT[level.name], *shown, *others, *EDIT]


def export_sheet(store: Store, sample_id: str, role: str, path: str | Path) -> int:
    """Write the role's sheet to ``path``; returns the number of rows."""
    level = sample_level(store, sample_id)
    items = items_for(store, sample_id, role)
    show = protocol.shows_rationale(store, sample_id)
    cols = columns(level, role, show)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=cols)
        writer.writeheader()
        for item in items:
            view = item_view(store, level, item, role, show)
            values = item.columns()
            row: dict[str, Any] = {k: values[k] for k in cols if k in values}
            docs = "docs" if level.name == "combination" else "doc"
            row.update(
                {
                    "sample_id": sample_id,
                    "role": role,
                    "checklist": "\n".join(view.checklist),
                    f"reference_{docs}": view.left.text(),
                    f"candidate_{docs}": view.right.text(),
                    "rationale": view.rationale,
                }
            )
            writer.writerow({k: "" if row.get(k) is None else row[k] for k in cols})
    return len(items)


def import_sheet(store: Store, path: str | Path) -> int:
    """Save the labels of a filled sheet; returns how many were saved."""
    path = str(path)
    levels: dict[str, Level] = {}
    todo: list[tuple[Level, str, dict[str, Any], str, str, Label]] = []
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        have = reader.fieldnames or []
        missing = [c for c in ("sample_id", "role", "reviewer", "label") if c not in have]
        if missing:
            raise InputError(f"missing columns {', '.join(missing)}", path=path, line=1)
        # a row's "line" is its row number as a spreadsheet shows it (header = 1): cells hold
        # multi-line documentation, so the file's physical line numbers would mislead
        for line, row in enumerate(reader, start=2):
            label = (row.get("label") or "").strip().lower()
            if not label:
                continue
            level = _sheet_level(store, levels, row["sample_id"], have, (path, line))
            item = _key(level, row, path, line)
            lab = _label(level, label, row, path, line)
            _check_in_sample(store, level, row["sample_id"], item, (path, line))
            role, reviewer = row["role"].strip(), row["reviewer"].strip()
            todo.append((level, row["sample_id"], item, role, reviewer, lab))
    for n, (level, sample_id, _, role, reviewer, _) in enumerate(todo):
        try:
            check_role(store, sample_id, role, reviewer, level)
        except ToolexError as exc:
            raise InputError(str(exc), path=path, record=str(n + 1), field="reviewer") from None
    with store.transaction():
        for level, sample_id, item, role, reviewer, lab in todo:
            write_label(store, level, sample_id, item, role, reviewer, lab)
    return len(todo)


def _sheet_level(
    store: Store, levels: dict[str, Level], sample_id: str, have: Sequence[str], at: tuple[str, int]
) -> Level:
    """The level of a row's sample (looked up once per sample, kept in ``levels``); the sheet
    must have that level's key columns."""
    path, line = at
    if sample_id not in levels:
        try:
            levels[sample_id] = sample_level(store, sample_id)
        except ToolexError as exc:
            raise InputError(str(exc), path=path, line=line, field="sample_id") from None
    level = levels[sample_id]
    lacking = [c for c in level.key if c not in have]
    if lacking:
        raise InputError(
            f"missing columns {', '.join(lacking)} of a {level.name}-level sheet",
            path=path,
            line=1,
        )
    return level


def _check_in_sample(
    store: Store, level: Level, sample_id: str, item: Mapping[str, object], at: tuple[str, int]
) -> None:
    if not in_sample(store, level, sample_id, item):
        what = " ".join(f"{k} {item[k]}" for k in level.key[2:])
        raise InputError(
            f"{what} is not in sample {sample_id!r}", path=at[0], line=at[1], field="query_id"
        )


def _key(level: Level, row: dict[str, str], path: str, line: int) -> dict[str, str | int]:
    item: dict[str, str | int] = {}
    for k in level.key:
        value = row[k]
        if k in INTEGER_KEYS:
            try:
                item[k] = int(value)
            except ValueError:
                raise InputError(
                    f"{k} must be an integer, not {value!r}", path=path, line=line, field=k
                ) from None
        else:
            item[k] = value
    return item


def _label(level: Level, label: str, row: dict[str, str], path: str, line: int) -> Label:
    bucket = (row.get("bucket") or "").strip() or None
    if label not in level.labels:
        raise InputError(
            f"label must be {' or '.join(level.labels)}, not {label!r}",
            path=path,
            line=line,
            field="label",
        )
    if label == level.negative and bucket not in level.buckets:
        raise InputError(
            f"a {label!r} label needs a bucket: {', '.join(level.buckets)}",
            path=path,
            line=line,
            field="bucket",
        )
    if label == level.positive and bucket:
        raise InputError(f"a {label!r} label takes no bucket", path=path, line=line, field="bucket")
    return Label(label, bucket, row.get("note")).check(level)
