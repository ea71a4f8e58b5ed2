"""`toolex sql`: query the store from the shell, or print the shipped SQL for another engine."""

from __future__ import annotations

from pathlib import Path

import click

from toolex.cli.options import db_option, emit_rows
from toolex.errors import ToolexError
from toolex.sqlaccess import DIALECTS, run_sql, shipped_sql_names, transpile_shipped

SQL_FORMATS = ("table", "csv", "json", "parquet")


@click.command("sql")
@click.argument("statement", required=False)
@db_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(SQL_FORMATS),
    default="table",
    show_default=True,
    help="Rows as an aligned table, CSV, JSON, or Parquet (Parquet needs --out).",
)
@click.option("--out", type=click.Path(dir_okay=False), help="Write the rows to this file.")
@click.option("--write", is_flag=True, help="Allow statements that change the store.")
@click.option(
    "--show", metavar="FILE", help="Print a shipped SQL file, e.g. stages/30_cartesian.sql."
)
@click.option(
    "--dialect",
    type=click.Choice(DIALECTS),
    default="duckdb",
    show_default=True,
    help="With --show: transpile the file to this engine's SQL (sqlglot).",
)
@click.option("--list", "list_files", is_flag=True, help="List the shipped SQL files.")
def sql(
    statement: str | None,
    db: str,
    fmt: str,
    out: str | None,
    write: bool,
    show: str | None,
    dialect: str,
    list_files: bool,
) -> None:
    """Run one SQL statement against the store (read-only unless --write).

    The statement is parsed first and anything but a query (SELECT, WITH, VALUES, DESCRIBE,
    SHOW, SUMMARIZE, EXPLAIN) is refused; the store is also opened read-only.

    \b
    Examples:
      toolex sql "SELECT benchmark, count(*) AS n FROM items GROUP BY ALL"
      toolex sql "FROM combinations WHERE status = 'valid'" --format parquet --out valid.parquet
      toolex sql --list
      toolex sql --show stages/30_cartesian.sql --dialect spark
    """
    if list_files:
        for name in shipped_sql_names():
            click.echo(name)
        return
    if show:
        if statement:
            raise click.UsageError("give either a STATEMENT or --show FILE, not both")
        click.echo(transpile_shipped(show, dialect), nl=False)
        return
    if not statement:
        raise click.UsageError('give a SQL statement, e.g. toolex sql "SELECT * FROM runs"')
    if fmt == "parquet" and not out:
        raise click.UsageError("--format parquet writes a file; add --out FILE.parquet")
    table = run_sql(db, statement, write=write)
    if out:
        _write(table, fmt, Path(out))
        click.echo(f"wrote {table.num_rows} rows to {out}", err=True)
        return
    emit_rows(table.to_pylist(), fmt)


def _write(table, fmt: str, path: Path) -> None:
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "parquet":
        pq.write_table(table, path)
    elif fmt == "csv":
        pacsv.write_csv(table, path)
    elif fmt == "json":
        import json

        text = json.dumps(table.to_pylist(), indent=2, default=str) + "\n"
        path.write_text(text, encoding="utf-8")
    else:
        raise ToolexError("--out needs --format csv, json or parquet (a table is for the screen)")
