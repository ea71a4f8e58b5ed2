"""`--engine` and its Spark settings, for the commands that can run their shipped SQL elsewhere
than on the store's DuckDB (`toolex eval`), and the engine they open (toolex.engines)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from toolex.cli.options import option_group
from toolex.engines import DEFAULT_ENGINE, ENGINES, engine_label, open_engine

if TYPE_CHECKING:
    from toolex.metrics.engine import Engine


@dataclass(frozen=True)
class EngineChoice:
    """Where the shipped SQL runs (--engine) and, for Spark, its master, inputs folder and
    settings."""

    engine: str
    spark_master: str | None
    spark_inputs: str | None
    spark_conf: tuple[str, ...]

    @property
    def outside(self) -> bool:
        """The engine is not the store's DuckDB: it reads Parquet files the store writes."""
        return self.engine != DEFAULT_ENGINE

    @property
    def label(self) -> str:
        return engine_label(self.engine, self.spark_master)


# --engine, --spark-master, --spark-inputs, --spark-conf (KEY=VALUE, repeatable) as one
# EngineChoice parameter ``engine``.
engine_options = option_group(
    "engine",
    [
        click.option(
            "--engine",
            type=click.Choice(ENGINES),
            default=DEFAULT_ENGINE,
            show_default=True,
            help="Where the shipped SQL runs: the store's DuckDB, or Spark (the same SQL "
            "files, inputs sent as Parquet; needs pip install 'toolex[spark]' and Java 17).",
        ),
        click.option(
            "--spark-master",
            metavar="URL",
            help="With --engine spark: the cluster's master URL (spark://host:7077, yarn, "
            "k8s://...); default local[*], every core of this machine.",
        ),
        click.option(
            "--spark-inputs",
            type=click.Path(file_okay=False),
            help="With --engine spark: the folder for the Parquet inputs (default: a temporary "
            "one); on a cluster, one every executor reads at the same path.",
        ),
        click.option(
            "--spark-conf",
            multiple=True,
            metavar="KEY=VALUE",
            help="With --engine spark: a Spark setting (repeatable), e.g. "
            "spark.executor.memory=8g.",
        ),
    ],
    EngineChoice,
)


@contextlib.contextmanager
def opened_engine(choice: EngineChoice) -> Iterator[Engine | None]:
    """The engine of the options (None for DuckDB), under a progress line while Spark starts
    (a JVM: seconds); stopped after the block."""
    from toolex.cli.progress import status

    conf = _conf(choice.spark_conf)
    starting = status(f"starting {choice.label}")
    with contextlib.ExitStack() as stack:
        with starting if choice.outside else contextlib.nullcontext():
            opened = open_engine(
                choice.engine,
                master=choice.spark_master,
                inputs_dir=choice.spark_inputs,
                conf=conf,
            )
            on = stack.enter_context(opened)
        yield on


def _conf(pairs: tuple[str, ...]) -> dict[str, str]:
    conf = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.UsageError(f"--spark-conf takes KEY=VALUE, got {pair!r}")
        conf[key.strip()] = value.strip()
    return conf
