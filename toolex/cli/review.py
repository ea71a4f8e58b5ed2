"""`toolex review`: the human validation protocol from the shell (the TUI offers the same
labelling with `toolex tui --review`)."""

from __future__ import annotations

import click

from toolex.cli.options import (
    benchmark_option,
    db_option,
    emit_rows,
    expansion_option,
    format_option,
    open_store,
)

# the roles of toolex.review.ROLES, spelled out so `--help` need not import the review package
_role = click.option(
    "--role", type=click.Choice(["reviewer1", "reviewer2", "adjudicator"]), required=True
)


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
@benchmark_option("Benchmark whose expansion is audited.")
@expansion_option()
@click.option("--size", type=int, required=True, help="Number of combinations to draw.")
@click.option("--seed", type=int, required=True, help="Seed: same store+size+seed, same sample.")
@format_option
def sample_cmd(
    db: str, sample_id: str, benchmark: str, expansion: str, size: int, seed: int, fmt: str
) -> None:
    """Draw a stratified audit sample (category x number of tools) of accepted combinations.

    \b
    Example:
      toolex review sample audit1 --benchmark stabletoolbench --size 200 --seed 13
    """
    from toolex.review.sample import draw_sample

    with open_store(db) as store:
        quotas = draw_sample(
            store, sample_id, benchmark=benchmark, expansion=expansion, size=size, seed=seed
        )
    emit_rows(
        [{"stratum": h, "items": n} for h, n in sorted(quotas.items())],
        fmt,
        title=f"sample {sample_id}",
    )
    click.echo(f"drew {sum(quotas.values())} items into sample {sample_id}", err=True)


@review.command("label")
@db_option
@click.argument("sample_id")
@_role
@click.option("--reviewer", required=True, help="Your name (one person, one role).")
def label_cmd(db: str, sample_id: str, role: str, reviewer: str) -> None:
    """Label a sample's items at the prompt, without the TUI: each unlabelled item is shown
    (query, instruction, slot by slot the sub-query, candidate, reference and judge's reason),
    then asked valid (v) / invalid (i) + failure bucket (1-4) + note; q stops.

    \b
    Example:
      toolex review label audit1 --role reviewer2 --reviewer bob
    """
    from toolex.review.labels import BUCKETS, Label, check_role, items_for, members, save_label

    buckets = list(BUCKETS)
    with open_store(db) as store:
        check_role(store, sample_id, role, reviewer)
        todo = [it for it in items_for(store, sample_id, role) if not it["label"]]
        click.echo(f"{len(todo)} items to label", err=True)
        for n, item in enumerate(todo, start=1):
            click.echo(
                f"\n[{n}/{len(todo)}] {item['query_id']} combo {item['combo_id']} "
                f"({item['stratum']})\n{item['query']}"
            )
            if item["instruction"]:
                click.echo(f"instruction: {item['instruction']}")
            for m in members(store, item):
                click.echo(
                    f"  slot {m['slot']}: {m['subquery'] or ''}\n"
                    f"    candidate {m['candidate']}\n    reference {m['reference']}\n"
                    f"    judge     {m['reason'] or ''}"
                )
            if role == "adjudicator":
                for p in ("r1", "r2"):
                    click.echo(
                        f"  {p}: {item[p + '_label']} {item[p + '_bucket'] or ''} "
                        f"{item[p + '_note'] or ''}"
                    )
            answer = click.prompt(
                "valid (v) / invalid (i) / quit (q)", type=click.Choice(["v", "i", "q"]), err=True
            )
            if answer == "q":
                break
            bucket = None
            if answer == "i":
                menu = ", ".join(f"{k + 1} {b}" for k, b in enumerate(buckets))
                pick = click.prompt(f"bucket ({menu})", type=click.IntRange(1, 4), err=True)
                bucket = buckets[pick - 1]
            note = click.prompt("note", default="", show_default=False, err=True)
            save_label(
                store,
                sample_id,
                item,
                role=role,
                reviewer=reviewer,
                label=Label("valid" if answer == "v" else "invalid", bucket, note),
            )


@review.command("export")
@db_option
@click.argument("sample_id")
@_role
@click.option(
    "--out", "out", type=click.Path(dir_okay=False), required=True, help="CSV file to write."
)
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
