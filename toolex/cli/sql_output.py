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

from toolex.cli.output import reader_gone, unique_names, writer
from toolex.cli.tables import print_table
from toolex.errors import ToolexError

if TYPE_CHECKING:
    import pyarrow as pa

    from toolex.sqlaccess import SqlStream


def rows_of(batch: pa.RecordBatch) -> Iterator[Sequence[object]]:
    """The rows of an Arrow batch as tuples, by position (names may repeat); a HUGEINT or
    UHUGEINT column (handed over as text: toolex.store's user_reader) as Python's exact ints."""
    columns = [
        _exact(column) if _wide(batch.schema.field(i)) else column.to_pylist()
        for i, column in enumerate(batch.columns)
    ]
    return zip(*columns, strict=True)


def _wide(field: pa.Field) -> bool:
    from toolex.store.connection import WIDE_INTEGER_KEY

    return bool(field.metadata) and WIDE_INTEGER_KEY in field.metadata


def _exact(column: pa.Array) -> list[int | None]:
    return [None if v is None else int(v) for v in column.to_pylist()]


def _parquet_batch(batch: pa.RecordBatch, schema: pa.Schema) -> pa.RecordBatch:
    """``batch`` as the Parquet file's ``schema`` holds it: a wide integer column as
    decimal(38, 0), what DuckDB and pandas read back exactly, or an error naming the column
    when a value has more digits than that holds (never a wrapped or rounded number)."""
    from decimal import Decimal

    import pyarrow as pa

    arrays = []
    for i, column in enumerate(batch.columns):
        if not _wide(batch.schema.field(i)):
            arrays.append(column)
            continue
        values = _exact(column)
        big = next((v for v in values if v is not None and abs(v) >= 10**38), None)
        if big is not None:
            raise ToolexError(
                f"column {schema.field(i).name!r} holds {big}, more digits than Parquet's "
                "decimal(38, 0) holds: cast it (::VARCHAR keeps every digit, ::DOUBLE rounds) "
                "or write CSV or JSON, which carry it whole"
            )
        decimals = [None if v is None else Decimal(v) for v in values]
        arrays.append(pa.array(decimals, type=pa.decimal128(38, 0)))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


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
        reader_gone()


def write_stream(stream: SqlStream, fmt: str, path: Path) -> int:
    """Every row of the result to ``path`` as CSV, JSON or Parquet; returns the row count."""
    n = 0
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        # Parquet readers (pandas, DuckDB, Spark) need unique column names: DuckDB's suffixes.
        names = unique_names(stream.columns)
        schema = pa.schema(
            [
                pa.field(a, pa.decimal128(38, 0)) if _wide(f) else f.with_name(a)
                for f, a in zip(stream.schema, names, strict=True)
            ]
        )
        with pq.ParquetWriter(path, schema) as parquet:
            for batch in stream:
                parquet.write_batch(_parquet_batch(batch, schema))
                n += batch.num_rows
        return n
    with path.open("w", encoding="utf-8", newline="") as fh:
        out = writer(fmt, fh, stream.columns)
        for batch in stream:
            out.write(rows_of(batch))
            n += batch.num_rows
        out.close()
    return n
