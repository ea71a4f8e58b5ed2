"""The read-only check of `toolex sql`: guard 1 of the two (toolex.sqlaccess), sqlglot's parse
of the statement, refusing anything that is not one query, a query that writes, and, unless
files are allowed, a query that reads a file.

What a read-only query may call is an allow-list, not a list of what is known to read files:
every table function DuckDB has (asked of DuckDB itself, so a new one is covered the day it
ships) is refused unless it is on :data:`TABLE_FUNCTIONS` (series, unnest, JSON trees, the
catalog's ``duckdb_*`` and reading ``pragma_*``). A deny-list of file readers missed ``query()``
and ``query_table()``, which run a statement or open a database given as text: through them a
read-only query read the store's raw bytes, and a note deleted from every table came back from
the file's free blocks.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterator

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from toolex.errors import ToolexError
from toolex.store import table_functions

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
# PRAGMAs that only read the catalog (DuckDB's table_info, show_tables, ...); others change
# settings. Not storage_info nor metadata_info: they read the file's blocks, whose statistics
# keep values of rows since deleted.
_READ_PRAGMAS = frozenset(
    {
        "table_info",
        "show_tables",
        "show_tables_expanded",
        "database_size",
        "version",
        "show",
        "database_list",
        "functions",
        "platform",
    }
)
# The table functions a read-only query may call: they compute rows from their arguments or
# read DuckDB's own catalog and state, never a file. Every other table function is refused.
TABLE_FUNCTIONS = frozenset(
    {
        "range",
        "generate_series",
        "unnest",
        "repeat",
        "repeat_row",
        "json_each",
        "json_tree",
        "summary",
        "histogram",
        "histogram_values",
        "pg_timezone_names",
        "icu_calendar_names",
        "test_all_types",
        "test_vector_types",
        *(f"pragma_{name}" for name in _READ_PRAGMAS),
    }
)
CATALOG_PREFIX = "duckdb_"  # duckdb_tables(), duckdb_columns(), ...: the catalog, in memory


# DuckDB's functions that read files (read_csv, read_blob, read_text, parquet_scan, glob,
# sniff_csv, parquet_metadata, read_duckdb ...). DuckDB's lock-down refuses them on any file but
# the store's own (its database file and write-ahead log stay readable to the connection); guard
# 1 refuses them outright, so a read-only query reaches the store's rows only, never its raw
# bytes: free blocks of the file still hold rows since deleted or redacted.
FILE_FUNCTION = re.compile(r"read_\w+|\w+_scan|glob|sniff_csv|parquet_\w+|st_read\w*")


class SqlRefused(ToolexError):
    """A statement `toolex sql` will not run without ``--write``."""


class _CommandFallback(logging.Filter):
    """Drops sqlglot's "falling back to parsing as a 'Command'" warning: statements it cannot
    parse in full (EXPLAIN, some DuckDB DDL) are handled here on purpose, so the warning is noise
    on the user's terminal. Installed only around our own sqlglot calls; other records pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Falling back to parsing as a 'Command'" not in record.getMessage()


@contextlib.contextmanager
def quiet_sqlglot() -> Iterator[None]:
    logger, hush = logging.getLogger("sqlglot"), _CommandFallback()
    logger.addFilter(hush)
    try:
        yield
    finally:
        logger.removeFilter(hush)


def check_read_only(sql: str, *, allow_files: bool = False) -> None:
    """Raise :class:`SqlRefused` unless ``sql`` is exactly one statement that only reads, and,
    without ``allow_files``, reads no file (:data:`FILE_FUNCTION`).

    Only ToolexError ever leaves it: sqlglot's tokenizer and parser raise several types on odd
    input (an unterminated string or ``$$``, a stray byte, thousands of nested parentheses), and
    a statement that cannot be vetted is refused with sqlglot's reason."""
    try:
        with quiet_sqlglot():
            statements = [s for s in sqlglot.parse(sql, read="duckdb") if s is not None]
            if len(statements) != 1:
                raise SqlRefused(f"give exactly one statement (got {len(statements)})")
            _check_statement(statements[0], allow_files)
    except ToolexError:
        raise
    except (SqlglotError, RecursionError) as exc:
        raise ToolexError(f"cannot parse the SQL: {short(exc)}") from None
    except Exception as exc:  # sqlglot's own failure on odd text: refuse, never crash
        raise ToolexError(
            f"cannot parse the SQL ({type(exc).__name__}: {short(exc)}); the read-only "
            "check refuses what it cannot read"
        ) from None


def short(exc: BaseException, limit: int = 300) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[:limit] + "..."


