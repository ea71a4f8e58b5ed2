"""The shipped SQL, written for DuckDB, transpiled to other engines with sqlglot (`toolex sql
--show FILE --dialect D`), raising on constructs sqlglot cannot express there instead of emitting
silently wrong SQL."""

from __future__ import annotations

import sqlglot
from sqlglot.errors import ErrorLevel, SqlglotError, UnsupportedError

from toolex.errors import ToolexError
from toolex.resources import resource_root, sql_text
from toolex.sqlaccess.readonly import quiet_sqlglot

# Dialects offered by `toolex sql --show --dialect`: the engines users move to when one machine is
# not enough (sqlglot knows more; these are the ones the transpile test covers).
DIALECTS = (
    "duckdb",
    "postgres",
    "spark",
    "databricks",
    "trino",
    "presto",
    "bigquery",
    "snowflake",
)
# The SQL a user takes to a bigger engine: assembly and RRF (stages, expansions), metrics,
# reports, exports.
# Each of these files must come out of the strict dialects as valid SQL (a test holds them to
# it); elsewhere sqlglot may refuse a construct it cannot express (e.g. an ordered aggregate in
# BigQuery), and then `--show` says so, naming the file, instead of printing wrong SQL.
STRICT_DIALECTS = ("duckdb", "spark", "databricks", "snowflake")
PORTABLE_FOLDERS = ("stages", "expansions", "metrics", "reports", "exports")


def shipped_sql_names() -> list[str]:
    """Every shipped SQL file, as ``folder/file.sql`` relative to sql/."""
    root = resource_root("sql")
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.sql"))


def transpile_shipped(name: str, dialect: str, *, pretty: bool = True) -> str:
    """The shipped DuckDB SQL file ``name`` (e.g. ``stages/4_assemble/01_cartesian.sql``) in
    ``dialect``."""
    if dialect not in DIALECTS:
        raise ToolexError(f"unknown dialect {dialect!r}; choose one of {', '.join(DIALECTS)}")
    try:
        text = sql_text(name)
    except FileNotFoundError as exc:
        raise ToolexError(
            f"no shipped SQL file {name!r}; available: {', '.join(shipped_sql_names())}"
        ) from exc
    return transpile(text, dialect, pretty=pretty, source=name)


def transpile(text: str, dialect: str, *, pretty: bool = True, source: str = "<sql>") -> str:
    """DuckDB SQL ``text`` rewritten for ``dialect``; statements end with ``;``."""
    try:
        with quiet_sqlglot():
            out = sqlglot.transpile(
                text,
                read="duckdb",
                write=dialect,
                pretty=pretty,
                unsupported_level=ErrorLevel.RAISE,
            )
    except (UnsupportedError, SqlglotError) as exc:
        raise ToolexError(f"{source}: sqlglot cannot express this SQL in {dialect}: {exc}") from exc
    return ";\n\n".join(s for s in out if s.strip()) + ";\n"
