"""Read-only SQL access to a store, and the shipped SQL transpiled to other engines.

Two independent guards keep `toolex sql` from changing a store or reaching the machine:

1. sqlglot parses the statement, and anything that is not a query (SELECT/WITH/VALUES/DESCRIBE/
   SHOW/SUMMARIZE/EXPLAIN of a query/a reading PRAGMA) is refused before it reaches DuckDB; so is
   anything sqlglot cannot parse (it never raises anything but ToolexError, whatever the text).
2. DuckDB itself: the store is opened ``read_only`` and locked down (``toolex.store.LOCKED_DOWN``:
   external access off, no extension auto-install or auto-load, configuration locked), so
   even a statement sqlglot misreads cannot write the store, read or write another file
   (read_text, glob, read_blob, COPY TO, EXPORT DATABASE, ATTACH), fetch a URL, load an
   extension or SET its way back out.

``allow_files=True`` (``--allow-files``) keeps the store read-only but lets queries read files;
``write=True`` lifts every guard.

The shipped SQL is written for DuckDB; :func:`transpile_shipped` rewrites a file for another
engine with sqlglot, raising on constructs sqlglot cannot express there instead of emitting
silently wrong SQL.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pyarrow as pa
import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel, SqlglotError, UnsupportedError

from toolex.errors import ToolexError
from toolex.resources import resource_root, sql_text
from toolex.store import Store

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

_QUERY_TYPES = (exp.Query, exp.Values, exp.Describe, exp.Show, exp.Summarize)
# Node types that write, anywhere in the tree (a query can hide none of them in DuckDB, but a
# statement sqlglot parses leniently might).
_WRITE_NODES = (
    exp.Insert,
    exp.Delete,
    exp.Update,
    exp.Merge,
    exp.Create,
    exp.Drop,
    exp.Alter,
    exp.Copy,
    exp.Attach,
    exp.Detach,
    exp.Set,
    exp.TruncateTable,
    exp.Into,
)
# PRAGMAs that only read (DuckDB's table_info, show_tables, ...); others change settings.
_READ_PRAGMAS = frozenset(
    {
        "table_info",
        "show_tables",
        "show_tables_expanded",
        "database_size",
        "storage_info",
        "version",
        "show",
        "database_list",
        "functions",
        "platform",
        "metadata_info",
    }
)


class SqlRefused(ToolexError):
    """A statement `toolex sql` will not run without ``--write``."""


class _CommandFallback(logging.Filter):
    """Drops sqlglot's "falling back to parsing as a 'Command'" warning: statements it cannot
    parse in full (EXPLAIN, some DuckDB DDL) are handled here on purpose, so the warning is noise
    on the user's terminal. Installed only around our own sqlglot calls; other records pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Falling back to parsing as a 'Command'" not in record.getMessage()


@contextlib.contextmanager
def _quiet_sqlglot() -> Iterator[None]:
    logger, hush = logging.getLogger("sqlglot"), _CommandFallback()
    logger.addFilter(hush)
    try:
        yield
    finally:
        logger.removeFilter(hush)


def check_read_only(sql: str) -> None:
    """Raise :class:`SqlRefused` unless ``sql`` is exactly one statement that only reads.

    Only ToolexError ever leaves it: sqlglot's tokenizer and parser raise several types on odd
    input (an unterminated string or ``$$``, a stray byte, thousands of nested parentheses), and
    a statement that cannot be vetted is refused with sqlglot's reason."""
    try:
        with _quiet_sqlglot():
            statements = [s for s in sqlglot.parse(sql, read="duckdb") if s is not None]
            if len(statements) != 1:
                raise SqlRefused(f"give exactly one statement (got {len(statements)})")
            _check_statement(statements[0], sql)
    except ToolexError:
        raise
    except (SqlglotError, RecursionError) as exc:
        raise ToolexError(f"cannot parse the SQL: {_short(exc)}") from None
    except Exception as exc:  # sqlglot's own failure on odd text: refuse, never crash
        raise ToolexError(
            f"cannot parse the SQL ({type(exc).__name__}: {_short(exc)}); the read-only "
            "check refuses what it cannot read"
        ) from None


def _short(exc: BaseException, limit: int = 300) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[:limit] + "..."


def _check_statement(stmt: exp.Expr, sql: str) -> None:
    kind = _kind(stmt)
    hint = "; add --write to run it against the store (opened for writing)"
    if isinstance(stmt, exp.Command) and str(stmt.this).upper() == "EXPLAIN":
        rest = stmt.expression.name if isinstance(stmt.expression, exp.Literal) else ""
        rest = (rest or str(stmt.expression or "")).strip()
        if rest.upper().startswith("ANALYZE"):
            rest = rest[len("ANALYZE") :].strip()
        check_read_only(rest)  # EXPLAIN ANALYZE runs the statement, so check what it explains
        return
    if isinstance(stmt, exp.Pragma):
        name = stmt.this.name if isinstance(stmt.this, exp.Expression) else str(stmt.this)
        name = (name or "").lower()
        if name not in _READ_PRAGMAS:
            raise SqlRefused(f"{stmt.sql(dialect='duckdb')!r} may change settings; refused{hint}")
        return
    if not isinstance(stmt, _QUERY_TYPES):
        raise SqlRefused(f"{kind} is not a query; toolex sql is read-only by default{hint}")
    for node in stmt.walk():
        if isinstance(node, _WRITE_NODES):
            raise SqlRefused(
                f"the query contains {_kind(node)}, which writes; toolex sql is read-only{hint}"
            )


def _kind(node: exp.Expr) -> str:
    if isinstance(node, exp.Command):
        return f"{str(node.this).upper()} statement"
    return f"{node.key.upper()} statement" if node.key else type(node).__name__


def run_sql(
    db: str,
    sql: str,
    *,
    write: bool = False,
    allow_files: bool = False,
    params: Mapping[str, Any] | Sequence[Any] | None = None,
) -> pa.Table:
    """Run one statement against the store at ``db``; rows come back as an Arrow table.

    Without ``write`` the statement must pass :func:`check_read_only` and the store is opened
    read-only and locked down (``allow_files`` lets the query read files); with it, the store is
    opened for writing and the statement runs in a transaction.
    """
    if not write:
        check_read_only(sql)
    store = Store.open(db, read_only=not write, allow_files=allow_files)
    try:
        if write:
            with store.transaction():
                return store.user_sql(sql, params)
        return store.user_sql(sql, params)
    except ToolexError:
        raise
    except Exception as exc:  # DuckDB's own errors name the table/column; pass them on cleanly
        text = _short(exc, 1000)
        if any(w in text for w in _LOCKED_WORDS):
            text += (
                "; a read-only `toolex sql` reaches nothing but the store itself (no files, "
                "URLs, extensions or settings): add --allow-files to let a query read files"
            )
        raise ToolexError(f"the SQL failed: {text}") from exc
    finally:
        store.close()


# DuckDB's words when LOCKED_DOWN refuses something.
_LOCKED_WORDS = ("disabled by configuration", "disabled through configuration", "has been locked")


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
        with _quiet_sqlglot():
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
