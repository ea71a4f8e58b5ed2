"""`toolex eval --engine spark` against the DuckDB engine, on the demo store and on a generated
store shaped like ToolEq (~5 combinations per query, 10 runs of 100): every per-query score, old
and new, and every summary row equal to 1e-12, all six metric families.

TOOLEX_SPARK_QUERIES sets the generated store's size: 1,400 queries by default (a fifth of ToolEq,
1.4 M results; the same code paths in a third of the CI time), ToolEq's own 7,000 before a
release (`TOOLEX_SPARK_QUERIES=7000 pytest tests/engines`), as the fuzz and snapshot tests scale.

The one module that starts Spark (the session is conftest.py's, shared); the stores are built
once per module.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pytest
from click.testing import CliRunner

from engines import tooleq_input
from toolex.cli import cli
from toolex.cli import eval_output as eval_module
from toolex.store import Store

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

pytestmark = pytest.mark.slow

TOL = 1e-12
# Every family, cut and uncut; the uncut RR and AP send whole runs to Spark.
DEMO_METRICS = ["nDCG@10", "R@10", "Comp@10", "P@5", "RR", "AP"]
# The paper's three at 10 (what `toolex eval` scores by default): Spark receives the top 10
# of each run of 100.
TOOLEQ_METRICS = ["nDCG@10", "R@10", "Comp@10"]
QUERIES = int(os.environ.get("TOOLEX_SPARK_QUERIES", "1400"))


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The demo's store (toolex demo), with BM25 only: its expansion and both run levels,
    without the seconds WordLlama spends embedding the library."""
    from toolex.cli.demo import run_demo

    db = tmp_path_factory.mktemp("demo") / "demo.duckdb"
    with Store.open(db) as store:
        run_demo(store, retrievers=("bm25",))
    return str(db)


@pytest.fixture(scope="module")
def tooleq_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = tmp_path_factory.mktemp("tooleq") / "tooleq.duckdb"
    with Store.open(db) as store:
        counts = tooleq_input.build(store, n_queries=QUERIES)
    assert counts["queries"] == QUERIES and counts["runs"] == 10
    assert 4.3 * QUERIES < counts["combinations"] < 5.7 * QUERIES  # ToolEq: ~35,000 for 7,000
    assert counts["run_results"] > 0.98 * QUERIES * 10 * 100  # 1 % of queries left unanswered
    return str(db)


def eval_rows(
    monkeypatch: pytest.MonkeyPatch, db: str, engine: str, metrics: list[str]
) -> list[dict[str, Any]]:
    """The rows `toolex eval --per-query --format json` prints: the summary rows, then one per
    query. Caught on their way to the printer, which rounds floats to 12 significant digits (a
    last-digit difference would flip a rounding and hide what is compared), and not printed:
    the printer is the same for both engines, and JSON of 200,000 rows takes seconds."""
    caught: list[dict[str, Any]] = []

    def spy(rows: Sequence[dict[str, Any]], fmt: str, *args: object, **kwargs: object) -> None:
        assert fmt == "json"
        caught.extend(rows)

    monkeypatch.setattr(eval_module, "emit_rows", spy)
    args = ["eval", "--db", db, "--all-runs", "--per-query", "--format", "json"]
    args += ["--engine", engine] + [x for m in metrics for x in ("-m", m)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert caught
    return caught


def assert_same_scores(spark_rows: list[dict[str, Any]], duck_rows: list[dict[str, Any]]) -> None:
    def keyed(rows: list[dict[str, Any]]) -> dict[tuple[str, str, str, str], dict[str, Any]]:
        return {(r["run"], r["category"], r["query"], r["metric"]): r for r in rows}

    spark, duck = keyed(spark_rows), keyed(duck_rows)
    assert spark.keys() == duck.keys()
    worst = 0.0
    for key, want in duck.items():
        got = spark[key]
        assert (got["n_queries"], got["n_no_results"]) == (want["n_queries"], want["n_no_results"])
        for column in ("old", "new", "gain"):
            worst = max(worst, abs(got[column] - want[column]))
    assert worst <= TOL, f"Spark and DuckDB differ by up to {worst:.1e}"


def test_spark_scores_the_demo_store_as_duckdb_does(
    spark: SparkSession, demo_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    duck = eval_rows(monkeypatch, demo_db, "duckdb", DEMO_METRICS)
    got = eval_rows(monkeypatch, demo_db, "spark", DEMO_METRICS)
    assert_same_scores(got, duck)
    per_query = [r for r in got if r["query"] is not None]
    assert len(per_query) == 2 * 300 * len(DEMO_METRICS)  # two runs, every query, each metric
    assert any(r["new"] > r["old"] for r in per_query)  # the expansion changes scores


def test_spark_scores_a_tooleq_shaped_store_as_duckdb_does(
    spark: SparkSession, tooleq_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    duck = eval_rows(monkeypatch, tooleq_db, "duckdb", TOOLEQ_METRICS)
    got = eval_rows(monkeypatch, tooleq_db, "spark", TOOLEQ_METRICS)
    assert_same_scores(got, duck)
    per_query = [r for r in got if r["query"] is not None]
    assert len(per_query) == 10 * QUERIES * len(TOOLEQ_METRICS)
    assert sum(r["new"] > r["old"] for r in per_query) > 1.4 * QUERIES  # >10,000 at ToolEq size
    assert sum(r["n_no_results"] for r in per_query) > 0  # unanswered queries score 0, not vanish
