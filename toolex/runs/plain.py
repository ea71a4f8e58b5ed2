"""Plain TREC files scored in place (``toolex eval --run-file R --qrels-file Q``), read by DuckDB
straight into connection-local stand-ins of only the tables the metric SQL reads, in a store with
no schema (:meth:`Store.scratch`): no Arrow, no numpy, no benchmark object, no schema to create.

A file is plain when every non-blank line holds printable ASCII fields separated by spaces, tabs
or carriage returns, with no ``%`` (no id to percent-decode, no character ``str.split()`` splits
on that DuckDB does not): qrels lines ``qid iter docid relevance`` (a whole relevance, no pair
judged twice, no header), run lines ``qid Q0 docid rank score tag`` (a score of trec_eval's
grammar, finite, no item listed twice for a query), neither file empty. :func:`plain_scoring`
returns None for any other file (the SQL files 62 and 65 of ``sql/runs/`` say which lines are
not plain), and the caller (:mod:`toolex.runs.direct`) takes the reference path, the one reader
and writer of every run and qrels file: the same rows, the same notes, and the same first
error naming file, line and field. On plain files both paths store the same rows in the same
order (``tests/runs/test_plain.py`` compares the tables and the scores).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from toolex.runs.notes import skipped_note
from toolex.store import Store
from toolex.store.duck import duckdb

# What DuckDB's read_text would expand in a path (a glob) instead of reading the file named.
_GLOB = frozenset("*?[]{}")
# Past this size a file goes the reference way: DuckDB splits lines at about 0.028 CPU-s a MB
# where the reference reader takes 0.011, so its 0.25 CPU-s of imports and schema saved are
# spent by 15 MB (a 41 MB run: 1.62 CPU-s here, 1.19 there); 8 MB keeps to the side that gains.
MAX_BYTES = 8 << 20
# The runs row of an imported query-level TREC run (toolex.runs.imports._params).
_PARAMS = json.dumps({"format": "trec", "imported": True}, sort_keys=True)


class LinesCheck(NamedTuple):
    """Whether a qrels file's lines are plain enough for the SQL path (runs/65): its lines,
    those the SQL would read otherwise than the reference reader, and repeated pairs."""

    rows: int
    odd: int
    repeated: int


class RunLinesCheck(NamedTuple):
    """The same of a run file (runs/62), with its lines and queries the benchmark lacks."""

    rows: int
    odd: int
    repeated: int
    unknown_rows: int
    unknown_queries: int


def plain_scoring(
    qrels_file: str | Path,
    run_files: Sequence[str | Path],
    run_ids: Sequence[str],
    benchmark: str,
) -> tuple[Store, list[str]] | None:
    """(store, notes) with the qrels file as ``benchmark`` and each run file as the run of
    ``run_ids`` at its place; None, with nothing left open, when a file is not plain."""
    store = Store.scratch()
    try:
        scored = _fill(store, qrels_file, run_files, run_ids, benchmark)
    except BaseException:
        store.close()
        raise
    if scored is None:
        store.close()
        return None
    return store, scored


def _fill(
    store: Store,
    qrels_file: str | Path,
    run_files: Sequence[str | Path],
    run_ids: Sequence[str],
    benchmark: str,
) -> list[str] | None:
    if not _lines(store, qrels_file):
        return None
    check = store.typed("runs/65_plain_qrels_check.sql", LinesCheck)[0]
    if not check.rows or check.odd or check.repeated:
        return None
    ids = {"benchmark": benchmark}
    store.execute(
        "runs/66_plain_benchmarks.sql", ids | {"format": "qrels", "source": str(qrels_file)}
    )
    store.execute("runs/67_plain_queries.sql", ids)
    store.execute("runs/68_plain_qrels.sql", ids)
    store.execute_script("runs/60_plain_stand_ins.sql")
    notes = []
    for path, run_id in zip(run_files, run_ids, strict=True):
        if not _lines(store, path):
            return None
        run_check = store.typed("runs/62_plain_run_check.sql", RunLinesCheck, ids)[0]
        if not run_check.rows or run_check.odd or run_check.repeated:
            return None
        if run_check.unknown_rows:
            notes.append(
                f"{run_id}: {skipped_note(run_check.unknown_rows, run_check.unknown_queries)}"
            )
        run = ids | {"run_id": run_id}
        store.execute(
            "runs/63_plain_insert_run.sql", run | {"source": str(path), "params": _PARAMS}
        )
        store.execute("runs/64_plain_insert_run_results.sql", run)
    return notes


def _lines(store: Store, path: str | Path) -> bool:
    """Read the file's lines into plain_lines; False when DuckDB cannot read it as text (not
    UTF-8, not a regular file, a name it would take for a glob: the reference reader says why)
    or would read it slower than the reference reader (past MAX_BYTES)."""
    real = Path(path).resolve()  # absolute: no "~" or URL for DuckDB to interpret
    if not real.is_file() or _GLOB & set(str(real)) or real.stat().st_size > MAX_BYTES:
        return False
    try:
        store.execute("runs/61_plain_lines.sql", {"path": str(real)})
    except duckdb.Error:
        return False
    return True
