"""SQL a user runs against a store (`toolex sql`), and the shipped SQL transpiled to other engines.

Two independent guards keep a read-only `toolex sql` from changing a store or reaching the
machine:

1. sqlglot parses the statement (:mod:`~toolex.sqlaccess.readonly`), and anything that is not a
   query (SELECT/WITH/VALUES/DESCRIBE/SHOW/SUMMARIZE/EXPLAIN of a query/a reading PRAGMA) is
   refused before it reaches DuckDB; so is anything sqlglot cannot parse (it never raises
   anything but ToolexError, whatever the text), and so is a query that reads a file: a file
   function (read_csv, read_text, read_blob, glob, parquet_scan, sniff_csv, ...) or a table
   named by a path (``FROM 'runs.csv'``).
2. DuckDB itself: the store is opened ``read_only`` and locked down (``toolex.store.LOCKED_DOWN``:
   external access off, no extension auto-install or auto-load, configuration locked), so
   even a statement sqlglot misreads cannot write the store, read or write another file
   (read_text, glob, read_blob, COPY TO, EXPORT DATABASE, ATTACH), fetch a URL, load an
   extension or SET its way back out.

What the read-only lock permits: reading the store's tables and views, and DuckDB's own catalog
functions (``duckdb_tables()``, ``pragma_version()``, ``PRAGMA table_info``), nothing else.
DuckDB's lock-down still lets a connection read its own database file and write-ahead log
(``read_blob('toolex.duckdb')`` passes guard 2). That is not intended here, and guard 1 refuses
it: the raw bytes of a store hold more than its rows show, since free blocks keep rows deleted
or redacted since (a key a later version removed from ``llm_calls``) until DuckDB reuses them.
A read-only query therefore reaches exactly what ``SELECT`` over the tables returns.

``allow_files=True`` (``--allow-files``) keeps the store read-only but lets queries read files,
the store's own included; ``write=True`` (``--write``) lifts every guard.

Results stream (:mod:`~toolex.sqlaccess.stream`): DuckDB hands Arrow batches over as it makes
them, within the store's memory limit, and a time limit or Ctrl-C stops the statement inside
DuckDB (its connection's ``interrupt()``).
"""

from toolex.sqlaccess.readonly import (
    FILE_FUNCTION,
    SqlRefused,
    check_read_only,
    files_read,
)
from toolex.sqlaccess.stream import (
    BATCH_ROWS,
    SqlStopped,
    SqlStream,
    check_timeout,
    left_running,
    run_sql,
    stream_sql,
)
from toolex.sqlaccess.transpile import (
    DIALECTS,
    PORTABLE_FOLDERS,
    STRICT_DIALECTS,
    shipped_sql_names,
    transpile,
    transpile_shipped,
)

__all__ = [
    "BATCH_ROWS",
    "DIALECTS",
    "FILE_FUNCTION",
    "PORTABLE_FOLDERS",
    "STRICT_DIALECTS",
    "SqlRefused",
    "SqlStopped",
    "SqlStream",
    "check_read_only",
    "check_timeout",
    "files_read",
    "left_running",
    "run_sql",
    "shipped_sql_names",
    "stream_sql",
    "transpile",
    "transpile_shipped",
]
