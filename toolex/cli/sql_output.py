"""What `toolex sql` prints or writes: its result read batch by batch (toolex.sqlaccess), so a
result of any size streams to CSV, JSON or Parquet in the memory of a few batches, and a table
shows its first rows and counts the rest, as duckdb's does (``1,000,000 rows, 40 shown``).
Every column is kept, in order: rows are sequences, never dicts keyed by a name that may repeat
(conventions in toolex.cli.output)."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolex.cli.output import print_table, unique_names, writer

if TYPE_CHECKING:
    import pyarrow as pa

    from toolex.sqlaccess import SqlStream


def rows_of(batch: pa.RecordBatch) -> Iterator[Sequence[Any]]:
    """The rows of an Arrow batch as tuples, by position (names may repeat)."""
    return zip(*(column.to_pylist() for column in batch.columns), strict=True)


def print_stream(stream: SqlStream, fmt: str, max_rows: int) -> None:
    """The result on stdout: a table of its first ``max_rows`` rows (0: all), or every row as
    CSV or JSON, written batch by batch."""
    if fmt == "table":
        shown: list[Sequence[Any]] = []
        total = 0
        for batch in stream:
            room = batch.num_rows if max_rows == 0 else max(0, max_rows - len(shown))
            if room:
                shown.extend(rows_of(batch.slice(0, room)))
            total += batch.num_rows
        footer = None
        if total > len(shown):
            footer = (
                f"({total:,} rows, {len(shown)} shown: --max-rows 0 shows all, --format csv|json "
                "prints every row)"
            )
        print_table(stream.columns, shown, footer=footer)
        return
    out = writer(fmt, sys.stdout, stream.columns)
    try:
        for batch in stream:
            out.write(rows_of(batch))
        out.close()
        sys.stdout.flush()
    except BrokenPipeError:  # `toolex sql ... | head`: the reader has all it wants
        _quiet_stdout()


def _quiet_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null, so the interpreter's last flush does not
    fail again (the Python documentation's recipe)."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file descriptor (a test's capture)
        pass


def write_stream(stream: SqlStream, fmt: str, path: Path) -> int:
    """Every row of the result to ``path`` as CSV, JSON or Parquet; returns the row count."""
    n = 0
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        # Parquet readers (pandas, DuckDB, Spark) need unique column names: DuckDB's suffixes.
        names = unique_names(stream.columns)
        schema = pa.schema([f.with_name(a) for f, a in zip(stream.schema, names, strict=True)])
        with pq.ParquetWriter(path, schema) as parquet:
            for batch in stream:
                parquet.write_batch(pa.RecordBatch.from_arrays(batch.columns, schema=schema))
                n += batch.num_rows
        return n
    with path.open("w", encoding="utf-8", newline="") as fh:
        out = writer(fmt, fh, stream.columns)
        for batch in stream:
            out.write(rows_of(batch))
            n += batch.num_rows
        out.close()
    return n
