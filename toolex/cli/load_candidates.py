"""`toolex load candidates`: candidate lists made elsewhere, into an expansion's stage 2a."""

from __future__ import annotations

from dataclasses import dataclass

import click

from toolex.cli.options import (
    NAME,
    ExpansionRef,
    benchmark_option,
    db_option,
    echo_summary,
    expansion_option,
    expansion_ref,
    open_store,
    option_group,
)


@dataclass(frozen=True)
class ListsRead:
    """How the lists are read and stored: who made them, the depth kept, the file's format, and
    whether they replace lists already stored."""

    name: str | None
    depth: int | None
    fmt: str
    replace: bool


@click.command("candidates", short_help="Import per-sub-query candidate lists.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@expansion_ref(
    benchmark_option(),
    expansion_option("The expansion whose sub-queries the lists are for (it must hold them)."),
)
@option_group(
    "lists",
    [
        click.option(
            "--name",
            default=None,
            type=NAME,
            help="Who made the lists, stored as retriever import:<name> (default: the file's "
            "stem).",
        ),
        click.option(
            "--depth",
            type=click.IntRange(1),
            default=None,
            help="Keep the top K of each list (default: every row; K = the longest list). A "
            "reference a list misses is added at rank K+1.",
        ),
        click.option(
            "--format",
            "fmt",
            type=click.Choice(["auto", "trec", "parquet", "csv"]),
            default="auto",
            show_default=True,
            help="File format (auto: by suffix, TREC otherwise).",
        ),
        click.option(
            "--replace",
            is_flag=True,
            help="Swap lists already stored for these sub-queries (refused once they have "
            "verdicts).",
        ),
    ],
    ListsRead,
)
@db_option
def candidates_cmd(file: str, ref: ExpansionRef, lists: ListsRead, db: str) -> None:
    """Import per-sub-query candidate lists (TREC, Parquet or CSV) made by another retriever.

    The expansion's sub-queries must exist (`toolex expand --stage decompose`, or `toolex load
    subqueries`). TREC names a sub-query <query_id>#<slot> in its qid column; Parquet and CSV
    give query_id, slot, item_id, score. Each query named needs a list for every one of its
    sub-queries. Then `toolex expand` verifies the imported candidates (its candidates stage
    leaves those sub-queries alone). Bad input stops with file, line and field; nothing is
    written.

    \b
    Examples:
      toolex load candidates qwen3-4b.trec --benchmark toolret --expansion dense
      toolex load candidates lists.parquet --benchmark toolret \\
          --expansion dense --depth 20
    """
    from toolex.expansions.candidates import import_candidates

    with open_store(db) as store:
        result = import_candidates(
            store,
            file,
            benchmark=ref.benchmark,
            expansion=ref.expansion,
            name=lists.name,
            depth=lists.depth,
            fmt=lists.fmt,
            replace=lists.replace,
        )
    echo_summary(result)
