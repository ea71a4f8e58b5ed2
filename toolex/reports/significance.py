"""Significance: a paired randomisation test and a Poisson-bootstrap CI for every mean difference
the report makes, per category and overall (sql/reports/70-74, seeded, all in SQL).

Two kinds of difference are tested, query by query:
  * gain: new - old of one run (is the expansion's change real?);
  * runs: run_a - run_b under old and under new metrics (is one retriever really better, and
    does the answer change with the expanded labels?).
The randomisation test is exact (all 2^n sign vectors) for groups of at most ``exact_max``
queries, else Monte Carlo with ``n_perm`` vectors (sql/reports/72); the CI is the percentile
interval of ``n_boot`` Poisson-bootstrap resamples (sql/reports/73). Both skip zero differences in
their sums, so their cost grows with the queries whose scores differ, not with all queries.
"""

from __future__ import annotations

from toolex.reports.inputs import ReportContext, Table


def significance_table(ctx: ReportContext) -> Table:
    ctx.register_metrics()
    ctx.run("70_significance_gain_diffs.sql")
    ctx.run("71_significance_run_diffs.sql")
    ctx.run(
        "72_significance_randomisation.sql",
        seed=ctx.seed,
        n_perm=ctx.n_perm,
        exact_max=ctx.exact_max,
    )
    ctx.run("73_significance_bootstrap.sql", seed=ctx.seed, n_boot=ctx.n_boot, alpha=ctx.alpha)
    rows = ctx.rows("74_significance_table.sql")
    shown = [r for r in rows if r["test"] == "gain" or r["category"] == "all"]
    level = round(100 * (1 - ctx.alpha))
    return Table(
        "significance",
        "Significance (paired randomisation test, bootstrap CI)",
        rows,
        note=(
            f"test 'gain': new - old of run_a; test 'runs': run_a - run_b under the measure. "
            f"mean_diff with its {level}% Poisson-bootstrap percentile CI ({ctx.n_boot} "
            f"resamples) and "
            f"the two-sided paired randomisation p-value (exact when n <= {ctx.exact_max}, else "
            f"{ctx.n_perm} random sign vectors). Seed {ctx.seed}. Shown here: gains per category, "
            "run differences over all queries; every row in the CSV/JSON."
        ),
        md_rows=shown,
    )
