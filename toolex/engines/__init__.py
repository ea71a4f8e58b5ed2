"""Where the shipped SQL runs: on the store's own DuckDB (the default), or on Spark.

toolex keeps every transform in ``sql/``, written for DuckDB. Past one machine, the same files run
on Spark, as written: sqlglot writes them in Spark's SQL (``toolex.engines.dialects`` names what
would not run or would mean something else there, and the Spark engine refuses such a file), the
DuckDB table macros become views (``toolex.engines.macros``), and the inputs go out of the store
as Parquet (``toolex.engines.spark``). There is no second implementation of any metric.

This package sits above the store and the metric SQL and below every command: it reads the store
through ``Store`` only, and ``toolex.metrics`` takes an engine as a parameter, never imports one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from toolex.errors import ToolexError

if TYPE_CHECKING:
    from toolex.metrics.engine import Engine

ENGINES = ("duckdb", "spark")
DEFAULT_ENGINE = "duckdb"


@contextlib.contextmanager
def open_engine(
    name: str = DEFAULT_ENGINE,
    *,
    master: str | None = None,
    inputs_dir: str | Path | None = None,
    conf: Mapping[str, str] | None = None,
) -> Iterator[Engine | None]:
    """The engine ``name`` for the block: None for DuckDB (the store runs its own SQL), or a
    :class:`toolex.engines.spark.engine.SparkEngine` on a session of ``master`` (``local[*]``
    when None), its Parquet inputs in ``inputs_dir`` (a temporary folder when None; on a
    cluster, a folder every executor reads at the same path). A session this opens, it stops."""
    if name not in ENGINES:
        raise ToolexError(f"unknown engine {name!r}; choose one of {', '.join(ENGINES)}")
    if name == "duckdb":
        if master or inputs_dir or conf:
            raise ToolexError(
                "--spark-master, --spark-inputs and --spark-conf go with --engine spark"
            )
        yield None
        return
    from toolex.engines.spark.engine import SparkEngine
    from toolex.engines.spark.session import LOCAL, start

    master = master or LOCAL
    if not master.startswith("local") and inputs_dir is None:
        raise ToolexError(
            f"on a cluster ({master}) Spark's executors read the inputs toolex writes: give "
            "--spark-inputs DIR, a folder every executor sees at the same path (a shared mount)"
        )
    session, started = start(master, conf)
    try:
        with SparkEngine(session, inputs_dir) as engine:
            yield engine
    finally:
        if started:
            session.stop()


def engine_label(name: str, master: str | None = None) -> str:
    """How a message names the engine: ``DuckDB``, ``Spark (local[*])``."""
    if name == "spark":
        from toolex.engines.spark.session import LOCAL

        return f"Spark ({master or LOCAL})"
    return "DuckDB"
