"""`toolex index` and `toolex retrieve`: build the vector index, produce retrieval runs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from toolex.cli.options import (
    NAME,
    benchmark_option,
    db_option,
    deprecated_k,
    emit_rows,
    expansion_option,
    format_option,
    open_store,
    option_group,
    scope_option,
)
from toolex.cli.progress import interruptible
from toolex.runs import LEVELS, RRF_K

if TYPE_CHECKING:
    from toolex.retrieval.base import IndexInfo

# What Ctrl-C or SIGTERM keeps of an embedding run (toolex.retrieval.embedding_cache).
KEPT = (
    "every embedding that came back is in the cache (and every call in the ledger), so a re-run "
    "embeds only what is left"
)
RETRIEVER_HELP = (
    "bm25 | wordllama | fastembed[:<model>[@<local-folder>]] | openai-embed:<model> | "
    "compat-embed:<base_url>#<model> (an OpenAI-compatible /v1/embeddings: vLLM, TEI, Ollama, "
    "llama.cpp) | hybrid:<a>+<b> (RRF of both, e.g. hybrid:bm25+wordllama)."
)


def _spec(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """--retriever checked before the store is opened: an unknown spec is refused with every
    form listed (toolex.retrieval.search.check_spec)."""
    from toolex.errors import InputError
    from toolex.retrieval.search import check_spec

    try:
        return check_spec(value)
    except InputError as exc:
        raise click.BadParameter(exc.message) from None


@click.command(short_help="Build or refresh the vector index of a library.")
@db_option
@format_option
@benchmark_option("Benchmark name.", required=False, default="toolret", show_default=True)
@click.option("--retriever", required=True, help=RETRIEVER_HELP, callback=_spec)
@click.option(
    "--rendering",
    default="default",
    show_default=True,
    help="Documentation rendering to index ('default' = items.text, else item_docs).",
)
def index(db: str, fmt: str, benchmark: str, retriever: str, rendering: str) -> None:
    """Build or refresh the vector index of a benchmark's library for one embedder.

    Embeddings are cached by content hash, so an unchanged library embeds nothing and a changed
    item is embedded alone; the counts are printed. BM25 needs no stored index.

    \b
    Example:
      toolex index --benchmark toolret --retriever wordllama
      toolex index --retriever \\
          fastembed:sentence-transformers/all-MiniLM-L6-v2@models/all-MiniLM-L6-v2
    """
    from toolex.retrieval import make_retriever
    from toolex.retrieval.texts import fallback_note, load_library

    store = open_store(db)
    library = load_library(store, benchmark, rendering)
    note = fallback_note(library)
    if note:
        click.echo(f"note: {note}", err=True)
    rows = []
    with interruptible(f"interrupted: the index was not rebuilt; {KEPT}"):
        for info in make_retriever(retriever).build(store, library):
            rows.append(_row(info))
            if info.table is not None:
                click.echo(
                    f"{info.spec}: {info.stats.embedded} embedded, {info.stats.cached} from the "
                    f"cache, table {info.table} {'rewritten' if info.rebuilt else 'unchanged'}",
                    err=True,
                )
    emit_rows(rows, fmt, title=f"index of {benchmark}")


def _row(info: IndexInfo) -> dict[str, object]:
    s = info.stats
    return {
        "retriever": info.spec,
        "items": info.rows,
        "embedded": s.embedded,
        "cached": s.cached,
        "index": info.index,
        "rebuilt": info.rebuilt,
    }


@dataclass(frozen=True)
class RetrieveRun:
    """The run to make: the retriever and the run's name, what it searches (whole queries or
    sub-queries, of which expansion, imported from which file first), in which library and
    rendering, how deep, and whether it overwrites a run of that name."""

    retriever: str
    run_id: str
    level: str
    scope: str
    depth: int | None
    old_k: int | None
    instruction: bool
    rendering: str
    expansion: str
    subqueries: Path | None
    replace: bool


@click.command(short_help="Run a retriever over a benchmark's queries or sub-queries.")
@db_option
@format_option
@benchmark_option("Benchmark name.", required=False, default="toolret", show_default=True)
@option_group(
    "run",
    [
        click.option("--retriever", required=True, help=RETRIEVER_HELP, callback=_spec),
        click.option(
            "--run", "run_id", required=True, type=NAME, help="Name of the run to write (unique)."
        ),
        click.option(
            "--level",
            type=click.Choice(LEVELS),
            default="query",
            show_default=True,
            help="Whole queries, or each sub-query, the lists of a query fused with RRF "
            f"(k={RRF_K}), keeping every item.",
        ),
        scope_option(
            "Library searched: the whole benchmark (default; ToolRet's pooled corpus, as the "
            "paper scores retrievers), the query's task or category, or auto (task when the "
            "items have tasks).",
        ),
        click.option(
            "--depth",
            type=click.IntRange(1),
            default=None,
            help="Results kept per query (query level, default 100) or per sub-query (default 20).",
        ),
        click.option("--k", "old_k", type=click.IntRange(1), default=None, hidden=True),
        click.option(
            "--instruction/--no-instruction",
            default=False,
            show_default=True,
            help="Prepend the query's instruction (ToolRet's is_inst).",
        ),
        click.option(
            "--rendering",
            default="default",
            show_default=True,
            help="Documentation rendering searched.",
        ),
        expansion_option("Expansion whose sub-queries are used (sub-query level).", new=True),
        click.option(
            "--subqueries",
            type=click.Path(exists=True, dir_okay=False, path_type=Path),
            default=None,
            help="Import sub-queries (JSONL/Parquet: query_id, slot, text) first.",
        ),
        click.option("--replace", is_flag=True, help="Overwrite an existing run of the same name."),
    ],
    RetrieveRun,
)
def retrieve(db: str, fmt: str, benchmark: str, run: RetrieveRun) -> None:
    """Run a retriever over a benchmark's queries (or sub-queries) and store the run.

    The run records everything needed to reproduce it (model, rendering and its version,
    instruction use, K, scope, package versions, benchmark revision); score it with `toolex eval`.
    Items a partial --rendering does not document are searched in their default text, counted
    on stderr and in the run's params. An endpoint retriever (openai-embed:, compat-embed:) takes
    its key from the environment (OPENAI_API_KEY, TOOLEX_COMPAT_API_KEY), embeds only what the
    cache lacks and records every call in the ledger (`toolex ledger`).

    \b
    Examples:
      toolex retrieve --benchmark toolret --retriever bm25 --run bm25
      toolex retrieve --retriever wordllama --run wl-inst --instruction \\
          --depth 100
      toolex retrieve --retriever hybrid:bm25+wordllama --run hy-sub \\
          --level subquery
      toolex retrieve --retriever bm25 --run bm25-sub --level subquery \\
          --subqueries subq.jsonl
      toolex retrieve --run qwen3 \\
        --retriever compat-embed:http://127.0.0.1:8000/v1#Qwen/Qwen3-Embedding-4B
    """
    from toolex.api.retrieve import retrieve as retrieve_run

    store = open_store(db)
    if run.subqueries is not None:
        from toolex.expansions.subqueries import import_subqueries

        done = import_subqueries(
            store, run.subqueries, benchmark=benchmark, expansion=run.expansion
        )
        click.echo(done.summary(), err=True)
    with interruptible(f"interrupted: run {run.run_id!r} was not written; {KEPT}"):
        row = retrieve_run(
            store,
            benchmark,
            run.retriever,
            run.run_id,
            level=run.level,
            scope=run.scope,
            depth=run.depth or deprecated_k(run.old_k),
            instruction=run.instruction,
            rendering=run.rendering,
            expansion=run.expansion,
            replace=run.replace,
        )
    for note in row.notes:
        click.echo(f"note: {note}", err=True)
    emit_rows([row.printed()], fmt, title="run written")
