"""`toolex review`: the human validation protocol from the shell (the TUI offers the same
labelling with `toolex tui --review`)."""

from __future__ import annotations

import click

from toolex.cli.options import db_option, emit_rows, format_option, open_store


@click.group("review")
def review() -> None:
    """Audit accepted combinations by hand: sample, label (TUI or CSV sheets), statistics.

    \b
    A round:
      toolex review sample audit1 --benchmark stabletoolbench --size 200 --seed 13
      toolex tui --review audit1 --role reviewer1 --reviewer ann     # or export/import sheets
      toolex tui --review audit1 --role reviewer2 --reviewer bob
      toolex tui --review audit1 --role adjudicator --reviewer cat
      toolex review stats audit1
    """


@review.command("sample")
@db_option
@click.argument("sample_id")
@click.option("--benchmark", required=True, help="Benchmark whose expansion is audited.")
@click.option("--expansion", default="default", show_default=True)
@click.option("--size", type=int, required=True, help="Number of combinations to draw.")
@click.option("--seed", type=int, required=True, help="Seed: same store+size+seed, same sample.")
@format_option
def sample_cmd(db: str, sample_id: str, benchmark: str, expansion: str, size: int, seed: int,
               fmt: str) -> None:
    """Draw a stratified audit sample (category x number of tools) of accepted combinations.

    \b
    Example:
      toolex review sample audit1 --benchmark stabletoolbench --size 200 --seed 13
    """
    from toolex.review.sample import draw_sample

    with open_store(db) as store:
        quotas = draw_sample(store, sample_id, benchmark=benchmark, expansion=expansion,
                             size=size, seed=seed)
    emit_rows([{"stratum": h, "items": n} for h, n in sorted(quotas.items())], fmt,
              title=f"sample {sample_id}")
    click.echo(f"drew {sum(quotas.values())} items into sample {sample_id}", err=True)


@review.command("export")
@db_option
@click.argument("sample_id")
@click.option("--role", type=click.Choice(["reviewer1", "reviewer2", "adjudicator"]),
              required=True)
@click.option("--out", "out", type=click.Path(dir_okay=False), required=True,
              help="CSV file to write.")
def export_cmd(db: str, sample_id: str, role: str, out: str) -> None:
    """Write a role's review sheet (CSV): reviewers see only their own labels, the adjudicator
    the disagreements with both labels and notes. Fill `reviewer`, `label`, `bucket`, `note`.

    \b
    Example:
      toolex review export audit1 --role reviewer2 --out bob.csv
    """
    from toolex.review.sheets import export_sheet

    with open_store(db, read_only=True) as store:
        n = export_sheet(store, sample_id, role, out)
    click.echo(f"wrote {n} rows to {out}", err=True)


@review.command("import")
@db_option
@click.argument("sheet", type=click.Path(exists=True, dir_okay=False))
def import_cmd(db: str, sheet: str) -> None:
    """Read a filled review sheet back (all rows checked first, saved in one transaction).

    \b
    Example:
      toolex review import bob.csv
    """
    from toolex.review.sheets import import_sheet

    with open_store(db) as store:
        n = import_sheet(store, sheet)
    click.echo(f"saved {n} labels from {sheet}", err=True)


@review.command("stats")
@db_option
@click.argument("sample_id")
@format_option
def stats_cmd(db: str, sample_id: str, fmt: str) -> None:
    """Precision of the accepted combinations with a 95% Wilson interval, Cohen's kappa between
    the two reviewers, and the failure taxonomy counts.

    \b
    Example:
      toolex review stats audit1 --format json
    """
    from toolex.review.stats import review_stats

    with open_store(db, read_only=True) as store:
        stats = review_stats(store, sample_id)
    emit_rows(stats.rows(), fmt, title=f"review {sample_id}")
