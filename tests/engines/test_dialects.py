"""The portability hazards of DuckDB SQL on other engines, each found on a minimal statement, and
the shipped metric SQL free of any the Spark engine does not resolve itself. No Spark needed."""

from __future__ import annotations

import pytest
import sqlglot
from click.testing import CliRunner

from toolex.cli.sql import sql as sql_cmd
from toolex.engines.dialects import RESOLVED_BY_SPARK_ENGINE, hazards
from toolex.resources import sql_files, sql_text
from toolex.sqlaccess import transpile_shipped


@pytest.mark.parametrize(
    ("code", "statement"),
    [
        ("table_macro", "CREATE TEMP MACRO m(p_a) AS TABLE SELECT * FROM t WHERE a = p_a"),
        ("temp_table", "CREATE OR REPLACE TEMP TABLE t2 AS SELECT 1 AS a"),
        ("recursive", "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) FROM r"),
        ("materialized", "WITH h AS MATERIALIZED (SELECT 1 AS a) SELECT a FROM h"),
        ("join_unnest_on", "SELECT * FROM t JOIN unnest([1, 2]) AS c(k) ON t.a <= c.k"),
        ("ordered_aggregate", "SELECT list(a ORDER BY b) FROM t"),
        ("decimal_literal", "SELECT 1.0 / a FROM t"),
        ("decimal_literal", "SELECT avg(CASE WHEN a > 0 THEN 1.0 ELSE 0.0 END) FROM t"),
        ("passthrough", "SELECT list_position(['x'], a) FROM t"),
    ],
)
def test_each_hazard_is_found_for_spark(code: str, statement: str) -> None:
    assert code in {h.code for h in hazards(statement, "spark")}
    assert hazards(statement, "duckdb") == []


@pytest.mark.parametrize(
    "statement",
    [
        "SELECT * FROM t CROSS JOIN unnest([1, 2]) AS c(k) WHERE t.a <= c.k",
        "SELECT CAST(1 AS DOUBLE) / a, coalesce(b / a, 0.0), 1.5e0 / a FROM t",
        "SELECT array_position(['x'], a), list_contains(l, a), log2(a) FROM t",
    ],
)
def test_the_portable_forms_have_none(statement: str) -> None:
    assert hazards(statement, "spark") == []


def test_what_the_hazards_warn_about_is_real() -> None:
    """Measured, not assumed: sqlglot drops the ON of JOIN unnest and the ORDER BY of list()."""
    on = sqlglot.transpile(
        "SELECT * FROM t JOIN unnest(l) AS c(k) ON t.a <= c.k", read="duckdb", write="spark"
    )[0]
    assert "t.a <= c.k" not in on
    ordered = sqlglot.transpile("SELECT list(a ORDER BY b) FROM t", read="duckdb", write="spark")
    assert "ORDER BY" not in ordered[0]


def test_the_metric_sql_has_only_hazards_the_spark_engine_resolves() -> None:
    names = [f"metrics/{p.name}" for p in sql_files("metrics")]
    names += [f"metrics/select/{n}.sql" for n in ("per_query", "summary")]
    for name in names:
        left = [
            h for h in hazards(sql_text(name), "spark") if h.code not in RESOLVED_BY_SPARK_ENGINE
        ]
        assert not left, f"{name}: {left}"


def test_show_warns_on_stderr_and_prints_the_sql_on_stdout() -> None:
    name = "metrics/040_metric_hits.sql"
    result = CliRunner().invoke(sql_cmd, ["--show", name, "--dialect", "spark"])
    assert result.exit_code == 0, result.output
    assert result.stdout == transpile_shipped(name, "spark")
    assert "warning: metrics/040_metric_hits.sql: metric_hits is a DuckDB macro" in result.stderr
    assert "refuses AS MATERIALIZED" in result.stderr
    plain = CliRunner().invoke(
        sql_cmd, ["--show", "exports/20_run_results.sql", "--dialect", "spark"]
    )
    assert plain.exit_code == 0 and plain.stderr == ""


def test_the_spark_engine_drops_only_the_order_of_a_mean() -> None:
    # DuckDB sums a mean's terms in query_id order (sql/metrics/100): Spark's avg has no such
    # syntax, and its mean differs at most in the last bit (test_spark.py compares within TOL)
    from toolex.engines.spark.engine import spark_sql

    tree = sqlglot.parse_one("SELECT avg(x ORDER BY q) AS m, max(x) FROM t", "duckdb")
    assert spark_sql(tree) == "SELECT AVG(x) AS m, MAX(x) FROM t"
