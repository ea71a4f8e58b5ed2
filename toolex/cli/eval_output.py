"""What `toolex eval` prints, once the scores are computed: the long layout (a table whose
constant columns go to its title, or JSON/CSV rows named in ir_measures' terms), the paper
layout (Table 1 as a table, Markdown, LaTeX, JSON or CSV), the --compare pairs, and the notes
and warnings on stderr (queries without results, runs the expansion leaves alone, pool bias,
what stands behind the new scores)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from toolex.cli.options import emit_rows
from toolex.cli.tables import echo_note
from toolex.cli.trust import echo_trust
from toolex.metrics.registry import NO_CUT, ir_name
from toolex.reports.main_table import group_mean_label
from toolex.reports.provenance import ORACLE_NOTE, pool_bias_warnings, run_label

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from toolex.api.evaluate import Scored
    from toolex.metrics.records import MeanScore
    from toolex.reports.compare import RunComparison
    from toolex.reports.main_table import MainRow


def emit(scored: Scored, by: str, expansion: str, layout: str, fmt: str) -> None:
    """Print the scores in ``layout`` and ``fmt``: data to stdout, warnings and trust to
    stderr."""
    for warning in pool_bias_warnings(scored.provenance.values(), expansion):
        click.echo(f"warning: {warning}", err=True)
    if layout == "paper":
        emit_paper(scored.table, by, fmt)
        echo_trust(scored.trust.values())
        return
    rows, queries, trust, pairs = scored.rows, scored.queries, scored.trust, scored.pairs
    oracle = {run_id for run_id, p in scored.provenance.items() if p.oracle}
    if fmt == "table":
        order = {"all": 0, group_mean_label(by): 1}
        ranked = sorted(rows, key=lambda r: (r.run_id, r.k, order.get(r.group, 2), str(r.group)))
        shown = [
            score_row(r, by) | {"run": run_label(r.run_id, r.run_id in oracle)} for r in ranked
        ]
        label = group_mean_label(by)
        mean = f"; {label} = mean of the {by} rows" if any(r.group == label for r in rows) else ""
        emit_constant_free(
            shown,
            f"old and new scores, expansion {expansion!r} (n_no_results: queries without "
            f"results, scored 0{mean})",
            keep=("run", by, "metric", "old", "new", "gain", "n_queries"),
        )
        if oracle:
            echo_note(ORACLE_NOTE)
        if queries:
            emit_constant_free(
                [{**q, "run": run_label(q["run"], q["run"] in oracle)} for q in queries],
                "per query",
                keep=("query", "metric", "old", "new"),
            )
        if pairs is not None:
            emit_pairs(pairs, fmt)
        echo_trust(trust.values())
        return
    summary_rows = [score_row(r, by) | {"oracle": r.run_id in oracle} for r in rows]
    queries = [{**q, "oracle": q["run"] in oracle} for q in queries]
    if fmt == "json":  # csv stays one plain table
        for row, r in zip(summary_rows, rows, strict=True):
            found = trust[r.run_id]
            row["trust"] = found.as_dict() if found else None
    if pairs is not None:  # machine-readable output is one table: the comparisons
        emit_pairs(pairs, fmt)
    else:
        emit_rows(summary_rows + queries, fmt)
    echo_trust(trust.values())


def score_row(row: MeanScore, by: str) -> dict[str, object]:
    """A summary row as printed: the metric in ir_measures' name, no K for an uncut metric, the
    group named ``by``."""
    return {
        "run": row.run_id,
        by: row.group,
        "query": None,
        "metric": ir_name(row.metric, row.k),
        "k": None if row.k == NO_CUT else row.k,
        "old": row.old,
        "new": row.new,
        "gain": row.gain,
        "n_queries": row.n_queries,
        "n_no_results": row.n_no_results,
    }


def report_counts(scored: Scored, expansion: str) -> None:
    """stderr: queries without results per run, and runs the expansion does not touch."""
    seen: set[str] = set()
    for row in scored.rows:
        if row.group == "all" and row.run_id not in seen and row.n_no_results > 0:
            seen.add(row.run_id)
            click.echo(
                f"run {row.run_id}: {row.n_no_results} of {row.n_queries} queries "
                "had no results (scored 0)",
                err=True,
            )
    for run_id, n in scored.coverage.items():
        if n == 0:
            click.echo(
                f"note: expansion {expansion!r} has no valid expanded combination for the "
                f"benchmark of run {run_id}; its new scores equal the old ones",
                err=True,
            )


def emit_paper(table: list[MainRow], by: str, fmt: str) -> None:
    """--layout paper: one table per benchmark and K, as the paper's Table 1."""
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
        echo_note(paper_table.note(tables))
    else:
        emit_rows(paper_table.flat_rows(tables), fmt)


def emit_constant_free(
    rows: Sequence[Mapping[str, object]], title: str, keep: tuple[str, ...] = ()
) -> None:
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


def emit_pairs(pairs: Sequence[RunComparison], fmt: str) -> None:
    """The --compare table: every pair of runs per metric, under old and new."""
    rows = [
        {
            "run_a": p.run_a,
            "run_b": p.run_b,
            "measure": p.measure,
            "metric": ir_name(p.metric, p.k),
            "mean_diff": p.mean_diff,
            "p_value": p.p_value,
            "p_holm": p.p_holm,
            "significant": p.significant,
            "n_queries": p.n_queries,
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
