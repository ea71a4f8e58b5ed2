"""`toolex eval`: old vs new NDCG/Recall/Comp of one or many runs, like the paper's main table."""

from __future__ import annotations

import contextlib
from typing import Any

import click

from toolex.cli.engines import engine_options, opened_engine
from toolex.cli.options import (
    FORMATS,
    benchmark_option,
    db_option,
    emit_rows,
    expansion_option,
    open_store,
    run_option,
)
from toolex.cli.trust import echo_trust
from toolex.engines import DEFAULT_ENGINE, engine_label
from toolex.errors import ToolexError
from toolex.metrics.engine import BY, all_runs, expansion_coverage, summary
from toolex.metrics.registry import METRICS, NO_CUT, ir_name, parse, validate_ks
from toolex.reports.compare import compare_runs
from toolex.reports.main_table import group_mean_label, main_table_rows, with_group_mean
from toolex.reports.provenance import (
    ORACLE_NOTE,
    pool_bias_warnings,
    run_label,
    run_provenance,
)
from toolex.reports.trust import trust_of_runs

LAYOUTS = ("long", "paper")
PAPER_ONLY = ("markdown", "latex")  # formats of the paper layout only
EVAL_FORMATS = (*FORMATS, *PAPER_ONLY)


@click.command("eval")
@db_option
@run_option("Run to score (repeatable).", dest="runs", multiple=True)
@click.option("--all-runs", "every_run", is_flag=True, help="Score every run in the store.")
@click.option(
    "--run-file",
    "run_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="Score this run file (TREC, CSV, Parquet, ToolRet JSON; repeatable) without importing "
    "it: against --qrels-file, or against --benchmark and --expansion of the store.",
)
@click.option(
    "--qrels-file",
    type=click.Path(exists=True, dir_okay=False),
    help="With --run-file: the labels (TREC qrels or BEIR qrels TSV); no store needed.",
)
@benchmark_option("With --run-file: the stored benchmark to score against.", required=False)
@click.option(
    "--metric",
    "-m",
    "metric_names",
    multiple=True,
    metavar="NAME",
    help="Metric in ir_measures' names (repeatable): nDCG@10, R@10, Comp@10, P@5, RR, AP@10. "
    "Default: nDCG, R and Comp at each --k.",
)
@click.option(
    "--compare",
    is_flag=True,
    help="Also test every pair of runs (paired randomisation test, Holm-corrected over the "
    "pairs), as ranx's compare does.",
)
@click.option(
    "--k",
    "ks",
    type=int,
    multiple=True,
    default=(10,),
    show_default=True,
    help="Cut-off K (repeatable).",
)
@expansion_option("Expansion whose valid combinations define the new scores.")
@click.option(
    "--by",
    type=click.Choice(BY),
    default="category",
    show_default=True,
    help="Group queries by category or by task; 'all' is always added.",
)
@click.option("--per-query", is_flag=True, help="Also output every query's scores.")
@engine_options
@click.option(
    "--layout",
    type=click.Choice(LAYOUTS),
    default="long",
    show_default=True,
    help="long: one row per run x group (the main table); paper: one row per run with Code, Web, "
    "Customized and Avg side by side (the paper's Table 1).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(EVAL_FORMATS),
    default="table",
    show_default=True,
    help="Output as an aligned table, JSON or CSV, or (with --layout paper) Markdown or LaTeX "
    "(data to stdout, messages to stderr).",
)
def eval_cmd(
    db: str,
    runs: tuple[str, ...],
    every_run: bool,
    run_files: tuple[str, ...],
    qrels_file: str | None,
    benchmark: str | None,
    metric_names: tuple[str, ...],
    compare: bool,
    ks: tuple[int, ...],
    expansion: str,
    by: str,
    per_query: bool,
    engine: str,
    spark_master: str | None,
    spark_inputs: str | None,
    spark_conf: tuple[str, ...],
    layout: str,
    fmt: str,
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
    pays off on a cluster (README, "Eval engines").

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
    if fmt in PAPER_ONLY and layout != "paper":
        raise click.UsageError(f"--format {fmt} writes the paper layout; add --layout paper")
    if per_query and layout == "paper":
        raise click.UsageError("--per-query lists queries in the long layout only")
    families, cuts, wanted = _metrics(metric_names, ks)
    ks = tuple(cuts)
    if layout == "paper" and not set(families) <= set(METRICS):
        raise click.UsageError("--layout paper shows nDCG, R and Comp; drop the other --metric")
    if engine == "spark" and run_files:
        raise click.UsageError(
            "--engine spark scores stored runs; import the files first (`toolex runs import`)"
        )
    outside = engine != DEFAULT_ENGINE  # it reads Parquet files that the store writes
    scoring = _scoring_store(db, run_files, qrels_file, benchmark, runs, every_run, outside)
    other = opened_engine(engine, spark_master, spark_inputs, spark_conf)
    with scoring as (store, named), other as on:
        run_ids = list(dict.fromkeys(runs)) + named
        if every_run:
            run_ids = list(dict.fromkeys(run_ids + all_runs(store)))
            if not run_ids:
                raise ToolexError(
                    f"the store {db} holds no runs; make one with `toolex retrieve` or "
                    "`toolex runs import`"
                )
        from toolex.cli.progress import status

        where = engine_label(engine, spark_master)
        with status(f"scoring {len(run_ids)} run(s) against expansion {expansion!r} on {where}"):
            scored = summary(store, run_ids, ks, expansion, by, families, on=on)
            scored = [r for r in scored if (r["metric"], r["k"]) in wanted]
            rows = with_group_mean(store, scored, by)
            table = main_table_rows(store, rows, by) if layout == "paper" else []
            provenance = run_provenance(store, run_ids, expansion)
            queries = (
                _per_query_rows(store, run_ids, ks, expansion, by, families, wanted, on)
                if per_query
                else []
            )
            trust = trust_of_runs(store, run_ids, expansion)
            pairs = compare_runs(store, run_ids, ks, expansion, families, on=on) if compare else []
            pairs = [p for p in pairs if (p["metric"], p["k"]) in wanted]
        _report_counts(store, rows, run_ids, expansion, by)
    for warning in pool_bias_warnings(provenance.values(), expansion):
        click.echo(f"warning: {warning}", err=True)
    if layout == "paper":
        _emit_paper(table, by, fmt)
        echo_trust(trust.values())
        return
    oracle = {run_id for run_id, p in provenance.items() if p.oracle}
    if fmt == "table":
        order = {"all": 0, group_mean_label(by): 1}
        ranked = sorted(rows, key=lambda r: (r["run_id"], r["k"], order.get(r[by], 2), str(r[by])))
        shown = [
            _json_row(r, by) | {"run": run_label(r["run_id"], r["run_id"] in oracle)}
            for r in ranked
        ]
        emit_constant_free(
            shown,
            f"old and new scores, expansion {expansion!r} (n_no_results: queries without "
            f"results, scored 0; {group_mean_label(by)} = mean of the {by} rows)",
            keep=("run", by, "metric", "old", "new", "gain", "n_queries"),
        )
        if oracle:
            click.echo(ORACLE_NOTE)
        if queries:
            emit_constant_free(
                [{**q, "run": run_label(q["run"], q["run"] in oracle)} for q in queries],
                "per query",
                keep=("query", "metric", "old", "new"),
            )
        if compare:
            _emit_pairs(pairs, fmt)
        echo_trust(trust.values())
        return
    summary_rows = [_json_row(r, by) | {"oracle": r["run_id"] in oracle} for r in rows]
    queries = [{**q, "oracle": q["run"] in oracle} for q in queries]
    if fmt == "json":  # csv stays one plain table
        for row in summary_rows:
            found = trust[row["run"]]
            row["trust"] = found.as_dict() if found else None
    if compare:  # machine-readable output is one table: the comparisons
        _emit_pairs(pairs, fmt)
    else:
        emit_rows(summary_rows + queries, fmt)
    echo_trust(trust.values())


def _json_row(row: dict[str, Any], by: str) -> dict[str, Any]:
    return {
        "run": row["run_id"],
        by: row[by],
        "query": None,
        "metric": ir_name(row["metric"], row["k"]),
        "k": None if row["k"] == NO_CUT else row["k"],
        "old": row["old"],
        "new": row["new"],
        "gain": row["gain"],
        "n_queries": row["n_queries"],
        "n_no_results": row["n_no_results"],
    }


def _per_query_rows(
    store, run_ids, ks, expansion, by, families, wanted, on
) -> list[dict[str, Any]]:
    from toolex.metrics.engine import per_query_rows

    return [
        {
            "run": r["run_id"],
            by: r[by],
            "query": r["query_id"],
            "metric": ir_name(r["metric"], r["k"]),
            "k": None if r["k"] == NO_CUT else r["k"],
            "old": r["old"],
            "new": r["new"],
            "gain": r["new"] - r["old"],
            "n_queries": 1,
            "n_no_results": 0 if r["has_results"] else 1,
        }
        for r in per_query_rows(store, run_ids, ks, expansion, families, on=on)
        if (r["metric"], r["k"]) in wanted
    ]


def _emit_paper(table: list[dict[str, Any]], by: str, fmt: str) -> None:
    from toolex.reports import paper_table

    tables = paper_table.paper_tables(table, by)
    if fmt == "markdown":
        click.echo(paper_table.to_markdown(tables), nl=False)
    elif fmt == "latex":
        click.echo(paper_table.to_latex(tables), nl=False)
    elif fmt == "table":
        for one in tables:
            title = f"{one.benchmark}: old→new ×100 at K={one.k}"
            emit_rows(paper_table.display_rows([one]), fmt, title)
        click.echo(paper_table.note(tables))
    else:
        emit_rows(paper_table.flat_rows(tables), fmt)


def _report_counts(store, rows, run_ids, expansion, by) -> None:
    """stderr: queries without results per run, and runs the expansion does not touch."""
    seen: set[str] = set()
    for row in rows:
        if row[by] == "all" and row["run_id"] not in seen and row["n_no_results"] > 0:
            seen.add(row["run_id"])
            click.echo(
                f"run {row['run_id']}: {row['n_no_results']} of {row['n_queries']} queries "
                "had no results (scored 0)",
                err=True,
            )
    for run_id, n in expansion_coverage(store, run_ids, expansion).items():
        if n == 0:
            click.echo(
                f"note: expansion {expansion!r} has no valid expanded combination for the "
                f"benchmark of run {run_id}; its new scores equal the old ones",
                err=True,
            )


def _metrics(
    names: tuple[str, ...], ks: tuple[int, ...]
) -> tuple[list[str], list[int], set[tuple[str, int]]]:
    """(metric families, cut-offs, the (family, K) pairs to show) of ``--metric`` and ``--k``:
    the named metrics, or nDCG, R and Comp at every --k."""
    if names:
        parsed = [parse(n) for n in names]
        wanted = {(m.name, m.k) for m in parsed}
        families = list(dict.fromkeys(m.name for m in parsed))
        return families, validate_ks([m.k for m in parsed]), wanted
    cuts = validate_ks(ks)
    return list(METRICS), cuts, {(f, k) for f in METRICS for k in cuts}


@contextlib.contextmanager
def _scoring_store(db, run_files, qrels_file, benchmark, runs, every_run, write_files=False):
    """(store, run ids of --run-file): the store read-only, or the direct-scoring one.
    ``write_files``: an engine other than DuckDB reads its inputs from Parquet files the store
    writes (Store.copy_parquet), so the read-only store may then write files."""
    if not run_files:
        if qrels_file or benchmark:
            raise click.UsageError("--qrels-file and --benchmark go with --run-file")
        with open_store(db, read_only=True, allow_files=write_files) as store:
            yield store, []
        return
    if runs or every_run:
        raise click.UsageError("--run-file scores files alone; drop --run and --all-runs")
    if qrels_file and benchmark:
        raise click.UsageError("give --qrels-file or --benchmark, not both")
    from toolex.cli.progress import say
    from toolex.runs.direct import direct_scoring

    where = {"qrels_file": qrels_file} if qrels_file else {"db": db, "benchmark": benchmark}
    with direct_scoring(list(run_files), **where) as direct:
        for note in direct.notes:
            say(f"note: {note}")
        yield direct.store, direct.run_ids


def emit_constant_free(rows: list[dict[str, Any]], title: str, keep: tuple[str, ...] = ()) -> None:
    """A table without the columns whose value is the same on every row (named in the title
    instead), except ``keep``: a per-query table does not repeat its run, K and counts."""
    cols = list(rows[0]) if rows else []
    constant = {
        c: rows[0][c]
        for c in cols
        if c not in keep and len(rows) > 1 and all(r[c] == rows[0][c] for r in rows)
    }
    shown = [c for c in cols if c not in constant]
    said = ", ".join(f"{c} {v}" for c, v in constant.items() if v is not None)
    emit_rows(
        [{c: r[c] for c in shown} for r in rows],
        "table",
        f"{title}{f' ({said})' if said else ''}",
        columns=shown,
    )


def _emit_pairs(pairs: list[dict[str, Any]], fmt: str) -> None:
    """The --compare table: every pair of runs per metric, under old and new."""
    rows = [
        {
            "run_a": p["run_a"],
            "run_b": p["run_b"],
            "measure": p["measure"],
            "metric": ir_name(p["metric"], p["k"]),
            "mean_diff": p["mean_diff"],
            "p_value": p["p_value"],
            "p_holm": p["p_holm"],
            "significant": p["significant"],
            "n_queries": p["n_queries"],
        }
        for p in pairs
    ]
    if not rows:
        click.echo("--compare: no two runs of one benchmark to compare", err=True)
        return
    if fmt == "table":
        emit_rows(
            rows,
            fmt,
            "pairs of runs: mean_diff = run_a - run_b; paired randomisation test, Holm-adjusted "
            "over the pairs (significant: p_holm <= 0.05)",
        )
    else:
        emit_rows(rows, fmt)
