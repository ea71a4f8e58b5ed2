"""`toolex labels ...`: import, export and list verdict labels (people's yes/no on verdicts)."""

from __future__ import annotations

from dataclasses import dataclass

import click

from toolex.cli.options import (
    NAME,
    benchmark_option,
    db_option,
    echo_summary,
    emit_rows,
    format_option,
    open_store,
    option_group,
)

_FILE_FORMATS = ("jsonl", "csv")  # toolex.labels.records.FILE_FORMATS, kept import-free for --help


@click.group("labels", short_help="Verdict labels (a person's yes/no on a candidate).")
def labels() -> None:
    """Verdict labels: a person's yes/no on "is this candidate tool an equivalent of the
    reference for this step?", the ground truth `toolex judges eval` measures judges against.

    \b
    Examples:
      toolex labels import --shipped                  # the shipped set
      toolex labels import mine.csv --source ann-2024
      toolex labels list
      toolex labels export --out labels.jsonl --source ann-2024
    """


@dataclass(frozen=True)
class LabelFiles:
    """What `labels import` reads: a FILE, or the sets shipped with toolex (--shipped)."""

    file: str | None
    shipped: bool


what_options = option_group(
    "what",
    [
        click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False)),
        click.option(
            "--shipped",
            is_flag=True,
            help="Import the verdict sets shipped with toolex (toolex-pipeline-v2, toolex-dev-v1).",
        ),
    ],
    LabelFiles,
)


@labels.command("import", short_help="Import verdict labels from JSONL or CSV.")
@what_options
@click.option(
    "--source",
    default=None,
    type=NAME,
    help="Name of the label set (default: each record's source, else the file's name).",
)
@benchmark_option(
    "Benchmark of records that name none (a record naming another is an error).",
    required=False,
    default=None,
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(_FILE_FORMATS),
    default=None,
    help="File format (default: .csv is CSV, anything else JSONL).",
)
@db_option
def import_cmd(
    what: LabelFiles, source: str | None, benchmark: str | None, fmt: str | None, db: str
) -> None:
    """Import verdict labels from JSONL or CSV: benchmark, query_id, reference, candidate, label
    (yes/no) and optionally slot, subquery, labeller, note, source, stratum (JSON).

    Every record is checked against the store first (the query exists, both items are items of
    the benchmark, the reference is a ground-truth item of the query); one problem and nothing is
    imported. Importing a source again replaces all of its labels.

    \b
    Example:
      toolex labels import verdicts.csv --source ann-2024 \\
          --benchmark stabletoolbench
      toolex labels import --shipped
    """
    from toolex.labels import SHIPPED_SETS, import_labels

    file = what.file
    if what.shipped == (file is not None):
        raise click.UsageError("give a FILE or --shipped (one of the two)")
    if what.shipped and source is not None:
        raise click.UsageError(
            "--shipped keeps each set's own source name; --source renames a FILE"
        )
    files = [file] if file is not None else list(SHIPPED_SETS)
    with open_store(db) as store:
        for path in files:
            result = import_labels(store, path, source=source, benchmark=benchmark, fmt=fmt)
            echo_summary(result)


@labels.command("export", short_help="Write stored verdict labels to JSONL or CSV.")
@click.option(
    "--out",
    required=True,
    type=click.Path(dir_okay=False),
    help="File to write (never the store or its own files, toolex.duckdb.*).",
)
@click.option("--source", default=None, help="Only this label set (default: every set).")
@benchmark_option("Only labels of this benchmark.", required=False, default=None)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(_FILE_FORMATS),
    default=None,
    help="File format (default: .csv is CSV, anything else JSONL).",
)
@db_option
def export_cmd(
    out: str, source: str | None, benchmark: str | None, fmt: str | None, db: str
) -> None:
    """Write stored verdict labels to JSONL or CSV, in the format `toolex labels import` reads.

    \b
    Example:
      toolex labels export --out labels.csv --source toolex-dev-v1
    """
    from toolex.exports.files import output_file
    from toolex.labels import export_labels
    from toolex.labels.records import file_format

    # Never over the store, whole or not at all (toolex.exports.files); the format is the
    # named file's, not the temporary one's.
    with output_file(out, db) as temp, open_store(db, read_only=True) as store:
        n = export_labels(
            store, temp, source=source, benchmark=benchmark, fmt=file_format(out, fmt)
        )
    click.echo(f"wrote {n} labels to {out}", err=True)


@labels.command("list", short_help="The label sets in the store, per source and benchmark.")
@format_option
@db_option
def list_cmd(fmt: str, db: str) -> None:
    """The label sets in the store: per source and benchmark, labels, yes, no, queries.

    \b
    Example:
      toolex labels list --format json
    """
    from toolex.labels import label_summary

    with open_store(db, read_only=True) as store:
        rows = [s._asdict() for s in label_summary(store)]
    if not rows:
        click.echo("no labels in the store; `toolex labels import --shipped` adds a set", err=True)
        return
    emit_rows(rows, fmt, title="verdict labels")
