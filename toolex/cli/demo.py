"""`toolex demo`: the whole method on the bundled StableToolBench sample, offline, in < 1 min.

Load the sample (300 queries), index it, expand its annotation with the offline heuristic judge,
retrieve with BM25 and WordLlama at query and sub-query level, and print the annotation table and
old/new scores. Every step is idempotent, so a rerun reuses what the store already holds.
"""

from __future__ import annotations

import gc
import textwrap
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from toolex.cli.options import emit_rows, format_option, open_store, wide_option
from toolex.collector import collector_paused

if TYPE_CHECKING:
    from toolex.store import Store

BENCHMARK = "sample"
RETRIEVERS = ("bm25", "wordllama")


# The cyclic collector runs only at _settle's points for the demo's length. Its automatic
# collections came every 700 net allocations: 428 young, 38 middle and 2 full ones in a demo
# besides the settles' three (0.33-0.38 CPU-s of collections in all, of a 4.8-5.2 CPU-s run_demo
# at load 8), each walking objects that reference counting frees moments later (the judges'
# memos, rows) or that live as long as the process (the modules). Paused, the three settles find
# what cycles there are (0.18-0.21 CPU-s) and the demo's peak memory is the same (591-603 MB
# either way). The collector's state is put back after, however the demo ends.
@collector_paused()
def run_demo(
    store: Store,
    *,
    retrievers: tuple[str, ...] = RETRIEVERS,
    subquery_level: bool = True,
    say: Callable[[str], None] = lambda s: None,
) -> dict[str, Any]:
    """Run the demo on ``store``; returns timings, the annotation table (typed rows) and the
    main table."""
    from toolex.judges.heuristic import HeuristicJudge
    from toolex.loaders import load_stabletoolbench
    from toolex.metrics import summary
    from toolex.pipeline.runner import run_expansion
    from toolex.pipeline.stats import annotation_rows
    from toolex.reports.main_table import main_table_rows
    from toolex.resources import data_path
    from toolex.retrieval import make_retriever
    from toolex.retrieval.runs import retrieve_run
    from toolex.retrieval.texts import load_library
    from toolex.runs import list_runs

    _settle()
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[name] = round(now - clock, 2)
        clock = now
        say(f"{name}: {timings[name]:.1f} s")

    load_stabletoolbench(store, data_path("sample"), name=BENCHMARK)
    lap("load")
    library = load_library(store, BENCHMARK)
    for retriever in retrievers:
        # dense models embed the library once here; BM25 builds its statistics per search
        make_retriever(retriever).build(store, library)
    _settle()  # lancedb, WordLlama and the library's vectors: loaded for the process
    lap("index")
    run_expansion(store, BENCHMARK, HeuristicJudge(store, benchmark=BENCHMARK))
    lap("expand (heuristic judge)")
    existing = {r.run for r in list_runs(store, BENCHMARK)}
    run_ids = []
    levels = ("query", "subquery") if subquery_level else ("query",)
    for retriever in retrievers:
        for level in levels:
            run_id = run_name(retriever, level)
            run_ids.append(run_id)
            if run_id not in existing:
                # The sample's library is pooled (StableToolBench has no per-task libraries).
                retrieve_run(
                    store,
                    BENCHMARK,
                    retriever,
                    run_id,
                    level=level,
                    scope="benchmark",
                    depth=20 if level == "subquery" else 100,
                )
        lap(f"retrieve {retriever}")
    out = {
        "timings": timings,
        "seconds": round(sum(timings.values()), 1),
        "annotation": annotation_rows(store, BENCHMARK, by="category"),
        "results": [r.printed() for r in main_table_rows(store, summary(store, run_ids, ks=(10,)))],
    }
    _settle()
    return out


