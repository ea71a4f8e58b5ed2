"""Score run files without loading a benchmark first (``toolex eval --run-file``), as trec_eval
and ranx do: against a qrels file, or against a stored benchmark and its expansion.

Nothing is written to any store file:

* with a qrels file (BEIR TSV or TREC qrels), the labels become a benchmark named ``qrels`` in a
  store in memory, one query per judged query id and one item per judged id;
* with a stored benchmark, the store is opened read-only and the runs go to connection-local
  TEMP tables that stand in for ``runs``, ``run_results`` and ``subquery_results``
  (``sql/runs/50_direct_tables.sql``), so the metric SQL sees only these runs while it reads the
  benchmark's labels and the expansion's combinations from the file.

Either way the files go through the one reader and writer of runs (:mod:`toolex.runs.imports`),
so they are ranked and checked exactly like ``toolex runs import``; results for query ids the
labels do not judge are dropped and counted, as trec_eval ignores them. One shortcut gives the
same rows: plain TREC files scored against a qrels file (ASCII ids, nothing to merge, decode or
refuse: nearly every such call) are read by DuckDB straight into stand-ins of only the tables
the metric SQL reads (:mod:`toolex.runs.plain`), without the readers' Arrow and numpy.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from toolex.errors import InputError
from toolex.runs.format_names import resolve_format

if TYPE_CHECKING:
    from toolex.loaders.benchmark import Benchmark
    from toolex.store import Store

QRELS_BENCHMARK = "qrels"


@dataclass
class DirectScoring:
    """The store to score in, the run ids the files became, and what was merged or dropped."""

    store: Store
    benchmark: str
    run_ids: list[str]
    notes: list[str] = field(default_factory=list)


@contextlib.contextmanager
def direct_scoring(
    run_files: Sequence[str | Path],
    *,
    qrels_file: str | Path | None = None,
    db: str | Path | None = None,
    benchmark: str | None = None,
    fmt: str = "auto",
) -> Iterator[DirectScoring]:
    """Open the store the run files are scored in (see the module docstring); closed after."""
    if not run_files:
        raise InputError("give at least one run file")
    if qrels_file is not None and all(resolve_format(Path(p), fmt) == "trec" for p in run_files):
        from toolex.runs.plain import plain_scoring

        run_ids = _run_names(run_files)
        plain = plain_scoring(qrels_file, run_files, run_ids, QRELS_BENCHMARK)
        if plain is not None:
            store, notes = plain
            try:
                yield DirectScoring(store, QRELS_BENCHMARK, run_ids, notes)
            finally:
                store.close()
            return
    with _reference_scoring(run_files, qrels_file, db, benchmark, fmt) as scoring:
        yield scoring


@contextlib.contextmanager
def _reference_scoring(
    run_files: Sequence[str | Path],
    qrels_file: str | Path | None,
    db: str | Path | None,
    benchmark: str | None,
    fmt: str,
) -> Iterator[DirectScoring]:
    """Every file through the one reader and writer of runs and labels (the module docstring)."""
    from toolex.loaders.write import write_benchmark
    from toolex.runs.imports import import_run
    from toolex.store import Store

    notes: list[str] = []
    if qrels_file is not None:
        store = Store.memory()
        bench, qrels_note = qrels_benchmark(qrels_file)
        notes += [qrels_note] if qrels_note else []
        write_benchmark(store, bench)
        benchmark = bench.name
    else:
        if db is None:
            raise InputError("give a qrels file, or a store and one of its benchmarks")
        store = Store.open(db, read_only=True)
    try:
        benchmark = store.require_benchmark(benchmark)
        if qrels_file is None:
            store.execute_script("runs/50_direct_tables.sql")
        run_ids = _run_names(run_files)
        for path, run_id in zip(run_files, run_ids, strict=True):
            done = import_run(
                store, path, run=run_id, benchmark=benchmark, fmt=fmt, skip_unknown=True
            )
            notes += [
                f"{run_id}: {note}"
                for note in done.notes
                if qrels_file is None or "not in the library" not in note
            ]
        yield DirectScoring(store, benchmark, run_ids, notes)
    finally:
        store.close()


def qrels_benchmark(path: str | Path) -> tuple[Benchmark, str | None]:
    """The labels of a qrels file as a benchmark (ids only): every judged query, every judged
    item; relevance <= 0 is kept as judged non-relevant, so a query with no relevant item is
    still scored (0), as trec_eval does."""
    from toolex.loaders.beir import read_qrels
    from toolex.loaders.benchmark import Benchmark
    from toolex.loaders.fields import Where

    qrels = read_qrels(path)
    bench = Benchmark(QRELS_BENCHMARK, "qrels", str(path), qrel_field="corpus-id")
    slots: dict[str, int] = {}
    for j in qrels.judgments:
        where = Where(str(path), j.line, j.query_id, what="query id")
        if j.query_id not in slots:
            bench.add_query({"query_id": j.query_id, "text": j.query_id}, where)
        if not bench.has_item(j.item_id):
            bench.add_item(_stub_item(j.item_id), where)
        slot = slots.get(j.query_id, 0)
        slots[j.query_id] = slot + 1
        bench.add_qrel(j.query_id, j.item_id, j.relevance, slot, where)
    for query in bench.queries:
        query.update({"task": None, "category": None, "instruction": None})
    return bench, qrels.note()


def _stub_item(item_id: str) -> dict[str, str | None]:
    return {
        "item_id": item_id,
        "kind": "tool",
        "name": None,
        "platform": None,
        "task": None,
        "category": None,
        "doc": '{"id": null}',
        "text": item_id,
    }


def _run_names(paths: Sequence[str | Path]) -> list[str]:
    """The runs' names: each file's name without its suffix, made unique in order."""
    taken: list[str] = []
    for path in paths:
        base = Path(path).name.split(".")[0] or "run"
        name, n = base, 2
        while name in taken:
            name, n = f"{base}-{n}", n + 1
        taken.append(name)
    return taken
