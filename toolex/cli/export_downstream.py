"""`toolex export toolbench` and `toolex export triples`: the expanded annotation for what comes
after retrieval (an agent's pass rate with the equivalents, a retriever's training data)."""

from __future__ import annotations

from dataclasses import dataclass

import click

from toolex.cli.options import (
    benchmark_option,
    db_option,
    expansion_option,
    open_store,
    option_group,
    run_option,
)

_benchmark = benchmark_option("Benchmark to export (default: the only one).", required=False)
_expansion = expansion_option("Expansion whose valid combinations and equivalents to export.")


@click.command("toolbench", short_help="ToolBench-format tasks with the equivalents swapped in.")
@db_option
@click.option(
    "--out",
    required=True,
    type=click.Path(file_okay=False),
    help="Folder to write (StableToolBench's solvable_queries layout).",
)
@_benchmark
@_expansion
@click.option(
    "--source",
    type=click.Path(exists=True, file_okay=False),
    default=None,
    help="The StableToolBench folder the original tasks are read from (default: the one the "
    "benchmark was loaded from).",
)
def toolbench_cmd(
    db: str, out: str, benchmark: str | None, expansion: str, source: str | None
) -> None:
    """ToolBench-format tasks, each query's original and one per valid alternative combination
    with its equivalents swapped into api_list and "relevant APIs", to measure pass rates with
    StableToolBench's own runner and evaluator (OUT/test_instruction/<group>.json,
    OUT/test_query_ids/<group>.json, and OUT/tasks.csv: task id -> query and combination).

    \b
    Example:
      toolex export toolbench --benchmark stabletoolbench --out toolbench-tasks/
    """
    from toolex.exports.toolbench import export_toolbench

    with open_store(db, read_only=True) as store:
        done = export_toolbench(store, out, benchmark, expansion, source=source)
    click.echo(done.summary(), err=True)


@dataclass(frozen=True)
class TripleChoice:
    """Where the triples come from: the expansion's equivalents, the run whose ranking gives the
    hard negatives, how many per anchor, and what the anchors are."""

    benchmark: str | None
    expansion: str
    run_id: str | None
    negatives: int
    level: str


@click.command("triples", short_help="Training triples: anchor, positive, hard negative.")
@db_option
@click.option(
    "--out",
    required=True,
    type=click.Path(dir_okay=False),
    help="File to write: .parquet (ids, texts, ranks) or .jsonl (anchor, positive, negative: "
    "sentence-transformers' columns).",
)
@option_group(
    "choice",
    [
        _benchmark,
        _expansion,
        run_option(
            "Run whose ranking gives the hard negatives (default: the expansion's candidate pool).",
            required=False,
        ),
        click.option(
            "--negatives",
            type=click.IntRange(1, 1000),
            default=5,
            show_default=True,
            help="Hard negatives per anchor.",
        ),
        click.option(
            "--level",
            type=click.Choice(["query", "subquery"]),
            default="query",
            show_default=True,
            help="Anchors: the queries (positives: their ground-truth items), or the "
            "expansion's sub-queries (positive: the step's reference).",
        ),
    ],
    TripleChoice,
)
def triples_cmd(db: str, out: str, choice: TripleChoice) -> None:
    """Contrastive training triples (anchor, positive, hard negative) whose negatives are never
    the query's ground truth nor an equivalent of it: the query's in any expansion (accepted
    verdicts, valid combinations, SkillRet's substitutable labels), or one verified for its
    ground-truth tools anywhere in the store, either way round. One-to-one labels would make
    those the hardest negatives of all.

    \b
    Example:
      toolex export triples --benchmark stabletoolbench --out triples.jsonl
      toolex export triples --run bm25 --negatives 10 --out triples.parquet
    """
    from toolex.exports.triples import export_triples

    with open_store(db, read_only=True) as store:
        done = export_triples(
            store,
            out,
            choice.benchmark,
            choice.expansion,
            run_id=choice.run_id,
            negatives=choice.negatives,
            level=choice.level,
        )
    click.echo(done.summary(out), err=True)
