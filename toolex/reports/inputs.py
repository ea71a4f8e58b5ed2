"""What every report section needs: the store, the choices (benchmarks, runs, K, pairs, seed),
the metric rows computed once, and a way to run the shipped report SQL over them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypedDict

import pyarrow as pa

from toolex import metrics
from toolex.errors import ToolexError
from toolex.sqlrunner import SqlValue
from toolex.store import Store

if TYPE_CHECKING:
    from typing_extensions import Unpack


@dataclass
class Table:
    """One report table: a file stem, a title for report.md, rows, and a note saying what it is."""

    name: str
    title: str
    rows: list[dict[str, Any]]
    note: str = ""
    columns: list[str] | None = None  # order for report.md; defaults to the rows' keys
    md_rows: list[dict[str, Any]] | None = None  # a readable subset for report.md (files: all)

    def cols(self) -> list[str]:
        if self.columns:
            return self.columns
        return list(self.rows[0]) if self.rows else []


class StatOptions(TypedDict, total=False):
    """How the report's statistics are drawn, each passed on only when given (the defaults
    are :class:`ReportContext`'s)."""

    random_from: str  # where the equivalent-rank section draws its random tool
    n_perm: int
    n_boot: int
    exact_max: int
    alpha: float


class ContextOptions(StatOptions, total=False):
    """:meth:`ReportContext.create`'s further choices (defaults: :class:`ReportContext`'s)."""

    expansion: str
    k: int
    seed: int


@dataclass
class ReportContext:
    store: Store
    benchmarks: list[str]
    run_ids: list[str]
    expansion: str = "default"
    k: int = 10
    pairs: list[tuple[str, str]] = field(default_factory=list)
    seed: int = 0
    random_from: str = "pool"  # where the equivalent-rank section draws its random tool
    n_perm: int = 1000
    n_boot: int = 1000
    exact_max: int = 12
    alpha: float = 0.05
    # the metric rows and pairs the report SQL reads, once register_metrics() has run
    _inputs: dict[str, pa.Table] | None = field(default=None, init=False, repr=False)

    @classmethod
    def create(
        cls,
        store: Store,
        *,
        benchmarks: Sequence[str] = (),
        run_ids: Sequence[str] = (),
        pairs: Sequence[tuple[str, str]] = (),
        **options: Unpack[ContextOptions],
    ) -> ReportContext:
        """Fill in defaults from the store (every benchmark, every run of those benchmarks) and
        check that what was named exists, with a message listing what does."""
        benchmarks = [store.require_benchmark(b) for b in benchmarks] or store.benchmarks()
        if "expansion" in options:
            scope = benchmarks[0] if len(benchmarks) == 1 else None
            store.require_expansion(scope, options["expansion"])
        store.require_runs([*run_ids, *(x for p in pairs for x in p)])
        run_bench = _run_benchmarks(store)
        if not run_ids:
            run_ids = [r for r, b in run_bench.items() if b in benchmarks]
        for base, tuned in pairs:
            if run_bench[base] != run_bench[tuned]:
                raise ToolexError(
                    f"--pair {base}:{tuned} compares runs of different benchmarks "
                    f"({run_bench[base]} vs {run_bench[tuned]})"
                )
        run_ids = list(dict.fromkeys([*run_ids, *(x for p in pairs for x in p)]))
        return cls(store, benchmarks, run_ids, pairs=list(pairs), **options)

    # -- metric rows, computed once and registered for the report SQL ------------------------

    @cached_property
    def summary(self) -> list[metrics.MeanScore]:
        if not self.run_ids:
            return []
        return metrics.summary(self.store, self.run_ids, ks=(self.k,), expansion=self.expansion)

    @cached_property
    def per_query(self) -> pa.Table:
        if not self.run_ids:
            return pa.table({c: [] for c in ("run_id", "query_id", "metric", "k", "old", "new")})
        return metrics.per_query(self.store, self.run_ids, ks=(self.k,), expansion=self.expansion)

    @cached_property
    def run_pairs(self) -> list[tuple[str, str]]:
        """Pairs of runs whose per-query differences the significance section tests: every
        named pair (fine-tuned first), plus every pair of runs of one benchmark when there are at
        most four runs, else each run against the benchmark's first run (the test is
        quadratic in runs, the report must stay fast)."""
        bench = _run_benchmarks(self.store)
        out = [(tuned, base) for base, tuned in self.pairs]
        for b in self.benchmarks:
            runs = [r for r in self.run_ids if bench.get(r) == b]
            if len(runs) <= 4:
                extra = [
                    (runs[i], runs[j]) for i in range(len(runs)) for j in range(i + 1, len(runs))
                ]
            else:
                extra = [(r, runs[0]) for r in runs[1:]]
            out += [p for p in extra if p not in out and p[::-1] not in out]
        return out

    def register_metrics(self) -> None:
        """Expose the metric rows and the chosen pairs to the report SQL that follows (computed
        here, once; registered by :meth:`rows` and :meth:`run` around each query as views over
        Arrow tables: nothing is written to the store)."""
        if self._inputs is not None:
            return
        self._inputs = {
            "report_summary": pa.Table.from_pylist(
                [dict(zip(SUMMARY_SCHEMA.names, r, strict=True)) for r in self.summary],
                schema=SUMMARY_SCHEMA,
            ),
            "report_per_query": self.per_query,
            "report_pairs": pa.Table.from_pylist(
                [{"base": b, "finetuned": f} for b, f in self.pairs],
                schema=pa.schema([("base", pa.string()), ("finetuned", pa.string())]),
            ),
            "report_run_pairs": pa.Table.from_pylist(
                [{"run_a": a, "run_b": b} for a, b in self.run_pairs],
                schema=pa.schema([("run_a", pa.string()), ("run_b", pa.string())]),
            ),
        }

    def rows(self, sql_file: str, **params: SqlValue) -> list[dict[str, object]]:
        """Rows of one shipped report SQL file (``reports/NN_name.sql``) with bound parameters."""
        with self.store.registered_tables(self._inputs or {}):
            return self.store.rows(f"reports/{sql_file}", params)

    def run(self, sql_file: str, **params: SqlValue) -> None:
        """Run a report SQL file that fills a TEMP table (connection-local, so a read-only store
        is fine)."""
        with self.store.registered_tables(self._inputs or {}):
            self.store.execute(f"reports/{sql_file}", params).fetchall()


def _run_benchmarks(store: Store) -> dict[str, str]:
    """run id -> the benchmark it ranks, for every stored run (in run id order)."""
    return {r["run_id"]: r["benchmark"] for r in store.rows("reports/01_run_benchmarks.sql")}


SUMMARY_SCHEMA = pa.schema(
    [
        ("run_id", pa.string()),
        ("category", pa.string()),
        ("metric", pa.string()),
        ("k", pa.int64()),
        ("old", pa.float64()),
        ("new", pa.float64()),
        ("gain", pa.float64()),
        ("n_queries", pa.int64()),
        ("n_no_results", pa.int64()),
    ]
)
