"""`toolex report`: the report folder (tables as Markdown/CSV/JSON, PNG figures)."""

from __future__ import annotations

import time
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
from toolex.cli.trust import echo_trust


def _pair(value: str) -> tuple[str, str]:
    base, sep, tuned = value.partition(":")
    if not sep or not base or not tuned:
        raise click.BadParameter(f"{value!r} is not BASE:FINETUNED (two run ids and a colon)")
    return base, tuned


@dataclass(frozen=True)
class ReportScope:
    """What the report covers: benchmarks, the expansion, runs, the cut-off and the pairs."""

    benchmarks: tuple[str, ...]
    expansion: str
    runs: tuple[str, ...]
    k: int
    pairs: tuple[str, ...]


scope_options = option_group(
    "scope",
    [
        benchmark_option(
            "Benchmark(s); default all.", required=False, dest="benchmarks", multiple=True
        ),
        expansion_option("Expansion to score."),
        run_option("Run(s) to report; default every run.", dest="runs", multiple=True),
        click.option(
            "--k", default=10, show_default=True, type=click.IntRange(1), help="Cut-off K."
        ),
        click.option(
            "--pair",
            "pairs",
            multiple=True,
            metavar="BASE:FINETUNED",
            help="A base and a fine-tuned run, for the gain-illusion section (repeatable).",
        ),
    ],
    ReportScope,
)


@dataclass(frozen=True)
class Statistics:
    """How the report draws: the seed, where the random tool comes from, the resamples."""

    seed: int
    random_from: str
    n_perm: int
    n_boot: int


statistics_options = option_group(
    "statistics",
    [
        click.option(
            "--seed",
            default=0,
            show_default=True,
            help="Seed of the random tool, the randomisation test and the bootstrap.",
        ),
        click.option(
            "--random-from",
            type=click.Choice(["pool", "library"]),
            default="pool",
            show_default=True,
            help="Where the equivalent-rank section draws its random non-equivalent tool: the "
            "query's "
            "candidate pool (as the paper does) or its whole library.",
        ),
        click.option(
            "--permutations",
            "n_perm",
            default=1000,
            show_default=True,
            type=click.IntRange(10),
            help="Random sign vectors of the randomisation test.",
        ),
        click.option(
            "--bootstrap",
            "n_boot",
            default=1000,
            show_default=True,
            type=click.IntRange(10),
            help="Bootstrap resamples for the confidence intervals.",
        ),
    ],
    Statistics,
)


@click.command("report", short_help="Write a report folder: report.md, PNG figures, CSV, JSON.")
@db_option
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Folder to write.")
@scope_options
@statistics_options
def report(db: str, out: str, scope: ReportScope, statistics: Statistics) -> None:
    """Write a self-contained report folder: report.md, PNG figures, every table as CSV and JSON.

    Sections: the annotation table, the main table (old vs new N@K, R@K, C@K and Δ per run and
    category), the fine-tuning gain illusion for each --pair, where equivalents rank (beside a
    random non-equivalent tool drawn from each query's candidate pool; the paper does not say
    where it draws its own; --random-from library draws from the whole library), category
    heterogeneity, documentation
    lengths, significance (paired randomisation p-values and bootstrap CIs), and how far to
    trust new (each stage judge's measured precision, or "unvalidated", the review's combination
    precision, and new thinned to the measured precision; the same lines go to stderr). The
    store is opened read-only.

    \b
    Example:
      toolex report --out report/ --run bm25 --run minilm --run minilm-ft \\
          --pair minilm:minilm-ft --k 10
    """
    from toolex.reports import build_report

    parsed = [_pair(p) for p in scope.pairs]
    store = open_store(db, read_only=True)
    start = time.perf_counter()
    try:
        result = build_report(
            store,
            out,
            benchmarks=scope.benchmarks,
            run_ids=scope.runs,
            expansion=scope.expansion,
            k=scope.k,
            pairs=parsed,
            seed=statistics.seed,
            random_from=statistics.random_from,
            n_perm=statistics.n_perm,
            n_boot=statistics.n_boot,
        )
    finally:
        store.close()
    took = time.perf_counter() - start
    click.echo(
        f"wrote {out}/report.md with {len(result.tables)} tables and {len(result.figures)} "
        f"figures in {took:.1f} s",
        err=True,
    )
    echo_trust(result.trust)
