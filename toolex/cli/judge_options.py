"""The options of `toolex judges eval`, in four groups, each one decorator that hands the
command ONE object (as toolex.cli.expand_options does for `toolex expand`): what is measured
against which labels, what the judges are asked with, how much is judged, and how the results
print."""

from __future__ import annotations

from dataclasses import dataclass

import click

from toolex.cli.options import (
    benchmark_option,
    expansion_option,
    format_option,
    option_group,
)


@dataclass(frozen=True)
class Measured:
    """Which judges are measured, at which stage, against which labels: a stored label set (of
    one benchmark), a label file, or (audit) a review sample."""

    specs: tuple[str, ...]
    stage: str
    source: str | None
    labels_file: str | None
    sample_id: str | None
    benchmark: str | None


measured_options = option_group(
    "measured",
    [
        click.option(
            "--judge",
            "specs",
            multiple=True,
            help="Judge to measure (repeatable): heuristic, heuristic:prescreen, "
            "openai:<model>, anthropic:<model>, compat:<base_url>#<model>. The audit stage "
            "without one measures the expansion's stored outcomes.",
        ),
        click.option(
            "--stage",
            type=click.Choice(["verify", "audit"]),
            default="verify",
            show_default=True,
            help="verify: verdict labels; audit: the final labels of a review sample (--sample).",
        ),
        click.option("--source", default=None, help="Stored label set (default: the only one)."),
        click.option(
            "--labels",
            "labels_file",
            type=click.Path(exists=True, dir_okay=False),
            default=None,
            help="A label file to measure against instead of stored labels (checked, not "
            "imported).",
        ),
        click.option("--sample", "sample_id", default=None, help="Review sample (--stage audit)."),
        benchmark_option("Only labels of this benchmark.", required=False, default=None),
    ],
    Measured,
)


@dataclass(frozen=True)
class Asked:
    """What the judges are shown: whose sub-queries, the expansion's ranks, the config's call
    settings and decomposer."""

    subqueries: str
    expansion: str
    config_path: str | None


asked_options = option_group(
    "asked",
    [
        click.option(
            "--subqueries",
            type=click.Choice(["decomposer", "expansion", "labels"]),
            default="decomposer",
            show_default=True,
            help="decomposer: the sub-query the configured decomposer writes (in memory, nothing "
            "is written), as an expansion asks the verifier: the headline; expansion: the "
            "expansion's, else decomposed; labels: the label's own, else the expansion's (a "
            "diagnostic).",
        ),
        expansion_option("Expansion whose sub-queries and candidate ranks are used."),
        click.option(
            "--config",
            "config_path",
            type=click.Path(dir_okay=False),
            default=None,
            help="toolex.toml: [llm] call settings, [judges] decompose = the decomposer.",
        ),
    ],
    Asked,
)


@dataclass(frozen=True)
class Extent:
    """How much is judged: a seeded sample of the labels, a cap on the calls, or a dry run."""

    limit: int | None
    seed: int
    max_calls: int | None
    dry_run: bool


extent_options = option_group(
    "extent",
    [
        click.option(
            "--limit",
            type=click.IntRange(1),
            default=None,
            help="Measure on a seeded random sample of N labels (the whole set takes hours on a "
            "local model); saved under its own source name.",
        ),
        click.option(
            "--seed",
            type=int,
            default=0,
            show_default=True,
            help="Seed of the --limit sample and of the order --max-calls takes the labels in "
            "(both spread over benchmarks and parts): the same seed, the same labels.",
        ),
        click.option(
            "--max-calls",
            type=click.IntRange(0),
            default=None,
            help="Stop after N LLM calls (spread over the labels' benchmarks, parts and queries; "
            "exit code 3); the figures then cover what was judged, and a re-run resumes from the "
            "call ledger.",
        ),
        click.option(
            "--dry-run", is_flag=True, help="Print the calls and cost first; call nothing."
        ),
    ],
    Extent,
)


@dataclass(frozen=True)
class Shown:
    """How the results print: the mistakes listed per judge and the format."""

    n_errors: int
    fmt: str


shown_options = option_group(
    "shown",
    [
        click.option(
            "--errors",
            "n_errors",
            type=click.IntRange(0),
            default=10,
            show_default=True,
            help="False accepts and false rejects listed per judge.",
        ),
        format_option,
    ],
    Shown,
)
