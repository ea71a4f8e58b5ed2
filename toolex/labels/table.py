"""The ``labels`` table: the one writer of verdict labels, and their readers.

Labels arrive two ways, both written here:

- an import reads the whole file, checks every record against the store (benchmark, query,
  items, the reference being a ground-truth item of the query, its slot), and only when the
  whole file is sound writes it in one transaction. A source is a label set: importing a source
  again replaces every label it held (in every benchmark), so a corrected file is simply
  imported again;
- a verdict-level review (toolex.review.publish) settles one item at a time: each final label is
  written with :func:`replace_label`, and one that is no longer final is taken back with
  :func:`remove_label`, inside the transaction that saves the reviewer's label.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from toolex.errors import InputError, NotFoundError, ToolexError
from toolex.labels import queries
from toolex.labels.queries import LabelProblem, LabelSet
from toolex.labels.records import (
    FIELDS,
    SHIPPED_LOADS,
    SHIPPED_SETS,
    Label,
    LabelErrors,
    LabelKey,
    read_labels,
    write_labels,
)
from toolex.loaders.fields import Where
from toolex.store import Store

NEW_LABELS = pa.schema(
    [
        ("line", pa.int64()),
        ("benchmark", pa.string()),
        ("query_id", pa.string()),
        ("slot", pa.int32()),
        ("subquery", pa.string()),
        ("reference", pa.string()),
        ("candidate", pa.string()),
        ("label", pa.string()),
        ("labeller", pa.string()),
        ("note", pa.string()),
        ("source", pa.string()),
        ("stratum", pa.string()),  # JSON text
    ]
)


@dataclass
class LabelImport:
    path: str
    labels: int
    yes: int
    replaced: dict[str, int]  # source -> labels it held before this import
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        sources = ", ".join(sorted(self.replaced))
        text = (
            f"imported {self.labels} labels ({self.yes} yes, {self.labels - self.yes} no) "
            f"of source {sources} from {self.path}"
        )
        old = {s: n for s, n in self.replaced.items() if n}
        if old:
            text += "; replaced " + ", ".join(f"{n} earlier labels of {s}" for s, n in old.items())
        return text


def shipped_requirements(store: Store) -> None:
    """The shipped set needs toolret and stabletoolbench loaded: say how, naming both loads."""
    missing = [b for b in SHIPPED_LOADS if b not in store.benchmarks()]
    if missing:
        raise ToolexError(
            "the shipped verdict labels need the benchmarks "
            + " and ".join(repr(b) for b in SHIPPED_LOADS)
            + f" in the store ({', '.join(missing)} missing); load them with\n  "
            + "\n  ".join(SHIPPED_LOADS[b] for b in missing)
        )


def checked_labels(
    store: Store,
    path: str | Path,
    *,
    source: str | None = None,
    benchmark: str | None = None,
    fmt: str | None = None,
) -> tuple[list[Label], list[str]]:
    """The labels of a file, every one checked against the store (see :func:`read_labels` for
    ``source`` and ``benchmark``); raises :class:`LabelErrors` listing every problem."""
    if Path(path).resolve() in {p.resolve() for p in SHIPPED_SETS}:
        shipped_requirements(store)
    read, notes = read_labels(path, source=source, benchmark=benchmark, fmt=fmt)
    errors = _store_problems(store, read)
    if errors:
        raise LabelErrors(str(path), errors)
    return [label for label, _ in read], notes


def import_labels(
    store: Store,
    path: str | Path,
    *,
    source: str | None = None,
    benchmark: str | None = None,
    fmt: str | None = None,
) -> LabelImport:
    """Check the whole file, then replace its sources' labels in one transaction."""
    labels, notes = checked_labels(store, path, source=source, benchmark=benchmark, fmt=fmt)
    with store.registered("new_labels", _arrow([(label, None) for label in labels])):
        replaced = {r.source: int(r.stored) for r in queries.source_counts(store)}
        with store.transaction():
            store.execute("labels/21_delete_sources.sql")
            store.execute("labels/22_insert_labels.sql")
    yes = sum(label.label == "yes" for label in labels)
    return LabelImport(str(path), len(labels), yes, replaced, notes)


def replace_label(store: Store, label: Label) -> None:
    """Write one label (labelled now), replacing what its source held under the same key. Runs
    inside the caller's transaction: a review publishes a final label with the label that
    settles it."""
    store.execute(
        "labels/23_replace_label.sql",
        {
            **{f: getattr(label, f) for f in FIELDS if f != "stratum"},
            # ASCII-escaped JSON, as published review labels have always been stored (an import
            # keeps non-ASCII text as is: _arrow)
            "stratum": json.dumps(label.stratum) if label.stratum else None,
        },
    )


