"""Run the shipped DuckDB SQL on Spark, as written: its inputs written from the store as Parquet,
its table macros expanded into views (toolex.engines.macros), sqlglot's Spark SQL with the
parameters bound by Spark, and the rows back as Arrow.

A query of folder F (``metrics/select/summary.sql``) may call the macros of F (``metrics/
NNN_*.sql``) and read stored tables; each table it reads is sent as the rows of
``F/inputs/NN_<table>.sql``, a slice of the table cut to the parameters (the runs asked for,
the expansion's valid combinations), written by DuckDB's COPY (``Store.copy_parquet``) and
registered as a Spark view of that name. A file with a construct Spark would refuse or read
otherwise (toolex.engines.dialects) is refused here, naming it, rather than run.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel

from toolex.engines.dialects import RESOLVED_BY_SPARK_ENGINE, hazards
from toolex.engines.macros import Macro, base_tables, expand, read_macros
from toolex.errors import ToolexError
from toolex.resources import sql_files, sql_text

if TYPE_CHECKING:  # pyspark is an optional extra, imported by the session that is passed in
    from pyspark.sql import DataFrame, SparkSession

    from toolex.sqlrunner import Params, SqlRunner, SqlValue


class SparkEngine:
    """Shipped SQL on a Spark session; ``rows``/``arrow`` take what ``Store.rows``/``arrow``
    take, plus the store to read inputs from and the folder of the macros the query calls.

    ``inputs_dir`` holds the Parquet inputs; on a cluster it must be a folder every executor
    reads at the same path (a shared mount). Without it a temporary folder is made, and
    removed by :meth:`close`."""

    def __init__(self, session: SparkSession, inputs_dir: str | Path | None = None) -> None:
        self.session = session
        self._own_dir = inputs_dir is None
        self.inputs_dir = Path(inputs_dir or tempfile.mkdtemp(prefix="toolex-spark-"))
        self.inputs_dir.mkdir(parents=True, exist_ok=True)
        self._loaded: dict[str, str] = {}  # table -> the bound slice parameters it holds
        self._views: dict[str, str] = {}  # view -> what its rows were computed from
        self._writes = 0

    def close(self) -> None:
        if self._own_dir:
            shutil.rmtree(self.inputs_dir, ignore_errors=True)

    def __enter__(self) -> SparkEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def rows(
        self, store: SqlRunner, name: str, params: Params, *, folder: str
    ) -> list[dict[str, object]]:
        rows: list[dict[str, object]] = self.arrow(store, name, params, folder=folder).to_pylist()
        return rows

    def arrow(self, store: SqlRunner, name: str, params: Params, *, folder: str) -> pa.Table:
        expansion = expand(_parse(name), _macros(folder))
        with _spark_errors(f"sending the inputs of {name}"):
            if self._load_inputs(store, name, base_tables(expansion), params, folder):
                self._views.clear()  # computed from the inputs just replaced
        for view, body in expansion.views.items():
            # What the view's rows depend on: its own parameters and those of the views it
            # reads (a view is named after its text, which holds placeholders, not values).
            reads = sorted({t.name for t in body.find_all(exp.Table)} & set(expansion.views))
            key = json.dumps([_used(body, params), [self._views[r] for r in reads]], default=str)
            if self._views.get(view) == key:
                continue
            # Computed once and kept: a view feeds several others (metric_combos feeds three),
            # and `eval` asks for the summary and the per-query rows of the same scores. As
            # plain views Spark would recompute each one wherever it is read.
            with _spark_errors(f"{name}, computing {view.rsplit('_', 1)[0]}"):
                frame = self._frame(body, params).localCheckpoint()
                frame.createOrReplaceTempView(view)
            self._views[view] = key
        # toArrow moves columns as Arrow batches; collect() would build a Python Row per row.
        with _spark_errors(name):
            return self._frame(expansion.statement, params).toArrow()

    def _frame(self, tree: exp.Expr, params: Params) -> DataFrame:
        return self.session.sql(spark_sql(tree), args=_used(tree, params) or None)

    def _load_inputs(
        self,
        store: SqlRunner,
        name: str,
        tables: set[str],
        params: Params,
        folder: str,
    ) -> bool:
        """Send each table ``name`` reads, cut to ``params``; True when any was (re)sent."""
        slices = _slices(folder)
        sent = False
        for table in sorted(tables):
            if table not in slices:
                raise ToolexError(
                    f"{name} reads the table {table}, and {folder}/inputs/ has no slice of it "
                    "to send to Spark"
                )
            slice_name = slices[table]
            bound = {n: params[n] for n in _placeholders(slice_name)}
            key = json.dumps(bound, sort_keys=True, default=str)
            if self._loaded.get(table) == key:
                continue
            # A new file per load: Spark caches what it listed of a path it has read.
            self._writes += 1
            path = self.inputs_dir / f"{table}-{self._writes}.parquet"
            store.copy_parquet(slice_name, bound, path)
            self.session.read.parquet(str(path)).createOrReplaceTempView(table)
            self._loaded[table] = key
            sent = True
        return sent


def spark_sql(tree: exp.Expr) -> str:
    """Spark SQL of a DuckDB expression tree. MATERIALIZED is dropped: a hint to DuckDB's
    planner (evaluate this CTE once), which Spark's parser refuses; the rows are the same. So is
    the ORDER BY of ``avg(x ORDER BY y)``: it fixes the order DuckDB sums a mean's terms in (the
    last bit of a float sum depends on it), which Spark's avg has no syntax for; Spark's mean is
    the same up to that last bit (tests/engines/test_spark.py compares within TOL)."""

    def plain(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.CTE) and node.args.get("materialized") is not None:
            node = node.copy()
            node.set("materialized", None)
        if isinstance(node, exp.Avg) and isinstance(node.this, exp.Order):
            node = exp.Avg(this=node.this.this.copy())
        return node

    return tree.transform(plain).sql(dialect="spark", unsupported_level=ErrorLevel.RAISE)


def _used(tree: exp.Expr, params: Params) -> dict[str, SqlValue]:
    """The parameters ``tree`` names, bound; one it names and ``params`` lacks is an error."""
    names = {p.name for p in tree.find_all(exp.Placeholder) if p.name}
    missing = sorted(names - set(params))
    if missing:
        raise ToolexError(f"no value for the SQL parameters {missing}")
    return {n: params[n] for n in sorted(names)}


@cache
def _parse(name: str) -> exp.Expr:
    """One shipped statement, parsed once per process, after refusing any construct Spark would
    refuse or read otherwise (the hazards the engine resolves itself aside)."""
    _refuse_hazards(name)
    return sqlglot.parse_one(sql_text(name), read="duckdb")


@cache
def _placeholders(name: str) -> tuple[str, ...]:
    """The parameters a shipped file names (an input slice, which DuckDB runs)."""
    tree = sqlglot.parse_one(sql_text(name), read="duckdb")
    return tuple(sorted({p.name for p in tree.find_all(exp.Placeholder) if p.name}))


@cache
def _macros(folder: str) -> dict[str, Macro]:
    names = [f"{folder}/{path.name}" for path in sql_files(folder)]
    for macro_file in names:
        _refuse_hazards(macro_file)
    return read_macros((n, sql_text(n)) for n in names)


@cache
def _slices(folder: str) -> dict[str, str]:
    """table -> the file ``folder/inputs/NN_<table>.sql`` that slices it."""
    out = {}
    for path in sql_files(f"{folder}/inputs"):
        table = path.stem.split("_", 1)[1]
        out[table] = f"{folder}/inputs/{path.name}"
    return out


@contextlib.contextmanager
def _spark_errors(what: str) -> Iterator[None]:
    """Spark's failures (a query it refuses, a lost executor, a master it cannot reach) as a
    ToolexError naming what toolex was doing, with Spark's first line; the Java stack trace
    says nothing a toolex user can act on."""
    from py4j.protocol import Py4JError
    from pyspark.errors import PySparkException

    try:
        yield
    except (PySparkException, Py4JError) as exc:
        cause = _root_cause(exc)
        hint = ""
        if "OUT_OF_MEMORY" in cause or "OutOfMemory" in cause:
            hint = (
                "; give Spark more memory: --spark-conf spark.driver.memory=8g on this machine, "
                "spark.executor.memory on a cluster"
            )
        raise ToolexError(f"Spark failed on {what}: {cause[:500]}{hint}") from exc


def _root_cause(exc: BaseException) -> str:
    """The innermost Java exception's message when there is one (a Py4JJavaError says only
    "An error occurred while calling o484.localCheckpoint"), else the first line."""
    java = getattr(exc, "java_exception", None)
    while java is not None and java.getCause() is not None:
        java = java.getCause()
    text = str(java.toString()) if java is not None else str(exc)
    return next((ln.strip() for ln in text.splitlines() if ln.strip()), type(exc).__name__)


def _refuse_hazards(name: str) -> None:
    left = [h for h in hazards(sql_text(name), "spark") if h.code not in RESOLVED_BY_SPARK_ENGINE]
    if left:
        raise ToolexError(
            f"{name} cannot run unchanged on Spark: {'; '.join(h.message for h in left)}. "
            "Make the file portable, or keep a Spark variant beside it with a test that both "
            "give the same rows"
        )
