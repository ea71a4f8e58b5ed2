"""`toolex sql`: query the store from the shell, or print the shipped SQL for another engine."""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass
from pathlib import Path

import click

from toolex.cli.options import db_option, emit_rows, option_group
from toolex.engines.dialects import hazards
from toolex.errors import ToolexError
from toolex.resources import sql_text
from toolex.sqlaccess import (
    DIALECTS,
    SqlStopped,
    check_timeout,
    left_running,
    shipped_sql_names,
    transpile_shipped,
)

SQL_FORMATS = ("table", "csv", "json", "parquet")
# Exit codes of a stopped statement: timeout(1)'s for a time limit, the shell's for Ctrl-C.
EXIT_TIMEOUT, EXIT_INTERRUPTED = 124, 130


@dataclass(frozen=True)
class SqlRun:
    """How a statement runs and where its rows go."""

    fmt: str
    out: str | None
    timeout: float | None
    max_rows: int
    write: bool
    allow_files: bool


run_options = option_group(
    "run",
    [
        click.option(
            "--format",
            "fmt",
            type=click.Choice(SQL_FORMATS),
            default="table",
            show_default=True,
            help="Rows as an aligned table, CSV, JSON, or Parquet (Parquet needs --out).",
        ),
        click.option(
            "--out",
            type=click.Path(dir_okay=False),
            help="Write the rows to this file (whole or not at all; never the store or its own "
            "files).",
        ),
        click.option(
            "--timeout",
            type=float,
            callback=lambda ctx, param, value: _seconds(value),
            metavar="SECONDS",
            help="Stop the statement if it runs longer (exit 124); inf: no limit. Ctrl-C stops it "
            "at once (exit 130). DuckDB stops within 2 s more, or toolex leaves it and exits.",
        ),
        click.option(
            "--max-rows",
            type=click.IntRange(0),
            default=40,
            show_default=True,
            help="Rows a table shows (0: all); the rest are counted, as duckdb's table does. CSV, "
            "JSON "
            "and Parquet carry every row.",
        ),
        click.option("--write", is_flag=True, help="Allow statements that change the store."),
        click.option(
            "--allow-files",
            is_flag=True,
            help="Let a read-only query read files and URLs (read_csv, read_parquet, glob); "
            "without it "
            "DuckDB reaches nothing but the store.",
        ),
    ],
    SqlRun,
)


@dataclass(frozen=True)
class Shipped:
    """--show, --dialect, --list, --tables: the shipped SQL or the store's tables, printed
    instead of running a statement."""

    show: str | None
    dialect: str | None
    list_files: bool
    list_tables: bool


shipped_options = option_group(
    "shipped",
    [
        click.option(
            "--show",
            metavar="FILE",
            help="Print a shipped SQL file as shipped: stages/4_assemble/01_cartesian.sql, or a "
            "unique basename such as 01_cartesian.sql or 01_cartesian.",
        ),
        click.option(
            "--dialect",
            type=click.Choice(DIALECTS),
            default=None,
            help="With --show: transpile the file to this engine's SQL (sqlglot), with a warning "
            "on stderr for each construct the engine may refuse or read otherwise.",
        ),
        click.option("--list", "list_files", is_flag=True, help="List the shipped SQL files."),
        click.option(
            "--tables",
            "list_tables",
            is_flag=True,
            help="List the store's tables with row counts (`toolex info` adds benchmarks and "
            "runs).",
        ),
    ],
    Shipped,
)


