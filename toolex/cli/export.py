"""`toolex export`: expanded qrels (Parquet), TREC qrels and runs, ToolRet-style JSONL."""

from __future__ import annotations

import click

from toolex.cli.options import (
    benchmark_option,
    db_option,
    expansion_option,
    open_store,
    run_option,
)

_benchmark = benchmark_option("Benchmark to export (default: the only one).", required=False)
_expansion = expansion_option("Expansion whose combinations to export.")


def _out(suffix: str):
    return click.option(
        "--out", required=True, type=click.Path(dir_okay=False), help=f"File to write ({suffix})."
    )


@click.group("export")
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
    """


@export.command("qrels")
@db_option
@_out("Parquet")
@_benchmark
@_expansion
@click.option("--flat", is_flag=True, help="One row per (query, item) instead of per member.")
@click.option("--valid-only", is_flag=True, help="Only valid combinations (the original always).")
def qrels_cmd(
    db: str, out: str, benchmark: str | None, expansion: str, flat: bool, valid_only: bool
) -> None:
    """Expanded qrels as Parquet: one row per (query, combination, slot, item) with the
    combination's RRF score, rank and audit status/reason; --flat gives one row per (query, item).

    \b
    Example:
      toolex export qrels --out expanded.parquet --valid-only
    """
    from toolex.exports import export_qrels

    with open_store(db, read_only=True) as store:
        n = export_qrels(store, out, benchmark, expansion, flat=flat, valid_only=valid_only)
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
    from toolex.exports import export_trec_qrels

    with open_store(db, read_only=True) as store:
        n = export_trec_qrels(store, out, benchmark, expansion, mode=mode)
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
    from toolex.exports import export_trec_run

    with open_store(db, read_only=True) as store:
        n = export_trec_run(store, out, run_id)
    click.echo(f"wrote {n} lines to {out}", err=True)


@export.command("toolret-jsonl")
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
    from toolex.exports import export_toolret_jsonl

    with open_store(db, read_only=True) as store:
        n = export_toolret_jsonl(store, out, benchmark, expansion)
    click.echo(f"wrote {n} queries to {out}", err=True)