def _settle() -> None:
    """Collect the garbage so far, then set what survived aside from the cyclic collector.

    The demo loads some 1,200 modules (lancedb, pandas through pyarrow.dataset, pydantic,
    WordLlama) whose objects live as long as the process, and each full collection traversed
    them all again, the interpreter's own at exit included: 0.55-0.6 CPU-s of collections in
    the run and 0.6 at exit (load 10-13), freeing next to nothing. ``gc.freeze`` moves the
    objects alive now out of the collector's sight (0.35 and 0.1 CPU-s with it, these
    collections included). It runs after a collection, so nothing already garbage is kept;
    the objects it sets aside are still freed when their last reference goes, and only a
    cycle they form later waits for the process's end.
    """
    gc.collect()
    gc.freeze()


def run_name(retriever: str, level: str) -> str:
    """The demo's run of ``retriever`` at ``level``, stored and printed under this one name (the
    demo's store is its own: no prefix is needed to tell its runs from others)."""
    return f"{retriever}-{level}"


@click.command(short_help="Run toolex end to end on a bundled sample, offline.")
@click.option(
    "--db",
    default="toolex-demo.duckdb",
    show_default=True,
    type=click.Path(dir_okay=False),
    help="Store to build the demo in (reused, and left for `toolex tui`).",
)
@format_option
@wide_option
@click.option("--no-subqueries", is_flag=True, help="Query level only (faster).")
def demo(db: str, fmt: str, wide: bool, no_subqueries: bool) -> None:
    """Run toolex end to end on a bundled sample of StableToolBench, offline.

    Loads 300 real queries and their 1,000+ tools, expands the one-combination ground truth with
    the offline heuristic judge (no LLM), scores BM25 and WordLlama old (original label) vs new
    (expanded), and prints the annotation table, the scores and the time taken. The tables fit
    an 80-column terminal (the annotation table's main columns; --wide prints every column,
    --format csv|json carries them all). Runs are printed under the names they are stored
    with (`toolex eval --db toolex-demo.duckdb --run bm25-query`); † marks the
    oracle-assisted (sub-query-level) runs, and a note under the scores says what that means.

    \b
    Example:
      toolex demo
      toolex demo --db /tmp/demo.duckdb --format json
    """
    started = time.perf_counter()
    store = open_store(db)
    out = run_demo(
        store, subquery_level=not no_subqueries, say=lambda s: click.echo(f"  {s}", err=True)
    )
    from toolex.cli.stats import ANNOTATION_SHOWN
    from toolex.reports.provenance import ORACLE_MARK, ORACLE_NOTE

    title = "annotation (heuristic judge) of the sample"
    annotation = [r._asdict() for r in out["annotation"]]
    emit_rows(annotation, fmt, title=title, shown=ANNOTATION_SHOWN, wide=wide)
    scores = compact(out["results"])
    emit_rows(
        scores,
        fmt,
        title="old vs new @10, all queries (new = best over the valid combinations)",
    )
    if any(str(r["run"]).endswith(ORACLE_MARK) for r in scores):
        # under the table it marks; beside CSV or JSON on stdout it would be read as data
        for line in textwrap.wrap(ORACLE_NOTE, 80):
            click.echo(line, err=fmt != "table")
    total = time.perf_counter() - started
    click.echo(f"demo finished in {total:.1f} s; explore the store it left with", err=True)
    click.echo(f"  toolex tui --db {db}", err=True)


def compact(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The 'all' rows of the main table, narrow enough for an 80-column terminal; † marks the
    oracle-assisted (sub-query-level) runs, as every score table does."""
    from toolex.reports.provenance import run_label

    out = []
    for r in rows:
        if r.get("category") != "all":
            continue
        row: dict[str, Any] = {"run": run_label(r["run_id"], bool(r.get("oracle")))}
        for m, label in (("ndcg", "nDCG"), ("recall", "R"), ("comp", "Comp")):
            row[f"{label} old"] = round(r[f"{m}_old"], 3)
            row[f"{label} new"] = round(r[f"{m}_new"], 3)
        out.append(row)
    return out