@click.command("sql", short_help="Run one SQL statement against the store (read-only).")
@click.argument("statement", required=False)
@db_option
@run_options
@shipped_options
def sql(statement: str | None, db: str, run: SqlRun, shipped: Shipped) -> None:
    """Run one SQL statement against the store (read-only unless --write).

    The statement is parsed first and anything but a query (SELECT, WITH, VALUES, DESCRIBE,
    SHOW, SUMMARIZE, EXPLAIN) is refused, and so is a query that reads a file (read_csv,
    read_blob, glob, ... even of the store's own file) unless --allow-files; the store is also
    opened read-only, with DuckDB reaching no file, URL or extension beyond it.
    STATEMENT `-` (or none, with stdin not a terminal) reads the statement from stdin.

    Rows stream as DuckDB makes them, within the store's memory limit: a table shows the first
    --max-rows and counts the rest; CSV, JSON and Parquet carry them all. Every column is kept:
    a repeated name is printed as given in a table and in CSV, and takes DuckDB's suffix as a
    JSON key or Parquet column, where names must be unique (SELECT 1 AS a, 2 AS a: "a", "a_1").
    --out refuses the store, its own files (toolex.duckdb.*) and a file the query reads.

    \b
    Examples:
      toolex sql "SELECT benchmark, count(*) AS n FROM items GROUP BY ALL"
      toolex sql "FROM combinations WHERE status = 'valid'" \\
          --format parquet --out valid.parquet
      toolex sql "SELECT count(*) FROM run_results" --timeout 30
      echo "SELECT count(*) FROM queries" | toolex sql -
      toolex sql --tables
      toolex sql --list
      toolex sql --show 01_cartesian.sql
      toolex sql --show stages/4_assemble/01_cartesian.sql --dialect spark
    """
    if _print_shipped(shipped, statement, db, run.fmt):
        return
    if statement == "-" or (statement is None and not _stdin_is_terminal()):
        statement = sys.stdin.read()
    if not statement or not statement.strip():
        raise click.UsageError(
            'give a SQL statement, e.g. toolex sql "SELECT * FROM runs", or pipe one into '
            "`toolex sql -`"
        )
    if run.fmt == "parquet" and not run.out:
        raise click.UsageError("--format parquet writes a file; add --out FILE.parquet")
    try:
        _run(db, statement, run)
    except SqlStopped as exc:
        click.echo(f"error: {exc}", err=True)
        code = EXIT_TIMEOUT if exc.reason == "timeout" else EXIT_INTERRUPTED
        if left_running():
            # DuckDB still runs the statement and holds the store's connection: exit now,
            # without the interpreter's teardown closing it under the statement's feet.
            _exit_now(code)
        sys.exit(code)


def _print_shipped(shipped: Shipped, statement: str | None, db: str, fmt: str) -> bool:
    """--list, --tables or --show FILE printed (True), or none given (False, a statement runs);
    --dialect without --show is refused."""
    if shipped.list_files:
        for name in shipped_sql_names():
            click.echo(name)
        return True
    if shipped.list_tables:
        from toolex.cli.info import table_counts

        emit_rows(table_counts(db), fmt, title=f"tables of {db}", columns=["table", "rows"])
        return True
    if shipped.show:
        if statement:
            raise click.UsageError("give either a STATEMENT or --show FILE, not both")
        name = resolve_shipped(shipped.show)
        if shipped.dialect is None:
            click.echo(sql_text(name), nl=False)
        else:
            click.echo(transpile_shipped(name, shipped.dialect), nl=False)
            # What sqlglot's output may not run, or may mean otherwise, on the target.
            for hazard in hazards(sql_text(name), shipped.dialect):
                click.echo(f"warning: {name}: {hazard.message}", err=True)
        return True
    if shipped.dialect is not None:
        raise click.UsageError("--dialect goes with --show FILE")
    return False


def _run(db: str, statement: str, run: SqlRun) -> None:
    from toolex.cli.sql_output import print_stream, write_stream
    from toolex.exports.files import check_output, output_file
    from toolex.sqlaccess import files_read, stream_sql

    fmt, out = run.fmt, run.out
    reads = files_read(statement) if out and (run.allow_files or run.write) else []
    if out:
        if fmt == "table":
            raise ToolexError(
                "--out needs --format csv, json or parquet (a table is for the screen)"
            )
        check_output(out, db, reads)  # before the statement runs
    with stream_sql(
        db, statement, write=run.write, allow_files=run.allow_files, timeout=run.timeout
    ) as rows:
        if not out:
            print_stream(rows, fmt, run.max_rows)
            return
        with output_file(out, db, reads) as temp:
            n = write_stream(rows, fmt, temp)
    click.echo(f"wrote {n} rows to {out}", err=True)


def _seconds(value: float | None) -> float | None:
    """--timeout as a time limit (None: none), or click's error for a value that is none."""
    try:
        return check_timeout(value)
    except ToolexError as exc:
        raise click.BadParameter(str(exc).removeprefix(f"--timeout {value:g}: ")) from None


def _exit_now(code: int) -> None:
    import os

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def _stdin_is_terminal() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return True


def resolve_shipped(name: str) -> str:
    """``folder/file.sql`` of a shipped SQL file named in full, or by a unique basename (with or
    without ``.sql``); an unknown or ambiguous name is an error listing the candidates."""
    names = shipped_sql_names()
    if name in names:
        return name
    stem = name.removesuffix(".sql")
    matches = [n for n in names if Path(n).stem == stem or n.removesuffix(".sql").endswith(stem)]
    exact = [n for n in matches if Path(n).stem == stem]
    if len(exact) == 1:
        return exact[0]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise ToolexError(f"{name!r} names several shipped SQL files: {', '.join(matches)}")
    import difflib

    close = difflib.get_close_matches(name, names + [Path(n).name for n in names], n=3)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise ToolexError(f"no shipped SQL file {name!r}{hint} (`toolex sql --list` lists them)")
