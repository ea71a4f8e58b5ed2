"""The options of `toolex expand`, in three groups, each one decorator that adds its options and
hands the command ONE object instead of their values (sqlite-utils' shared option decorators):

* :func:`selection_options` -> :class:`Selection`: which expansion of which benchmark, which
  stages, over which queries;
* :func:`pipeline_options` -> :class:`PipelineOptions`, whose ``setup()`` is the
  :class:`PipelineSetup`: the judges and the pipeline's own ``Settings``, resolved from the
  options, the config file and the pipeline's defaults by
  ``toolex.pipeline.config.expand_settings`` (the one place that decides their precedence);
* :func:`run_control_options` -> :class:`RunControl`: the budget, retries, replace, dry run.

The defaults shown are the pipeline's (toolex.pipeline.settings): the CLI only passes values.
Config, runner and budget are imported when the command runs, so `--help` stays light.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from toolex.cli.options import (
    benchmark_option,
    deprecated_k,
    expansion_option,
    option_group,
    scope_option,
)
from toolex.pipeline.settings import (
    AUDIT_SAFETY_LIMIT,
    CANDIDATE_RETRIEVER,
    CANDIDATES_PER_SUBQUERY,
    ORDER,
    PLATFORM_RULE,
    PRESCREEN,
    RENDERING,
    REUSE,
    STAGE_GROUPS,
)

if TYPE_CHECKING:
    from toolex.judges.base import Judge
    from toolex.llm.budget import Budget
    from toolex.pipeline.config import ToolexConfig
    from toolex.pipeline.runner import Settings
    from toolex.store import Store


@dataclass(frozen=True)
class Selection:
    """What runs: an expansion of a benchmark, the stages (an `expand --stage` name) and the
    queries to run them over."""

    benchmark: str
    expansion: str
    stage: str
    query_ids: tuple[str, ...]
    task: str | None
    limit: int | None

    @property
    def stages(self) -> tuple[str, ...]:
        return STAGE_GROUPS[self.stage]

    @property
    def queries(self) -> list[str] | None:
        """The ids given with --queries, or None: every query (of --task, up to --limit)."""
        return list(self.query_ids) or None


selection_options = option_group(
    "selection",
    [
        benchmark_option(),
        expansion_option(new=True),
        click.option(
            "--stage",
            type=click.Choice(list(STAGE_GROUPS)),
            default="all",
            show_default=True,
            help="Run one stage (verify = retrieve candidates and judge them).",
        ),
        click.option(
            "--queries", "query_ids", multiple=True, help="Only these query ids (repeatable)."
        ),
        click.option("--task", default=None, help="Only the queries of this task."),
        click.option(
            "--limit",
            type=click.IntRange(1, 2**31 - 1),
            default=None,
            help="Only the first N queries (by id).",
        ),
    ],
    Selection,
)


@dataclass(frozen=True)
class PipelineSetup:
    """What the pipeline runs with: the judge asked for (None: the config file's [judges], else
    the default), the config file read, and the settings of every stage."""

    judge: str | None
    config: ToolexConfig | None
    settings: Settings

    def judges(self, store: Store, benchmark: str) -> dict[str, Judge]:
        """One judge per stage (toolex.judges.judges_for decides which)."""
        from toolex.judges import judges_for

        return judges_for(store, judge=self.judge, config=self.config, benchmark=benchmark)


@dataclass(frozen=True)
class PipelineOptions:
    """The values of the pipeline's options, as given (None: not given); :meth:`setup` resolves
    them."""

    judge: str | None
    config_path: str | None
    retriever: str | None
    scope: str
    rendering: str | None
    depth: int | None
    old_k: int | None
    audit_cap: int | None
    platform_rule: str
    prescreen: str
    reuse: str | None
    order: str

    def setup(self) -> PipelineSetup:
        """The option values as the pipeline's settings; a bad config file fails here, which
        the command calls before it opens the store."""
        from toolex.api.expand import expand_settings
        from toolex.pipeline.config import load_config

        config = load_config(self.config_path) if self.config_path else None
        settings = expand_settings(
            config,
            retriever=self.retriever,
            depth=self.depth or deprecated_k(self.old_k),
            audit_cap=self.audit_cap,
            scope=self.scope,
            platform_rule=self.platform_rule,
            rendering=self.rendering,
            prescreen=self.prescreen,
            reuse=self.reuse,
            order=self.order,
        )
        return PipelineSetup(self.judge, config, settings)


pipeline_options = option_group(
    "pipeline",
    [
        click.option(
            "--judge",
            default=None,
            help="Judge for every stage: heuristic | openai:<model> | anthropic:<model> | "
            "compat:<base_url>#<model>. Default: config [judges], else heuristic.",
        ),
        click.option(
            "--config",
            "config_path",
            type=click.Path(dir_okay=False),
            default=None,
            help="toolex.toml with [judges], [llm] and [expand] settings.",
        ),
        click.option(
            "--retriever",
            default=None,
            help=f"Candidate retriever spec (default {CANDIDATE_RETRIEVER}): any of `toolex "
            "retrieve --retriever`, e.g. compat-embed:<base_url>#<model> for a dense model "
            "behind an embeddings endpoint; imported: only the lists `toolex load "
            "candidates` imported (a sub-query without one stops the run).",
        ),
        scope_option(
            "Library the candidates come from: the whole benchmark (default, the paper's full "
            "tool library), the query's task or category, or auto (task when the items have "
            "tasks).",
        ),
        click.option(
            "--rendering",
            default=None,
            help=f"Documentation rendering the candidates are searched in (default {RENDERING!r} "
            "= items.text; else one loaded with `toolex load docs`, e.g. Tool-DE-style expanded "
            "docs).",
        ),
        click.option(
            "--depth",
            type=click.IntRange(1),
            default=None,
            help=f"Candidates retrieved per sub-query (default {CANDIDATES_PER_SUBQUERY}).",
        ),
        click.option("--k", "old_k", type=click.IntRange(1), default=None, hidden=True),
        click.option(
            "--audit-cap",
            type=click.IntRange(0),
            default=None,
            help="Opt-in cost control: audit only the N best combinations per query by RRF and "
            "cut the rest. Default: audit every one, as the paper does (up to "
            f"{AUDIT_SAFETY_LIMIT} per query, a safety limit reported when hit).",
        ),
        click.option(
            "--platform-rule",
            type=click.Choice(["strict", "feeds"]),
            default=PLATFORM_RULE,
            show_default=True,
            help="feeds: tools whose docs show an id/token hand-off must share a platform; "
            "strict: also any two GT tools that share a platform (conservative).",
        ),
        click.option(
            "--prescreen",
            type=click.Choice(["auto", "on", "off"]),
            default=PRESCREEN,
            show_default=True,
            help="Verify: candidates the offline screen (heuristic:prescreen) discards are stored "
            "as rejected, never sent to the verifier. off = the paper's protocol; auto = on for a "
            "verifier that makes calls only while the screen's held-out recall and discard clear "
            "their bars (docs/judges.md); on forces it and prints the measured loss. Applies to "
            "candidates not yet judged.",
        ),
        click.option(
            "--reuse",
            type=click.Choice(["off", "same-step"]),
            default=REUSE,
            help="Verify: carry a verdict on a (reference, candidate) pair over to another "
            "sub-query asking for the same operation on the same entity (stored as judge "
            "'reused'). Default: same-step when the verifier makes calls.",
        ),
        click.option(
            "--order",
            type=click.Choice(["retrieval", "uncertainty"]),
            default=ORDER,
            show_default=True,
            help="Verify order: by query and retrieval rank, or most uncertain first (offline "
            "score nearest 0.5), so a budget-capped run spends its calls where they matter.",
        ),
    ],
    PipelineOptions,
)


@dataclass(frozen=True)
class RunControl:
    """How far the run may go and what it may redo: a budget, retries, replace, a dry run."""

    max_cost: float | None
    max_calls: int | None
    retry_failed: bool
    replace: bool
    dry_run: bool

    def budget(self) -> Budget | None:
        """The run's spending limit, when --max-cost or --max-calls sets one."""
        if self.max_cost is None and self.max_calls is None:
            return None
        from toolex.llm.budget import Budget

        return Budget(self.max_cost, self.max_calls)


run_control_options = option_group(
    "control",
    [
        click.option(
            "--max-cost",
            type=click.FloatRange(0),
            default=None,
            help="Stop before the run's LLM calls cost more than this many USD (calls in "
            "flight included); resumable later with a larger budget. Exit code 3 when it stops "
            "the run.",
        ),
        click.option(
            "--max-calls",
            type=click.IntRange(0),
            default=None,
            help="Stop before the run makes more than this many LLM calls (attempts); as "
            "--max-cost.",
        ),
        click.option(
            "--retry-failed", is_flag=True, help="Retry tasks whose earlier answer failed."
        ),
        click.option(
            "--replace",
            is_flag=True,
            help="Drop the expansion's outputs (imported rows too) and recompute them; needed to "
            "re-run an expansion with settings other than those its outputs were made with.",
        ),
        click.option(
            "--dry-run", is_flag=True, help="Print the calls and cost the run would make."
        ),
    ],
    RunControl,
)
