"""`toolex index` and `toolex retrieve`: build the vector index, produce retrieval runs."""

from __future__ import annotations

from pathlib import Path

import click

from toolex.cli.options import (
    benchmark_option,
    db_option,
    emit_rows,
    expansion_option,
    format_option,
    open_store,
    scope_option,
)

RETRIEVER_HELP = (
    "bm25 | wordllama | fastembed[:<model>[@<local-folder>]] | hybrid:<a>+<b> "
    "(RRF of both, e.g. hybrid:bm25+wordllama)."
)


@click.command()
@db_option
@format_option
@benchmark_option("Benchmark name.", required=False, default="toolret", show_default=True)
@click.option("--retriever", required=True, help=RETRIEVER_HELP)
@click.option(
    "--rendering",
    default="default",
    show_default=True,
    help="Documentation rendering to index ('default' = items.text, else item_docs).",
)
def index(db: str, fmt: str, benchmark: str, retriever: str, rendering: str) -> None:  # fmt: skip
    """Build or refresh the vector index of a benchmark's library for one embedder.

    Embeddings are cached by content hash, so an unchanged library embeds nothing and a changed
    item is embedded alone; the counts are printed. BM25 needs no stored index.

    \b
    Example:
      toolex index --benchmark toolret --retriever wordllama
      toolex index --retriever \\
        fastembed:sentence-transformers/all-MiniLM-L6-v2@../shared/models/all-MiniLM-L6-v2-onnx-int8
    """
    from toolex.retrieval import make_retriever
    from toolex.retrieval.texts import load_library

    store = open_store(db)
    r = make_retriever(retriever)
    library = load_library(store, benchmark, rendering)
    parts = getattr(r, "parts", [r])
    rows = []
    for part in parts:
        if part.kind == "bm25":
            rows.append(_row(part.spec, len(library), 0, 0, "none (built per search)", False))
            continue
        info = part.build(store, library)
        index_kind = "ivf_hnsw_sq" if info.ann else "flat"
        s = info.stats
        rows.append(_row(part.spec, info.rows, s.embedded, s.cached, index_kind, info.rebuilt))
        click.echo(
            f"{part.spec}: {info.stats.embedded} embedded, {info.stats.cached} from the cache, "
            f"table {info.table} {'rewritten' if info.rebuilt else 'unchanged'}",
            err=True,
        )
    emit_rows(rows, fmt, title=f"index of {benchmark}")


def _row(spec: str, items: int, embedded: int, cached: int, kind: str, rebuilt: bool) -> dict:
    return {"retriever": spec, "items": items, "embedded": embedded, "cached": cached,
            "index": kind, "rebuilt": rebuilt}  # fmt: skip


@click.command()
@db_option
@format_option
@benchmark_option("Benchmark name.", required=False, default="toolret", show_default=True)
@click.option("--retriever", required=True, help=RETRIEVER_HELP)
@click.option("--run", "run_id", required=True, help="Name of the run to write (unique).")
@click.option(
    "--level",
    type=click.Choice(["query", "subquery"]),
    default="query",
    show_default=True,
    help="Whole queries, or each sub-query fused with RRF (k=60).",
)
@scope_option(
    "Library searched: the query's task, category, or all; auto = task when the items "
    "have tasks, else all.",
)
@click.option(
    "--k",
    type=int,
    default=None,
    help="Results per query (query level, default 100) or per sub-query (default 20).",
)
@click.option(
    "--instruction/--no-instruction",
    default=False,
    show_default=True,
    help="Prepend the query's instruction (ToolRet's is_inst).",
)
@click.option(
    "--rendering", default="default", show_default=True, help="Documentation rendering searched."
)
@expansion_option("Expansion whose sub-queries are used (sub-query level).")
@click.option(
    "--subqueries",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Import sub-queries (JSONL/Parquet: query_id, slot, text) first.",
)
@click.option("--replace", is_flag=True, help="Overwrite an existing run of the same name.")
def retrieve(
    db: str, fmt: str, benchmark: str, retriever: str, run_id: str, level: str, scope: str,
    k: int | None, instruction: bool, rendering: str, expansion: str, subqueries: Path | None,
    replace: bool,
) -> None:  # fmt: skip
    """Run a retriever over a benchmark's queries (or sub-queries) and store the run.

    The run records everything needed to reproduce it (model, rendering and its version,
    instruction use, K, scope, package versions, benchmark revision); score it with `toolex eval`.

    \b
    Examples:
      toolex retrieve --benchmark toolret --retriever bm25 --run bm25
      toolex retrieve --retriever wordllama --run wl-inst --instruction --k 100
      toolex retrieve --retriever hybrid:bm25+wordllama --run hy-sub --level subquery
      toolex retrieve --retriever bm25 --run bm25-sub --level subquery --subqueries subq.jsonl
    """
    from toolex.retrieval.runs import retrieve_run

    store = open_store(db)
    if subqueries is not None:
        from toolex.imports.subqueries import import_subqueries

        done = import_subqueries(store, subqueries, benchmark=benchmark, expansion=expansion)
        click.echo(done.summary(), err=True)
    row = retrieve_run(
        store, benchmark, retriever, run_id, level=level, scope=scope, k=k,
        instruction=instruction, rendering=rendering, expansion=expansion, replace=replace,
    )  # fmt: skip
    emit_rows([row], fmt, title="run written")
