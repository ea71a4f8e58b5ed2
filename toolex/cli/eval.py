"""`toolex eval`: old vs new NDCG/Recall/Comp of one or many runs, like the paper's main table."""

from __future__ import annotations

from dataclasses import dataclass, replace

import click

from toolex.api.evaluate import Scoring, metric_plan, score
from toolex.cli.engines import EngineChoice, engine_options, opened_engine
from toolex.cli.eval_output import emit, report_counts
from toolex.cli.eval_store import RunSources, scoring_store
from toolex.cli.options import (
    FORMATS,
    benchmark_option,
    db_option,
    expansion_option,
    option_group,
    run_option,
)
from toolex.errors import ToolexError
from toolex.metrics.engine import BY, all_runs
from toolex.metrics.registry import METRICS

LAYOUTS = ("long", "paper")
PAPER_ONLY = ("markdown", "latex")  # formats of the paper layout only
EVAL_FORMATS = (*FORMATS, *PAPER_ONLY)


@dataclass(frozen=True)
class EvalOutput:
    """How the scores print: the layout (long or the paper's) and the format."""

    layout: str
    fmt: str


@click.command("eval", short_help="Score runs old (original labels) vs new (expanded labels).")
@db_option
@option_group(
    "sources",
    [
        run_option("Run to score (repeatable).", dest="runs", multiple=True),
        click.option("--all-runs", "every_run", is_flag=True, help="Score every run in the store."),
        click.option(
            "--run-file",
            "run_files",
            multiple=True,
            type=click.Path(exists=True, dir_okay=False),
            help="Score this run file (TREC, CSV, Parquet, ToolRet JSON; repeatable) without "
            "importing it: against --qrels-file, or against --benchmark and --expansion of the "
            "store.",
        ),
        click.option(
            "--qrels-file",
            type=click.Path(exists=True, dir_okay=False),
            help="With --run-file: the labels (TREC qrels or BEIR qrels TSV); no store needed.",
        ),
        benchmark_option("With --run-file: the stored benchmark to score against.", required=False),
    ],
    RunSources,
)
@option_group(
    "scoring",
    [
        click.option(
            "--metric",
            "-m",
            "metrics",
            multiple=True,
            metavar="NAME",
            help="Metric in ir_measures' names (repeatable): nDCG@10, R@10, Comp@10, P@5, RR, "
            "AP@10. Default: nDCG, R and Comp at each --k.",
        ),
        click.option(
            "--compare",
            is_flag=True,
            help="Also test every pair of runs (paired randomisation test, Holm-corrected over "
            "the pairs), as ranx's compare does.",
        ),
        click.option(
            "--k",
            "ks",
            type=int,
            multiple=True,
            default=(10,),
            show_default=True,
            help="Cut-off K (repeatable).",
        ),
        expansion_option("Expansion whose valid combinations define the new scores."),
        click.option(
            "--by",
            type=click.Choice(["all", *BY]),
            default="category",
            show_default=True,
            help="Group queries by category or by task; the 'all' row (every query) is always "
            "there (--by all: only that row, as `stats --by all`).",
        ),
        click.option("--per-query", is_flag=True, help="Also output every query's scores."),
    ],
    Scoring,  # its ``paper`` comes from --layout
)
@engine_options
@option_group(
    "output",
    [
        click.option(
            "--layout",
            type=click.Choice(LAYOUTS),
            default="long",
            show_default=True,
            help="long: one row per run x group (the main table); paper: one row per run with "
            "Code, Web, Customized and Avg side by side (the paper's Table 1).",
        ),
        click.option(
            "--format",
            "fmt",
            type=click.Choice(EVAL_FORMATS),
            default="table",
            show_default=True,
            help="Output as an aligned table, JSON or CSV, or (with --layout paper) Markdown or "
            "LaTeX (data to stdout, messages to stderr).",
        ),
    ],
    EvalOutput,
)
def eval_cmd(
    db: str,
    sources: RunSources,
    scoring: Scoring,
    engine: EngineChoice,
    output: EvalOutput,
) -> None:
    """Score runs old (original qrels) vs new (max over valid equivalent combinations).

    NDCG@K, Recall@K (trec_eval semantics) and Comp@K (1 if every relevant tool is in the top
    K), macro-averaged per category (or task) and over all queries; Δ is the mean gain new − old
    of the three. Queries with judgments but no results score 0; their number goes to stderr.
    Beside 'all' (the mean over queries) each run gets 'avg (category mean)', the paper's
    average: the mean of the category means. Sub-query-level runs are oracle-assisted (their
    sub-queries use the ground-truth tool count and documentation): marked † (JSON/CSV: oracle).
    A run by the retriever that drew the expansion's candidates gets a pool-bias warning.
    So does what stands behind new: each stage judge's measured precision and recall (or
    "unvalidated") and the review's combination precision; JSON summary rows also carry it as
    `trust`, CSV stays a plain table.

    --engine spark runs the same metric SQL on Spark (local[*], or --spark-master URL): the
    store sends the runs, labels and valid combinations as Parquet, sqlglot writes the SQL for
    Spark, and the rows come back into the same output. On one machine DuckDB is faster; Spark
    pays off on a cluster (docs/how-to/spark.md).

    Metrics take ir_measures' names (--metric nDCG@10 -m RR -m AP@10; trec_eval semantics,
    checked against pytrec_eval); JSON and CSV rows name them so. --compare adds a table of
    every pair of runs: mean difference, p-value of a paired randomisation test and its
    Holm-adjusted value (significant at 0.05); with --format json or csv it prints these rows
    alone. --run-file scores files without a benchmark
    in the store (--qrels-file) or without importing them (--benchmark, --expansion).

    \b
    Example:
      toolex eval --run bm25 --run e5 --k 10 --k 20
      toolex eval --all-runs --by task --format csv > scores.csv
      toolex eval --run bm25 --per-query --format json
      toolex eval --all-runs --layout paper --format latex > table1.tex
      toolex eval --run bm25 --run e5 -m nDCG@10 -m RR --compare
      toolex eval --run-file bm25.trec --qrels-file test.tsv -m nDCG@10 -m R@100
      toolex eval --all-runs --engine spark --spark-master spark://head:7077 \\
          --spark-inputs /shared/toolex-inputs
    """
    layout, fmt = output.layout, output.fmt
    if fmt in PAPER_ONLY and layout != "paper":
        raise click.UsageError(f"--format {fmt} writes the paper layout; add --layout paper")
    if scoring.per_query and layout == "paper":
        raise click.UsageError("--per-query lists queries in the long layout only")
    if scoring.by == "all" and layout == "paper":
        raise click.UsageError("--layout paper sets the categories side by side; drop --by all")
    families, _, _ = metric_plan(scoring.metrics, scoring.ks)
    if layout == "paper" and not set(families) <= set(METRICS):
        raise click.UsageError("--layout paper shows nDCG, R and Comp; drop the other --metric")
    if engine.outside and sources.run_files:
        raise click.UsageError(
            "--engine spark scores stored runs; import the files first (`toolex runs import`)"
        )
    # an engine outside the store reads Parquet files that the store writes
    scoring_in = scoring_store(db, sources, engine.outside)
    with scoring_in as (store, named), opened_engine(engine) as on:
        run_ids = list(dict.fromkeys(sources.runs)) + named
        if sources.every_run:
            run_ids = list(dict.fromkeys(run_ids + all_runs(store)))
            if not run_ids:
                raise ToolexError(
                    f"the store {db} holds no runs; make one with `toolex retrieve` or "
                    "`toolex runs import`"
                )
        from toolex.cli.progress import status

        expansion = scoring.expansion
        where = engine.label
        with status(f"scoring {len(run_ids)} run(s) against expansion {expansion!r} on {where}"):
            scored = score(store, run_ids, replace(scoring, paper=layout == "paper"), on)
    report_counts(scored, expansion)
    emit(scored, scored.by, expansion, layout, fmt)
