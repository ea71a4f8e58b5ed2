"""`toolex export`: expanded qrels (Parquet), TREC qrels and runs, ToolRet-style JSONL, the
equivalence graph; ToolBench tasks and training triples (toolex.cli.export_downstream)."""

from __future__ import annotations

from dataclasses import dataclass

import click

from toolex.cli.decorating import Decorator
from toolex.cli.export_downstream import toolbench_cmd, triples_cmd
from toolex.cli.options import (
    benchmark_option,
    db_option,
    emit_rows,
    expansion_option,
    format_option,
    open_store,
    option_group,
    run_option,
)

_benchmark = benchmark_option("Benchmark to export (default: the only one).", required=False)
_expansion = expansion_option("Expansion whose combinations to export.")


@dataclass(frozen=True)
class Exported:
    """The benchmark exported (None: the store's only one) and its expansion."""

    benchmark: str | None
    expansion: str


# --benchmark and --expansion as one Exported parameter ``source``
_source = option_group("source", [_benchmark, _expansion], Exported)


def _out(suffix: str) -> Decorator:
    return click.option(
        "--out",
        required=True,
        type=click.Path(dir_okay=False),
        help=f"File to write ({suffix}); never the store or its own files (toolex.duckdb.*).",
    )


def _writable(db: str, *paths: str | None) -> None:
    """Refuse an output over the store or its files before anything is read (the export
    checks again as it writes, to a temporary file renamed into place: toolex.exports.files)."""
    from toolex.exports.files import check_output

    for path in paths:
        if path is not None:
            check_output(path, db)


@click.group("export", short_help="Export expanded labels and runs for code outside toolex.")
def export() -> None:
    """Export the expanded annotation and runs for evaluation code outside toolex.

    \b
    Examples:
      toolex export qrels --out expanded.parquet
      toolex export qrels --out flat.parquet --flat
      toolex export trec-qrels --out old.qrels
      toolex export trec-qrels --out combos.qrels --mode per-combination
      toolex export trec-run --run bm25 --out bm25.run
      toolex export toolret-jsonl --out queries.jsonl
      toolex export equivalences --out edges.parquet --graph library.graphml
      toolex export equivalences --by platform
      toolex export toolbench --benchmark stabletoolbench --out toolbench-tasks/
      toolex export triples --benchmark stabletoolbench --out triples.jsonl
    """


@dataclass(frozen=True)
class QrelsForm:
    """Which form of the expanded qrels `export qrels` writes, and which combinations count."""

    flat: bool
    valid_only: bool
    include_unaudited: bool


@export.command("qrels", short_help="Expanded qrels as Parquet, one row per query and item.")
@db_option
@_out("Parquet")
@_source
@option_group(
    "form",
    [
        click.option(
            "--flat", is_flag=True, help="One row per (query, item) instead of per member."
        ),
        click.option(
            "--valid-only", is_flag=True, help="Only valid combinations (the original always)."
        ),
        click.option(
            "--include-unaudited",
            is_flag=True,
            help="Count combinations no audit judged (cut, pending) as relevant too, marked "
            "(unaudited / unaudited_only). Default: relevance 0, left out of --flat.",
        ),
    ],
    QrelsForm,
)
def qrels_cmd(db: str, out: str, source: Exported, form: QrelsForm) -> None:
    """Expanded qrels as Parquet: one row per (query, combination, slot, item) with the
    combination's RRF score, rank and audit status/reason; --flat gives one row per (query, item).
    Only valid combinations are relevant: rejected and unaudited ones carry relevance 0.

    \b
    Example:
      toolex export qrels --out expanded.parquet --valid-only
    """
    from toolex.api.reports import export

    _writable(db, out)
    with open_store(db, read_only=True) as store:
        n = export(
            store,
            "qrels",
            out,
            benchmark=source.benchmark,
            expansion=source.expansion,
            flat=form.flat,
            valid_only=form.valid_only,
            include_unaudited=form.include_unaudited,
        )
    click.echo(f"wrote {n} rows to {out}", err=True)


@export.command("trec-qrels")
@db_option
@_out("TREC qrels")
@_benchmark
@_expansion
@click.option(
    "--mode",
    type=click.Choice(["original", "flat", "per-combination"]),
    default="original",
    show_default=True,
    help="original labels; union of valid combinations; or one pseudo-query "
    "QID#COMBO per valid combination (max over them = the new metrics).",
)
def trec_qrels_cmd(db: str, out: str, benchmark: str | None, expansion: str, mode: str) -> None:
    """TREC qrels (qid 0 docid relevance).

    \b
    Example:
      toolex export trec-qrels --out combos.qrels --mode per-combination
    """
    from toolex.api.reports import export

    _writable(db, out)
    with open_store(db, read_only=True) as store:
        n = export(store, "trec-qrels", out, benchmark=benchmark, expansion=expansion, mode=mode)
    click.echo(f"wrote {n} lines to {out}", err=True)


