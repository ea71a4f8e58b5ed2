"""How SQL runs on a store's DuckDB connection: shipped files with bound parameters (rows, a
scalar, Arrow, Parquet), registered Arrow inputs, all-or-nothing transactions, and the one door
for a user's own statement. :class:`~toolex.store.Store` builds on it.

Every call passes DuckDB's failures of the file itself (damage, full disk, lock) through
:func:`~toolex.store.failures.store_error`, so they reach the user as a StoreError that says how
to recover. Once counting is on (a store file opened for writing), every commit of a write is
counted and recorded (:mod:`~toolex.store.commits`): a transaction counts itself before it
commits, and a shipped write run outside one is followed by a counting commit of its own.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self, TypeVar

from toolex.resources import sql_text
from toolex.sqlrunner import Params, SqlValue
from toolex.store import commits
from toolex.store.duck import duckdb, relations
from toolex.store.failures import is_failure_of_the_file, store_error
from toolex.store.typed_rows import row_builder

if TYPE_CHECKING:  # imported where used: a command that reads rows never loads pyarrow
    import pyarrow as pa

R = TypeVar("R")

# DuckDB types wider than any Arrow integer, and the field metadata that marks such a column
# of a user's result, handed over as exact text (Connection.user_reader).
WIDE_INTEGERS = ("HUGEINT", "UHUGEINT")
WIDE_INTEGER_KEY = b"toolex.wide_integer"


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class Connection:
    """A DuckDB connection with the store's ways to run SQL on it (see :class:`Store`)."""

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection,
        path: str,
        read_only: bool,
        counting: bool = False,
    ) -> None:
        self._con = con
        self.path = path
        self.read_only = read_only
        self.created = False  # this open made the file (Store.discard_if_new)
        self.counting = counting  # count each commit of a write (commits.py); set on open
        self._in_transaction = False
        self._counter: duckdb.DuckDBPyConnection | None = None  # commits a write's count apart

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """The DuckDB connection, with DuckDB's Python package loaded (its relations, Arrow):
        what code outside the store (a test's fixture, a notebook) may ask of it. The store's
        own methods use the engine alone (toolex.store.duck) and load the package only where
        they need it, so a command that reads rows and prints them never does."""
        relations()
        return self._con

    def commit_count(self, con: duckdb.DuckDBPyConnection | None = None) -> commits.Count:
        """The store's id and committed writes (CatalogException before schema 70)."""
        row = (con or self._con).execute(sql_text("store/51_commit_count.sql")).fetchall()[0]
        return commits.Count(*row)

    def _counted(self, con: duckdb.DuckDBPyConnection) -> None:
        """Record the count after a commit on ``con`` (this connection or the counter), which
        ends the commit announced by ``commits.begin``."""
        with self._translated():
            count = self.commit_count(con)
        commits.end(self.path, count)

    def _count_apart(self) -> None:
        """Count a write that committed on its own (no transaction around it) with a commit of
        its own, on a second connection so the write's result stays readable on this one."""
        if self._counter is None:
            self._counter = self._con.cursor()
        with self._translated():
            self._counter.execute(sql_text("store/50_count_commit.sql"))
        self._counted(self._counter)

    @contextlib.contextmanager
    def _write_apart(self, name: str) -> Iterator[None]:
        """Around a shipped file run outside a transaction: a write is announced before it
        commits (``commits.begin``) and counted after (``_count_apart``)."""
        if not (self.counting and not self._in_transaction and commits.writes(name)):
            yield
            return
        commits.begin(self.path)
        try:
            yield
        except BaseException:
            commits.end(self.path, None)
            raise
        self._count_apart()

    @contextlib.contextmanager
    def _translated(self) -> Iterator[None]:
        """DuckDB's failures of the file itself (damage, full disk, lock) as StoreError."""
        try:
            yield
        except duckdb.Error as exc:
            if not is_failure_of_the_file(exc, self.path):
                raise
            raise store_error(exc, self.path) or exc from exc

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Self]:
        """All-or-nothing block: a failed load or stage leaves the store as it was.

        Yields the store itself (``with store.transaction() as tx: tx.execute(...)``). A commit
        that fails (a full disk) rolls back and raises StoreError: nothing was written."""
        with self._translated():
            self._con.execute("BEGIN TRANSACTION")
        self._in_transaction = True
        try:
            yield self
        except BaseException:
            self._in_transaction = False
            with contextlib.suppress(duckdb.Error):  # an invalidated database cannot roll back
                self._con.execute("ROLLBACK")
            raise
        self._in_transaction = False
        begun = False
        try:
            with self._translated():
                if self.counting:  # in the transaction: a log that loses it loses the count
                    self._con.execute(sql_text("store/50_count_commit.sql"))
                    commits.begin(self.path)  # the record says a commit is under way
                    begun = True
                self._con.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(duckdb.Error):
                self._con.execute("ROLLBACK")
            if begun:
                commits.end(self.path, None)
            raise
        if self.counting:
            self._counted(self._con)

    def execute(self, name: str, params: Params | None = None) -> duckdb.DuckDBPyConnection:
        """Run one shipped SQL file (one statement) with ``$name`` parameters bound."""
        with self._write_apart(name), self._translated():
            cur = self._con.execute(sql_text(name), dict(params or {}))
        return cur

    def rows(self, name: str, params: Params | None = None) -> list[dict[str, Any]]:
        """Run one shipped SQL file and return its rows as dicts."""
        cur = self.execute(name, params)
        cols = [d[0] for d in cur.description or []]
        with self._translated():
            return [dict(zip(cols, row, strict=True)) for row in cur.fetchall()]

    def typed(self, name: str, row: type[R], params: Params | None = None) -> list[R]:
        """Run one shipped SQL file and return its rows as ``row`` records (a NamedTuple or a
        dataclass whose fields are the query's columns, in any order).

        The columns are checked against the fields before any row is built, so a renamed column
        fails here, naming the SQL file (RowShapeError); rows are then built positionally."""
        cur = self.execute(name, params)
        make = row_builder(name, row, [d[0] for d in cur.description or []])
        with self._translated():
            return list(map(make, cur.fetchall()))

    def execute_script(self, name: str) -> None:
        """Run a shipped multi-statement SQL file that takes no parameters (DDL, views)."""
        with self._write_apart(name), self._translated():
            self._con.execute(sql_text(name))

    def arrow(self, name: str, params: Params | None = None) -> pa.Table:
        """Run one shipped SQL query with bound parameters; rows come back as an Arrow table.

        DuckDB refuses a relation query while an earlier ``execute()`` result is unread (e.g. the
        schema-version probe), so that result is completed first.
        """
        relations()
        with self._translated():
            self._con.complete()
            return self._con.sql(sql_text(name), params=dict(params or {})).to_arrow_table()

    def batches(
        self, name: str, params: Params | None = None, *, rows: int = 100_000
    ) -> Iterator[pa.RecordBatch]:
        """Run one shipped SQL query; its rows come back as Arrow record batches of at most
        ``rows`` rows, fetched as they are read: memory holds one batch, not the result (an
        export of a whole run, ``toolex export trec-run``)."""
        relations()
        with self._translated():
            self._con.complete()
            relation = self._con.sql(sql_text(name), params=dict(params or {}))
            yield from relation.to_arrow_reader(rows)

    def copy_parquet(self, name: str, params: Params | None, path: str | Path) -> None:
        """Write the rows of one shipped query to a Parquet file with DuckDB's COPY, streamed
        rather than held in memory: how an engine outside DuckDB gets its inputs
        (toolex.engines). A store opened read-only and locked down writes no file; open it
        with ``allow_files=True``."""
        relations()
        with self._translated():
            self._con.complete()
            self._con.sql(sql_text(name), params=dict(params or {})).write_parquet(str(path))

    def scalar(self, name: str, params: Params | None = None) -> object:
        """The first column of the first row of one shipped SQL query (None when no row)."""
        # fetchall, not fetchone: fetchone leaves the result pending under DuckDB 2.x, and the
        # next relation query (``arrow``) on the connection then fails with "Resource In Use".
        cur = self.execute(name, params)
        with self._translated():
            rows = cur.fetchall()
        return rows[0][0] if rows else None

    def count(self, name: str, params: Params | None = None) -> int:
        """The number one shipped query counts (its first column of its first row): 0 when it
        returns no row or NULL."""
        value = self.scalar(name, params)
        if value is None:
            return 0
        if not isinstance(value, int):
            raise TypeError(f"{name} returned {value!r}, not a count")
        return value

    def _names(self, name: str, params: Params) -> list[str]:
        """The first column of every row of one shipped query (names of tables, runs, ...)."""
        return [row[0] for row in self.execute(name, params).fetchall()]

    @contextlib.contextmanager
    def registered(self, name: str, table: pa.Table) -> Iterator[None]:
        """Expose an Arrow table to the shipped SQL under ``name`` for the block's duration."""
        with self.registered_tables({name: table}):
            yield

    @contextlib.contextmanager
    def registered_query(self, name: str, sql: str, params: Params) -> Iterator[None]:
        """Expose the rows of one shipped query under ``name`` for the block's duration, as a
        connection-local TEMP table DuckDB fills from bound values (a report's summary rows):
        they reach the shipped SQL without pyarrow or DuckDB's relation layer
        (toolex.store.duck), which a command that prints a few rows (``toolex eval``) would
        load only for this. A TEMP table never reaches the store file, so a read-only store
        takes one too; ``name`` is the caller's constant, never a user's."""
        table = _quoted(name)
        with self._translated():
            self._con.execute(
                f"CREATE OR REPLACE TEMP TABLE {table} AS\n{sql_text(sql)}", dict(params)
            )
        try:
            yield
        finally:
            # As registered_tables: an aborted transaction refuses the DROP, and raising that
            # would hide the error that aborted it; CREATE OR REPLACE takes the name next time.
            with contextlib.suppress(duckdb.Error):
                self._con.execute(f"DROP TABLE IF EXISTS temp.{table}")

    @contextlib.contextmanager
    def registered_tables(
        self, tables: Mapping[str, pa.Table | duckdb.DuckDBPyRelation]
    ) -> Iterator[None]:
        """Like :meth:`registered` for several tables at once (a load's items, queries, qrels).

        The views are connection-local and read the Arrow memory in place: nothing is copied
        into the store file unless the SQL inserts it."""
        relations()  # the engine reads an Arrow table or a relation through the package
        done: list[str] = []
        try:
            for name, table in tables.items():
                self._con.register(name, table)
                done.append(name)
            yield
        except BaseException:
            # A failed statement aborts the transaction, and an aborted transaction refuses
            # even unregister: raising that would hide the error that aborted it (an out-of-
            # memory reported as "Current transaction is aborted"). The view is replaced the
            # next time the name is registered.
            for name in done:
                with contextlib.suppress(duckdb.Error):
                    self._con.unregister(name)
            raise
        for name in done:
            self._con.unregister(name)

    def user_sql(self, sql: str, params: Params | Sequence[SqlValue] | None = None) -> pa.Table:
        """Run a user's own statement (``toolex sql``), not a shipped file; rows as Arrow.

        The only door for SQL that does not ship with toolex: the caller vets the statement
        (toolex.sqlaccess refuses writes unless asked, and opens the store read-only). A write
        comes back as DuckDB reports it (a ``Count`` column); a statement without any result
        as an empty table with one column ``rows``."""
        import pyarrow as pa

        relations()
        with self._translated():
            cur = self._con.execute(sql, params) if params else self._con.execute(sql)
            if cur.description is None:  # a write without RETURNING
                return pa.table({"rows": pa.array([], pa.int64())})
            # A DB-API result copies once more than con.sql(), which cannot bind ``?``
            # parameters here; one copy of a shell query's rows is cheap, so DuckDB's warning
            # is silenced.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                return cur.to_arrow_table()

    def user_reader(
        self, sql: str, params: Params | Sequence[SqlValue] | None, batch_rows: int
    ) -> pa.RecordBatchReader:
        """A user's own statement (``toolex sql``) as a stream of Arrow record batches of up to
        ``batch_rows`` rows, computed as they are read: the result is never whole in memory, and
        DuckDB keeps to the store's memory limit (a DB-API ``execute`` would first materialise
        all of it, outside the limit). Blocks until the first batch is ready; the caller vets
        the statement, as for :meth:`user_sql`, and may stop it with :meth:`interrupt`."""
        import pyarrow as pa

        relations()
        with self._translated():
            self._con.complete()
            relation = self._con.sql(sql, params=params)
            if relation is None:  # a statement without any result
                return pa.RecordBatchReader.from_batches(pa.schema([("rows", pa.int64())]), [])
            wide = [i for i, t in enumerate(relation.types) if str(t) in WIDE_INTEGERS]
            if not wide:
                return relation.to_arrow_reader(batch_rows)
            # Arrow has no 128-bit integer: DuckDB hands HUGEINT over as decimal(38, 0) and
            # UHUGEINT past 2**127 wrapped to a negative number. They come as their exact text
            # (positions, not names: names may repeat), marked for the readers to make whole.
            shown = ", ".join(
                f"#{i + 1}{'::VARCHAR' if i in wide else ''} AS {_quoted(name)}"
                for i, name in enumerate(relation.columns)
            )
            reader = relation.project(shown).to_arrow_reader(batch_rows)
        fields = [
            f.with_metadata({WIDE_INTEGER_KEY: b"1"}) if i in wide else f
            for i, f in enumerate(reader.schema)
        ]
        schema = pa.schema(fields)
        batches = (pa.RecordBatch.from_arrays(b.columns, schema=schema) for b in reader)
        return pa.RecordBatchReader.from_batches(schema, batches)

    def interrupt(self) -> None:
        """Stop the statement running on this connection (from another thread: Ctrl-C, a
        timeout); it fails with DuckDB's "Interrupted!" error."""
        self._con.interrupt()
