"""`toolex review`: the human validation protocol from the shell (the TUI offers the same
labelling with `toolex tui --review`)."""

from __future__ import annotations

from dataclasses import dataclass

import click

from toolex.cli.options import (
    ExpansionRef,
    benchmark_option,
    db_option,
    emit_rows,
    expansion_option,
    expansion_ref,
    format_option,
    open_store,
    option_group,
)

# the roles of toolex.review.ROLES, spelled out so `--help` need not import the review package
_role = click.option(
    "--role", type=click.Choice(["reviewer1", "reviewer2", "adjudicator"]), required=True
)


@click.group("review", short_help="Audit the expansion by hand: sample, label, score.")
def review() -> None:
    """Audit the expansion by hand: sample, label (TUI or CSV sheets), statistics.

    Two levels: accepted combinations (valid/invalid; the default) and single verdicts
    (`--level verdict`: is the candidate an equivalent of the reference for the sub-query?
    yes/no), each labelled by two blind reviewers and an adjudicator.

    \b
    A round:
      toolex review sample audit1 --benchmark stabletoolbench --size 200 --seed 13
      # each role labels in the TUI, or exports and imports a sheet
      toolex tui --review audit1 --role reviewer1 --reviewer ann
      toolex tui --review audit1 --role reviewer2 --reviewer bob
      toolex tui --review audit1 --role adjudicator --reviewer cat
      toolex review stats audit1
    """


@dataclass(frozen=True)
class Draw:
    """How a review sample is drawn: its level, size and seed; at the verdict level, the order
    reviewers see and where unjudged candidates come from; and whether the judge's rationale
    is shown."""

    level: str
    size: int
    seed: int
    order_by: str
    beyond: int | None
    retriever: str | None
    show_rationale: bool


@review.command("sample")
@db_option
@click.argument("sample_id")
@expansion_ref(benchmark_option("Benchmark whose expansion is audited."), expansion_option())
@option_group(
    "draw",
    [
        click.option(
            "--level",
            type=click.Choice(["combination", "verdict"]),
            default="combination",
            show_default=True,
            help="What is labelled: accepted combinations, or single verdicts (sub-query, "
            "reference, candidate).",
        ),
        click.option("--size", type=int, required=True, help="Number of items to draw."),
        click.option(
            "--seed", type=int, required=True, help="Seed: same store+size+seed, same sample."
        ),
        click.option(
            "--order",
            "order_by",
            type=click.Choice(["random", "uncertainty"]),
            default="random",
            show_default=True,
            help="Order reviewers see (verdict level): random, or the verdicts nearest the "
            "judge's decision boundary first (its lowest accepted confidence; none last). The "
            "items drawn are the same.",
        ),
        click.option(
            "--beyond",
            type=click.IntRange(min=0),
            default=None,
            help="Verdict level: ranks past the candidate depth searched for unjudged candidates "
            "(0: only candidates stored without a verdict).  [default: 20]",
        ),
        click.option(
            "--retriever",
            default=None,
            help="Verdict level: retriever spec for that search (default: the expansion's).",
        ),
        click.option(
            "--show-rationale",
            is_flag=True,
            help="Show reviewers the judge's rationale (verdict, reason, confidence; a "
            "combination's audit) beside the documentations, as the paper's annotators saw the "
            "model's. Recorded with the sample. Default: blind to the judge.",
        ),
    ],
    Draw,
)
@format_option
def sample_cmd(db: str, sample_id: str, ref: ExpansionRef, draw: Draw, fmt: str) -> None:
    """Draw a stratified, seeded review sample.

    Reviewers are blind to the judge by default; --show-rationale shows them its rationale,
    the paper's protocol (fixed with the sample: `review stats` says which it used).

    --level combination (default): accepted combinations, strata category x number of tools,
    proportional allocation.

    --level verdict: the judge's accepted verdicts, its rejected verdicts, and retrieved but
    unjudged candidates (stored without a verdict, or ranked just past the candidate depth:
    the equivalents the pipeline missed), strata part x category x rank band (1-3, 4-10,
    11-20, 21+), the size split evenly over the three parts.

    \b
    Examples:
      toolex review sample audit1 --benchmark stabletoolbench --size 200 --seed 13
      toolex review sample v1 --level verdict --benchmark stabletoolbench \\
          --size 300 --seed 13 --order uncertainty
      toolex review sample paper1 --benchmark stabletoolbench --size 200 \\
          --seed 13 --show-rationale
    """
    from toolex.review.beyond import BEYOND
    from toolex.review.sample import draw_sample, draw_verdict_sample

    level, beyond, retriever = draw.level, draw.beyond, draw.retriever
    if level == "combination":
        given = [
            opt
            for opt, used in (
                ("--order uncertainty", draw.order_by != "random"),
                ("--beyond", beyond is not None),
                ("--retriever", retriever is not None),
            )
            if used
        ]
        if given:
            raise click.UsageError(f"{', '.join(given)} needs --level verdict")
    with open_store(db) as store:
        if level == "verdict":
            strata = draw_verdict_sample(
                store,
                sample_id,
                benchmark=ref.benchmark,
                expansion=ref.expansion,
                size=draw.size,
                seed=draw.seed,
                order_by=draw.order_by,
                beyond=BEYOND if beyond is None else beyond,
                retriever=retriever,
                show_rationale=draw.show_rationale,
            )
            rows: list[dict[str, object]] = [r._asdict() for r in strata]
            drawn = sum(r.drawn for r in strata)
        else:
            quotas = draw_sample(
                store,
                sample_id,
                benchmark=ref.benchmark,
                expansion=ref.expansion,
                size=draw.size,
                seed=draw.seed,
                show_rationale=draw.show_rationale,
            )
            rows = [{"stratum": h, "items": n} for h, n in sorted(quotas.items())]
            drawn = sum(quotas.values())
    emit_rows(rows, fmt, title=f"sample {sample_id}")
    click.echo(f"drew {drawn} {level} items into sample {sample_id}", err=True)