@export.command("trec-run")
@db_option
@_out("TREC run")
@run_option("Run to export.", required=True)
def trec_run_cmd(db: str, out: str, run_id: str) -> None:
    """A run as a TREC run file (qid Q0 docid rank score tag).

    \b
    Example:
      toolex export trec-run --run bm25 --out bm25.run
    """
    from toolex.api.reports import export

    _writable(db, out)
    with open_store(db, read_only=True) as store:
        n = export(store, "trec-run", out, run=run_id)
    click.echo(f"wrote {n} lines to {out}", err=True)


@export.command("toolret-jsonl", short_help="ToolRet-style JSONL, one query per line.")
@db_option
@_out("JSONL")
@_benchmark
@_expansion
def toolret_jsonl_cmd(db: str, out: str, benchmark: str | None, expansion: str) -> None:
    """ToolRet-style JSONL: one query per line, ToolRet's labels plus every valid combination.

    \b
    Example:
      toolex export toolret-jsonl --out queries.jsonl
    """
    from toolex.api.reports import export

    _writable(db, out)
    with open_store(db, read_only=True) as store:
        n = export(store, "toolret-jsonl", out, benchmark=benchmark, expansion=expansion)
    click.echo(f"wrote {n} queries to {out}", err=True)


@dataclass(frozen=True)
class EquivalenceFiles:
    """The files `export equivalences` writes: the edges (or provider pairs) and the graph."""

    out: str | None
    graph_path: str | None


@dataclass(frozen=True)
class EquivalenceView:
    """Edges, or the provider pairs with at least ``min_pairs`` equivalent endpoint pairs."""

    by: str
    min_pairs: int


@export.command("equivalences", short_help="The equivalence graph, as edges or a graph file.")
@db_option
@format_option
@option_group(
    "files",
    [
        click.option(
            "--out",
            type=click.Path(dir_okay=False),
            default=None,
            help="Parquet file: one row per accepted verdict (reference, candidate, sub-query, "
            "judge, confidence, reason). With --by platform: the provider pairs, as Parquet.",
        ),
        click.option(
            "--graph",
            "graph_path",
            type=click.Path(dir_okay=False),
            default=None,
            help="Also write the graph, one edge per (reference, candidate) pair: .graphml or "
            ".json (node-link).",
        ),
    ],
    EquivalenceFiles,
)
@_source
@option_group(
    "view",
    [
        click.option(
            "--by",
            type=click.Choice(["edge", "platform"]),
            default="edge",
            show_default=True,
            help="platform: which providers are redundant: provider pairs with equivalent "
            "endpoints, most first (printed unless --out).",
        ),
        click.option(
            "--min-pairs",
            type=click.IntRange(1),
            default=1,
            show_default=True,
            help="With --by platform: only provider pairs with at least this many equivalent "
            "endpoint pairs.",
        ),
    ],
    EquivalenceView,
)
def equivalences_cmd(
    db: str, fmt: str, files: EquivalenceFiles, source: Exported, view: EquivalenceView
) -> None:
    """The library's equivalence graph: accepted verdicts as edges between items, each with the
    sub-query it holds under (edges point from the reference to its equivalent). --by platform
    answers "which providers in this library are redundant?": provider pairs ranked by their
    equivalent endpoint pairs, with the share of each side's endpoints the other covers.

    \b
    Example:
      toolex export equivalences --out edges.parquet --graph library.graphml
      toolex export equivalences --by platform --min-pairs 3
      toolex export equivalences --by platform --format csv > providers.csv
    """
    from toolex.exports.equivalences import (
        export_equivalences,
        graph_format,
        redundant_platforms,
    )

    out, graph_path = files.out, files.graph_path
    benchmark, expansion = source.benchmark, source.expansion
    if graph_path is not None and graph_format(graph_path) is None:
        raise click.BadParameter("name the graph file .graphml or .json", param_hint="--graph")
    _writable(db, out, graph_path)
    if view.by == "platform":
        if graph_path is not None:
            raise click.UsageError("--graph draws the item graph; drop it with --by platform")
        with open_store(db, read_only=True) as store:
            rows = [
                r._asdict()
                for r in redundant_platforms(store, benchmark, expansion, view.min_pairs)
            ]
        if out is None:
            emit_rows(rows, fmt, title="provider pairs with equivalent endpoints", columns=PAIRS)
            return
        import pyarrow as pa
        import pyarrow.parquet as pq

        from toolex.exports.files import output_file

        with output_file(out, db) as temp:
            pq.write_table(pa.Table.from_pylist(rows), temp)
        click.echo(f"wrote {len(rows)} provider pairs to {out}", err=True)
        return
    if out is None:
        raise click.UsageError("--out FILE.parquet is required (or --by platform to print)")
    with open_store(db, read_only=True) as store:
        n, links = export_equivalences(store, out, benchmark, expansion, graph_path=graph_path)
    click.echo(f"wrote {n} edges to {out}", err=True)
    if graph_path is not None:
        click.echo(f"wrote {links} item pairs to {graph_path}", err=True)


PAIRS = [
    "platform_a",
    "platform_b",
    "equivalent_pairs",
    "steps",
    "covered_a",
    "endpoints_a",
    "covered_b",
    "endpoints_b",
    "share_a",
    "share_b",
]


export.add_command(toolbench_cmd, "toolbench")
export.add_command(triples_cmd, "triples")
