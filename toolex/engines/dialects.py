"""What the shipped DuckDB SQL may not mean, or not run, once sqlglot writes it for another engine.

sqlglot rewrites syntax, but some DuckDB constructs come out as SQL the target refuses, and some
as SQL the target runs with another meaning. Measured with sqlglot 30 writing Spark: the ON of
``JOIN unnest(..) ON c`` is dropped (Spark's LATERAL VIEW has none), so every row joins; the
ORDER BY of ``list(x ORDER BY y)`` is dropped (collect_list has none); ``1.0`` stays a DECIMAL,
so ``1.0 / 3`` is 0.333333 and an average of DECIMAL(2,1) keeps five decimals; DuckDB's own
functions pass through by name (Spark has no list_position, and its hash() is another hash).

:func:`hazards` names each such construct of the DuckDB SQL for a target dialect. ``toolex sql
--show --dialect`` prints them as warnings; the Spark engine refuses a file with any hazard it
does not itself resolve (:data:`RESOLVED_BY_SPARK_ENGINE`), so a difference is never silent.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import cache

import sqlglot
from sqlglot import exp

from toolex.errors import ToolexError
from toolex.resources import resource_root

SPARK_LIKE = frozenset({"spark", "databricks"})
# Hazards the Spark engine rewrites before it runs a file (toolex.engines.macros expands the
# macros into views; a MATERIALIZED hint only steers DuckDB's planner, the rows are the same).
RESOLVED_BY_SPARK_ENGINE = frozenset({"table_macro", "materialized"})


@dataclass(frozen=True)
class Hazard:
    """One construct of a statement that ``dialect`` refuses or reads otherwise than DuckDB."""

    code: str
    message: str


def hazards(sql: str, dialect: str) -> list[Hazard]:
    """The hazards of the DuckDB ``sql`` (one or more statements) when written for ``dialect``,
    in statement order, each named once."""
    if dialect == "duckdb":
        return []
    try:
        statements = [s for s in sqlglot.parse(sql, read="duckdb") if s is not None]
    except sqlglot.errors.SqlglotError as exc:
        raise ToolexError(f"cannot parse the SQL to check it for {dialect}: {exc}") from exc
    found: dict[str, Hazard] = {}
    for statement in statements:
        for hazard in _statement_hazards(statement, dialect):
            found.setdefault(hazard.message, hazard)
    return list(found.values())


def _statement_hazards(stmt: exp.Expr, dialect: str) -> Iterator[Hazard]:
    spark = dialect in SPARK_LIKE
    macros = shipped_macros()
    if isinstance(stmt, exp.Create) and stmt.args.get("kind") == "MACRO":
        name = _macro_name(stmt)
        done = "; toolex's Spark engine runs each call as a view of the body" if spark else ""
        yield Hazard("table_macro", f"{name} is a DuckDB macro, which {dialect} lacks{done}")
    temporary = isinstance(stmt, exp.Create) and stmt.find(exp.TemporaryProperty) is not None
    if spark and temporary and stmt.args.get("kind") == "TABLE":
        yield Hazard(
            "temp_table",
            "CREATE TEMP TABLE becomes a temporary VIEW on Spark: computed again at every "
            "read, never stored, and OR REPLACE is dropped (a second run fails)",
        )
    for node in stmt.walk():
        hazard = _node_hazard(node, stmt, dialect, macros)
        if hazard is not None:
            yield hazard


def _node_hazard(
    node: exp.Expr, stmt: exp.Expr, dialect: str, macros: Collection[str]
) -> Hazard | None:
    """What one node of ``stmt`` risks on ``dialect``: at most one hazard per node."""
    spark = dialect in SPARK_LIKE
    if isinstance(node, exp.Anonymous):
        if node.name.lower() not in macros:
            return Hazard(
                "passthrough",
                f"{node.name.lower()}() is DuckDB's and is passed through by name: {dialect} "
                "may lack it, or compute something else",
            )
        if isinstance(stmt, exp.Create):
            return None
        done = " (the Spark engine expands it)" if spark else ""
        return Hazard("table_macro", f"calls the DuckDB macro {node.name.lower()}(){done}")
    if isinstance(node, exp.With) and node.args.get("recursive") and spark:
        return Hazard("recursive", "WITH RECURSIVE needs Spark 4.1 or newer")
    if isinstance(node, exp.CTE) and node.args.get("materialized") and dialect != "postgres":
        done = "; toolex's Spark engine drops it" if spark else ""
        return Hazard("materialized", f"{dialect} refuses AS MATERIALIZED (a planner hint){done}")
    if spark:
        return _spark_hazard(node)
    if dialect == "postgres" and isinstance(node, exp.Struct):
        return Hazard("struct_literal", "Postgres has no STRUCT literal; it will not run")
    return None


def _spark_hazard(node: exp.Expr) -> Hazard | None:
    if isinstance(node, exp.Join) and _unnest(node.this) and node.args.get("on"):
        return Hazard(
            "join_unnest_on",
            "JOIN unnest(..) ON: sqlglot writes a LATERAL VIEW and drops the ON condition, "
            "so every row joins; write CROSS JOIN unnest(..) with the condition in WHERE",
        )
    if isinstance(node, exp.ArrayAgg) and isinstance(node.this, exp.Order):
        return Hazard(
            "ordered_aggregate",
            "list()/array_agg() ORDER BY becomes collect_list without it: Spark's list "
            "comes back in no defined order",
        )
    if _decimal_operand(node):
        return Hazard(
            "decimal_literal",
            f"{node.this} is a DECIMAL on Spark, not a DOUBLE: a division by it keeps 6 "
            "decimals and an average of it 4 more than it has; write CAST(.. AS DOUBLE)",
        )
    return None


def _unnest(node: exp.Expr | None) -> bool:
    return isinstance(node, exp.Unnest) or (
        isinstance(node, exp.Table) and isinstance(node.this, exp.Unnest)
    )


def _decimal_operand(node: exp.Expr) -> bool:
    """A number with a decimal point (a DECIMAL on Spark) whose type reaches the result: an
    operand of a division or a branch of a CASE (``coalesce(x, 0.0)`` takes x's DOUBLE)."""
    if not (isinstance(node, exp.Literal) and node.is_number and "." in node.this):
        return False
    if "e" in node.this.lower():  # 1.5e0 is a DOUBLE on both engines
        return False
    parent = node.parent
    if isinstance(parent, exp.Div):
        return True
    if isinstance(parent, exp.If) and node.arg_key == "true":
        return True
    return isinstance(parent, exp.Case) and node.arg_key == "default"


def _macro_name(create: exp.Create) -> str:
    target = create.this.this if isinstance(create.this, exp.UserDefinedFunction) else create.this
    return target.name.lower() if isinstance(target, exp.Expr) else str(target).lower()


@cache
def shipped_macros() -> frozenset[str]:
    """Names of the DuckDB macros the shipped SQL defines (their calls look like functions)."""
    names = set()
    for path in sorted(resource_root("sql").rglob("*.sql")):
        text = path.read_text(encoding="utf-8")
        if "MACRO" not in text.upper():
            continue
        for stmt in sqlglot.parse(text, read="duckdb"):
            if isinstance(stmt, exp.Create) and stmt.args.get("kind") == "MACRO":
                names.add(_macro_name(stmt))
    return frozenset(names)