@review.command("label")
@db_option
@click.argument("sample_id")
@_role
@click.option("--reviewer", required=True, help="Your name (one person, one role).")
def label_cmd(db: str, sample_id: str, role: str, reviewer: str) -> None:
    """Label a sample's items at the prompt, without the TUI. Each unlabelled item is shown
    (the request; a verdict's sub-query, or a combination's checklist; then both
    documentations: the reference and the candidate, or the ground-truth and the proposed
    combination), then asked: the positive label (v valid / y yes), the negative (i invalid /
    n no) + a failure bucket by number + a note; q stops.

    \b
    Example:
      toolex review label audit1 --role reviewer2 --reviewer bob
    """
    from toolex.review.labels import Label, check_role, items_for, save_label
    from toolex.review.levels import sample_level
    from toolex.review.views import item_view

    with open_store(db) as store:
        level = sample_level(store, sample_id)
        check_role(store, sample_id, role, reviewer, level)
        buckets = list(level.buckets)
        keys = {level.positive[0]: level.positive, level.negative[0]: level.negative}
        todo = [it for it in items_for(store, sample_id, role) if not it.seen.label]
        click.echo(f"{len(todo)} items to label", err=True)
        for n, item in enumerate(todo, start=1):
            view = item_view(store, level, item, role)
            click.echo(f"\n[{n}/{len(todo)}] {view.heading}\n{view.request}")
            if view.instruction:
                click.echo(f"instruction: {view.instruction}")
            click.echo("\n".join(f"  {line}" for line in view.checklist))
            for side in (view.left, view.right):
                click.echo(f"--- {side.title} ---\n{side.text()}")
            if view.rationale:
                click.echo(f"--- the judge's rationale ---\n{view.rationale}")
            for who, label, bucket, note in view.others:
                click.echo(f"  {who}: {label} {bucket or ''} {note or ''}")
            answer = click.prompt(
                f"{level.positive} ({level.positive[0]}) / {level.negative} "
                f"({level.negative[0]}) / quit (q)",
                type=click.Choice([*keys, "q"]),
                err=True,
            )
            if answer == "q":
                break
            bucket = None
            if keys[answer] == level.negative:
                menu = ", ".join(f"{k + 1} {b}" for k, b in enumerate(buckets))
                pick = click.prompt(
                    f"bucket ({menu})", type=click.IntRange(1, len(buckets)), err=True
                )
                bucket = buckets[pick - 1]
            note = click.prompt("note", default="", show_default=False, err=True)
            save_label(
                store,
                sample_id,
                item,
                role=role,
                reviewer=reviewer,
                label=Label(keys[answer], bucket, note),
            )


@review.command("export", short_help="Write a role's review sheet (CSV).")
@db_option
@click.argument("sample_id")
@_role
@click.option(
    "--out",
    "out",
    type=click.Path(dir_okay=False),
    required=True,
    help="CSV file to write (never the store or its own files, toolex.duckdb.*).",
)
def export_cmd(db: str, sample_id: str, role: str, out: str) -> None:
    """Write a role's review sheet (CSV): the request, the sub-query (verdicts) or the checklist
    (combinations), and both documentations in adjacent columns, pretty-printed. Reviewers see
    only their own labels, the adjudicator the disagreements with both labels and notes;
    nobody sees the judge's verdicts, reasons, confidences or ranks, unless the sample was
    drawn with --show-rationale (a `rationale` column then follows the documentations). Fill
    `reviewer`, `label` (valid/invalid, or yes/no for verdicts), `bucket` (for invalid/no),
    `note`.

    \b
    Example:
      toolex review export audit1 --role reviewer2 --out bob.csv
    """
    from toolex.exports.files import output_file
    from toolex.review.sheets import export_sheet

    # Never over the store, whole or not at all (toolex.exports.files).
    with output_file(out, db) as temp, open_store(db, read_only=True) as store:
        n = export_sheet(store, sample_id, role, temp)
    click.echo(f"wrote {n} rows to {out}", err=True)


@review.command("import", short_help="Read a filled review sheet back.")
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


@review.command("stats", short_help="A sample's statistics: precision, agreement, failures.")
@db_option
@click.argument("sample_id")
@format_option
def stats_cmd(db: str, sample_id: str, fmt: str) -> None:
    """A sample's statistics, with 95% Wilson intervals and Cohen's kappa between the two
    reviewers.

    Combination level: precision of the accepted combinations, agreement, failure buckets.

    Verdict level: precision of the judge's accepted verdicts; the judge's recall (accepted
    against rejected) and the pipeline's recall (the unjudged candidates too), weighted by
    each part's population, with Bonferroni-combined Wilson bounds; the yes rate of each
    part; failure buckets. Final verdict labels are also in the `labels` table (source =
    the sample), for `toolex judges eval`.

    \b
    Example:
      toolex review stats audit1 --format json
    """
    from toolex.review import protocol
    from toolex.review.levels import sample_level
    from toolex.review.stats import review_stats, verdict_stats

    with open_store(db, read_only=True) as store:
        if sample_level(store, sample_id).name == "verdict":
            rows = verdict_stats(store, sample_id).rows()
        else:
            rows = review_stats(store, sample_id).rows()
        shown = protocol.shows_rationale(store, sample_id)
    emit_rows(rows, fmt, title=f"review {sample_id}")
    click.echo(f"protocol: {protocol.describe(shown)}", err=True)