def remove_label(store: Store, key: LabelKey) -> None:
    """Delete the label of ``key`` if there is one (inside the caller's transaction)."""
    store.execute("labels/24_remove_label.sql", key._asdict())


def stored_labels(
    store: Store, source: str | None = None, benchmark: str | None = None
) -> list[Label]:
    """The labels in the store (of ``source`` and ``benchmark`` when given)."""
    rows = queries.stored_label_rows(store, source, benchmark)
    return [
        Label(**{**r._asdict(), "stratum": json.loads(r.stratum) if r.stratum else None})
        for r in rows
    ]


def sources(store: Store) -> list[str]:
    """The label sources in the store, sorted."""
    return sorted({r.source for r in label_summary(store)})


def require_source(store: Store, source: str | None) -> str | None:
    """``source`` when the store holds it; with None, the only source (None when there is none).

    Several sources and none named is an error listing them (the Store's 'did you mean' wording).
    """
    known = sources(store)
    if source is None:
        if len(known) > 1:
            raise NotFoundError(
                "label source", "", known, "the store holds several; name one with --source"
            )
        return known[0] if known else None
    if source not in known:
        raise NotFoundError(
            "label source", source, known, "import one with `toolex labels import FILE`"
        )
    return source


def label_summary(store: Store) -> list[LabelSet]:
    """Per source and benchmark: labels, yes, no, queries, labellers, last labelled."""
    return queries.label_summary(store)


def export_labels(
    store: Store,
    path: str | Path,
    *,
    source: str | None = None,
    benchmark: str | None = None,
    fmt: str | None = None,
) -> int:
    """Write the stored labels (of ``source``/``benchmark``) to a JSONL or CSV file."""
    if source is not None:
        require_source(store, source)
    labels = stored_labels(store, source, benchmark)
    if not labels:
        raise ToolexError(
            "no labels to export"
            + (f" of benchmark {benchmark!r}" if benchmark else "")
            + "; import some with `toolex labels import FILE`"
        )
    return write_labels(path, labels, fmt)


# -- checks against the store ------------------------------------------------------------------


def _store_problems(store: Store, read: Sequence[tuple[Label, Where]]) -> list[InputError]:
    errors: list[InputError] = []
    known: dict[str, str | None] = {}  # benchmark -> why it is unknown (None: stored)
    for bench in sorted({label.benchmark for label, _ in read}):
        try:
            store.require_benchmark(bench)
            known[bench] = None
        except NotFoundError as exc:
            known[bench] = str(exc)
    sound: list[tuple[Label, Where]] = []
    for label, where in read:
        problem = known[label.benchmark]
        if problem:
            errors.append(where.error(problem, "benchmark"))
        else:
            sound.append((label, where))
    at = {where.line: (label, where) for label, where in sound}  # one record per line
    with store.registered("new_labels", _arrow(sound)):
        for found in queries.label_problems(store):
            errors.append(_problem(found, *at[found.line]))
    return sorted(errors, key=lambda e: e.line or 0)


def _problem(found: LabelProblem, label: Label, where: Where) -> InputError:
    bench = label.benchmark
    if not found.query_known:
        return where.error(f"no query {label.query_id!r} in benchmark {bench!r}", "query_id")
    if not found.reference_known:
        return where.error(f"no item {label.reference!r} in benchmark {bench!r}", "reference")
    if not found.candidate_known:
        return where.error(f"no item {label.candidate!r} in benchmark {bench!r}", "candidate")
    gt = ", ".join(found.gt_items or [])
    if found.gt_slot is None:
        return where.error(
            f"{label.reference!r} is not a ground-truth item of query {label.query_id!r} "
            f"(its ground truth: {gt})",
            "reference",
        )
    return where.error(
        f"slot {label.slot} is not the reference's slot: {label.reference!r} is slot "
        f"{found.gt_slot} of query {label.query_id!r}",
        "slot",
    )


def _arrow(labels: Sequence[tuple[Label, Where | None]]) -> pa.Table:
    """Labels as the registered ``new_labels`` table (stratum as JSON text)."""
    rows = []
    for label, where in labels:
        row = label.record()
        row["stratum"] = json.dumps(row["stratum"], ensure_ascii=False) if row["stratum"] else None
        row["line"] = where.line if where else None
        rows.append(row)
    return pa.Table.from_pylist(rows, schema=NEW_LABELS)