def _check_statement(stmt: exp.Expr, allow_files: bool) -> None:
    kind = _kind(stmt)
    hint = "; add --write to run it against the store (opened for writing)"
    if isinstance(stmt, exp.Command) and str(stmt.this).upper() == "EXPLAIN":
        rest = stmt.expression.name if isinstance(stmt.expression, exp.Literal) else ""
        rest = (rest or str(stmt.expression or "")).strip()
        if rest.upper().startswith("ANALYZE"):
            rest = rest[len("ANALYZE") :].strip()
        # EXPLAIN ANALYZE runs the statement, so check what it explains
        check_read_only(rest, allow_files=allow_files)
        return
    if isinstance(stmt, exp.Pragma):
        name = stmt.this.name if isinstance(stmt.this, exp.Expression) else str(stmt.this)
        name = (name or "").lower()
        if name not in _READ_PRAGMAS:
            raise SqlRefused(
                f"{stmt.sql(dialect='duckdb')!r} is not a PRAGMA that only reads the catalog (it "
                f"may change settings or read the file's blocks); refused{hint}"
            )
        return
    if not isinstance(stmt, _QUERY_TYPES):
        raise SqlRefused(f"{kind} is not a query; toolex sql is read-only by default{hint}")
    for node in stmt.walk():
        if isinstance(node, _WRITE_NODES):
            raise SqlRefused(
                f"the query contains {_kind(node)}, which writes; toolex sql is read-only{hint}"
            )
        if not allow_files and (reads := _reads_a_file(node)):
            raise SqlRefused(
                f"the query reads a file ({reads}); a read-only `toolex sql` reads the store's "
                "tables only, not even the store's own file: add --allow-files to let it read "
                "files"
            )
        if not allow_files and (call := _forbidden_table_function(node)):
            raise SqlRefused(
                f"the query calls {call}, a table function a read-only `toolex sql` does not "
                "allow (it may run other SQL or read a file, the store's own raw bytes "
                "included); it reads the store's tables, series, unnest, JSON trees and the "
                "catalog (duckdb_*): add --allow-files to lift this"
            )


def files_read(sql: str) -> list[str]:
    """The paths (or glob patterns) a statement names for DuckDB to read: the string arguments
    of its file functions and the tables it names by a path. What `toolex sql --out` must not
    overwrite; [] when the statement does not parse (it is then refused anyway)."""
    try:
        with quiet_sqlglot():
            statements = [s for s in sqlglot.parse(sql, read="duckdb") if s is not None]
    except Exception:  # noqa: BLE001 - the read-only check words what does not parse
        return []
    found: list[str] = []
    for stmt in statements:
        for node in stmt.walk():
            if not _reads_a_file(node):
                continue
            if isinstance(node, exp.Table):
                found.append(node.this.name)
            else:
                found += [lit.this for lit in node.find_all(exp.Literal) if lit.is_string]
    return list(dict.fromkeys(found))


def _function_names(node: exp.Func) -> set[str]:
    """The names DuckDB may know ``node`` by: as written, and as sqlglot renders it."""
    names = {node.sql_name().lower()}
    if isinstance(node, exp.Anonymous):
        names.add(node.name.lower())
    with contextlib.suppress(Exception):
        names.add(node.sql(dialect="duckdb").split("(", 1)[0].strip().strip('"').lower())
    return names


def _forbidden_table_function(node: exp.Expr) -> str | None:
    """The table function ``node`` calls when a read-only query may not call it (not on
    :data:`TABLE_FUNCTIONS`, not the catalog's), else None."""
    if not isinstance(node, exp.Func):
        return None
    known = table_functions()
    for name in _function_names(node):
        if name in known and name not in TABLE_FUNCTIONS and not name.startswith(CATALOG_PREFIX):
            return f"{name}()"
    return None


def _reads_a_file(node: exp.Expr) -> str | None:
    """What in ``node`` reads a file, if anything: a file function, or a table named by a
    string that DuckDB reads as a path (``FROM 'runs.csv'``)."""
    if isinstance(node, exp.Func):
        function = (node.name if isinstance(node, exp.Anonymous) else node.sql_name()).lower()
        if FILE_FUNCTION.fullmatch(function):
            return f"{function}()"
    table = node.this if isinstance(node, exp.Table) else None
    if isinstance(table, exp.Identifier) and table.quoted and any(c in table.name for c in "./\\*"):
        return f"FROM {table.name!r}"
    return None


def _kind(node: exp.Expr) -> str:
    if isinstance(node, exp.Command):
        return f"{str(node.this).upper()} statement"
    return f"{node.key.upper()} statement" if node.key else type(node).__name__


# DuckDB's words when LOCKED_DOWN refuses something.
LOCKED_WORDS = ("disabled by configuration", "disabled through configuration", "has been locked")
