"""Review sheets: one CSV per reviewer for people who label outside the TUI.

Export writes what the role may see (reviewers: their own label only; the adjudicator: the
disagreements with both labels and notes) plus empty or current label/bucket/note columns.
Import reads a filled sheet back: every row is checked before anything is written (an error names
the file, line and field), then all labels are saved in one transaction; rows with an empty
label are skipped (not yet labelled).
"""

from __future__ import annotations

import csv
from pathlib import Path

from toolex.errors import InputError
from toolex.review.labels import BUCKETS, LABELS, Label, check_role, items_for, members
from toolex.store import Store

KEY = ("sample_id", "benchmark", "expansion", "query_id", "combo_id")
CONTEXT = (
    "position",
    "stratum",
    "query",
    "instruction",
    "candidate",
    "reference",
    "subqueries",
    "judge_reasons",
    "audit_reason",
)
OTHERS = ("r1_label", "r1_bucket", "r1_note", "r2_label", "r2_bucket", "r2_note")
EDIT = ("role", "reviewer", "label", "bucket", "note")


def export_sheet(store: Store, sample_id: str, role: str, path: str | Path) -> int:
    """Write the role's sheet to ``path``; returns the number of rows."""
    items = items_for(store, sample_id, role)
    cols = list(KEY + CONTEXT + (OTHERS if role == "adjudicator" else ()) + EDIT)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=cols)
        writer.writeheader()
        for item in items:
            mem = members(store, item)
            row = {k: item.get(k) for k in cols if k in item}
            row.update(
                sample_id=sample_id,
                role=role,
                subqueries=" | ".join(f"{m['slot']}: {m['subquery'] or ''}" for m in mem),
                judge_reasons=" | ".join(f"{m['slot']}: {m['reason'] or ''}" for m in mem),
            )
            writer.writerow({k: "" if row.get(k) is None else row[k] for k in cols})
    return len(items)


def import_sheet(store: Store, path: str | Path) -> int:
    """Save the labels of a filled sheet; returns how many were saved."""
    path = str(path)
    todo: list[tuple[dict, str, str, str, Label]] = []
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        have = reader.fieldnames or []
        missing = [c for c in KEY + ("role", "reviewer", "label") if c not in have]
        if missing:
            raise InputError(f"missing columns {', '.join(missing)}", path=path, line=1)
        for row in reader:
            line = reader.line_num
            label = (row.get("label") or "").strip().lower()
            if not label:
                continue
            bucket = (row.get("bucket") or "").strip() or None
            if label not in LABELS:
                raise InputError(
                    f"label must be valid or invalid, not {label!r}",
                    path=path,
                    line=line,
                    field="label",
                )
            if label == "invalid" and bucket not in BUCKETS:
                raise InputError(
                    f"an invalid label needs a bucket: {', '.join(BUCKETS)}",
                    path=path,
                    line=line,
                    field="bucket",
                )
            if label == "valid" and bucket:
                raise InputError(
                    "a valid label takes no bucket", path=path, line=line, field="bucket"
                )
            try:
                combo_id = int(row["combo_id"])
            except ValueError:
                raise InputError(
                    f"combo_id must be an integer, not {row['combo_id']!r}",
                    path=path,
                    line=line,
                    field="combo_id",
                ) from None
            item = {
                "benchmark": row["benchmark"],
                "expansion": row["expansion"],
                "query_id": row["query_id"],
                "combo_id": combo_id,
            }
            if not store.rows(
                "review/13_item_in_sample.sql", {"sample_id": row["sample_id"], **item}
            )[0]["n"]:
                raise InputError(
                    f"{row['query_id']} combination {combo_id} is not in sample "
                    f"{row['sample_id']!r}",
                    path=path,
                    line=line,
                    field="query_id",
                )
            todo.append(
                (
                    item,
                    row["sample_id"],
                    row["role"].strip(),
                    row["reviewer"].strip(),
                    Label(label, bucket, row.get("note")),
                )
            )
    for n, (_, sample_id, role, reviewer, _) in enumerate(todo):
        try:
            check_role(store, sample_id, role, reviewer)
        except Exception as exc:
            raise InputError(str(exc), path=path, record=str(n + 1), field="reviewer") from None
    with store.transaction():
        for item, sample_id, role, reviewer, lab in todo:
            lab = lab.check()
            store.execute(
                "review/22_save_label.sql",
                {
                    "sample_id": sample_id,
                    "role": role,
                    "reviewer": reviewer,
                    "label": lab.label,
                    "bucket": lab.bucket,
                    "note": lab.note,
                    **item,
                },
            )
    return len(todo)
