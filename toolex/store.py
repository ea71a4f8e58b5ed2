"""The DuckDB store: one file per workspace, schema-versioned, with bound-parameter SQL files.

Schema files live in ``sql/schema/NNN_name.sql``; their number is the schema version. Opening a
store applies the missing ones in order inside one transaction, so an old store file is migrated
rather than broken, and a store written by a newer toolex is refused with a clear message.
"""

from __future__ import annotations

import contextlib
import re
import warnings
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from toolex.errors import NotFoundError, StoreError
from toolex.resources import sql_files, sql_text

DEFAULT_DB = "toolex.duckdb"
# Every benchmark's implicit expansion: before any stage runs it holds the original annotation
# only, so naming it is never an error (its new scores then equal the old ones).
DEFAULT_EXPANSION = "default"
_VERSION_RE = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


def schema_migrations() -> list[tuple[int, str]]:
    """(version, file name) of every shipped schema file, ascending."""
    out = []
    for path in sql_files("schema"):
        match = _VERSION_RE.match(path.name)
        if not match:
            raise StoreError(f"schema file {path.name!r} is not named NNN_name.sql")
        out.append((int(match.group(1)), path.name))
    versions = [v for v, _ in out]
    if len(set(versions)) != len(versions):
        raise StoreError(f"two schema files share a version number: {sorted(versions)}")
    return out


class Store:
    """A toolex workspace: a DuckDB connection plus helpers to run the shipped SQL.

    Use ``Store.open(path)``; ``read_only=True`` opens the file without taking the write lock
    (the TUI, ``toolex sql``, reports).

    The store is the only way into DuckDB: code asks it for rows (``query``, ``scalar``), Arrow
    tables (``arrow``), registered inputs (``registered``) and transactions, never for ``con``.
    Two documented doors remain for what shipped SQL cannot do: ``cursor()`` (a second store over
    the same database whose writes commit on their own, for the LLM ledger) and ``user_sql()``
    (a user's own statement, for ``toolex sql``).
    """

    def __init__(self, con: duckdb.DuckDBPyConnection, path: str, read_only: bool) -> None:
        self.con = con
        self.path = path
        self.read_only = read_only

    @classmethod
    def open(cls, path: str | Path = DEFAULT_DB, *, read_only: bool = False) -> Store:
        path = str(path)
        if read_only and path != ":memory:" and not Path(path).exists():
            raise StoreError(f"no store at {path}; create one with `toolex load ...` first")
        try:
            con = duckdb.connect(path, read_only=read_only)
        except duckdb.IOException as exc:
            if "lock" in str(exc).lower():
                raise StoreError(
                    f"the store {path} is locked by another toolex process (a running pipeline "
                    "holds DuckDB's write lock); wait for it to finish, or open a copy read-only"
                ) from exc
            raise StoreError(f"cannot open the store {path}: {exc}") from exc
        store = cls(con, path, read_only)
        store.migrate()
        return store

    @classmethod
    def memory(cls) -> Store:
        return cls.open(":memory:")

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- schema ------------------------------------------------------------------------------

    @property
    def schema_version(self) -> int:
        try:
            version = self.scalar("store/01_schema_version.sql")
        except duckdb.CatalogException:
            return 0
        return int(version or 0)

    def migrate(self) -> None:
        migrations = schema_migrations()
        latest = migrations[-1][0] if migrations else 0
        current = self.schema_version
        if current > latest:
            raise StoreError(
                f"the store {self.path} has schema version {current}, newer than this toolex "
                f"knows ({latest}); upgrade toolex"
            )
        pending = [(v, name) for v, name in migrations if v > current]
        if not pending:
            return
        if self.read_only:
            raise StoreError(
                f"the store {self.path} has schema version {current}; open it once for writing "
                f"(any `toolex` write command) to migrate it to {latest}"
            )
        with self.transaction():
            self.execute_script("store/02_create_schema_version.sql")
            for version, name in pending:
                self.execute_script(f"schema/{name}")
                self.execute("store/03_record_migration.sql", {"version": version, "name": name})

    # -- running SQL ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Store]:
        """All-or-nothing block: a failed load or stage leaves the store as it was.

        Yields the store itself (``with store.transaction() as tx: tx.execute(...)``)."""
        self.con.execute("BEGIN TRANSACTION")
        try:
            yield self
        except BaseException:
            self.con.execute("ROLLBACK")
            raise
        else:
            self.con.execute("COMMIT")

    def execute(
        self, name: str, params: Mapping[str, Any] | None = None
    ) -> duckdb.DuckDBPyConnection:
        """Run one shipped SQL file (one statement) with ``$name`` parameters bound."""
        return self.con.execute(sql_text(name), dict(params or {}))

    def rows(self, name: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run one shipped SQL file and return its rows as dicts."""
        cur = self.execute(name, params)
        cols = [d[0] for d in cur.description or []]
        return [dict(zip(cols, row, strict=True)) for row in cur.fetchall()]

    def execute_script(self, name: str) -> None:
        """Run a shipped multi-statement SQL file that takes no parameters (DDL, views)."""
        self.con.execute(sql_text(name))

    def arrow(self, name: str, params: Mapping[str, Any] | None = None) -> pa.Table:
        """Run one shipped SQL query with bound parameters; rows come back as an Arrow table.

        DuckDB refuses a relation query while an earlier ``execute()`` result is unread (e.g. the
        schema-version probe), so that result is completed first.
        """
        self.con.complete()
        return self.con.sql(sql_text(name), params=dict(params or {})).to_arrow_table()

    def scalar(self, name: str, params: Mapping[str, Any] | None = None) -> Any:
        """The first column of the first row of one shipped SQL query (None when no row)."""
        # fetchall, not fetchone: fetchone leaves the result pending under DuckDB 2.x, and the
        # next relation query (``arrow``) on the connection then fails with "Resource In Use".
        rows = self.execute(name, params).fetchall()
        return rows[0][0] if rows else None

    @contextlib.contextmanager
    def registered(self, name: str, table: pa.Table) -> Iterator[None]:
        """Expose an Arrow table to the shipped SQL under ``name`` for the block's duration."""
        with self.registered_tables({name: table}):
            yield

    @contextlib.contextmanager
    def registered_tables(self, tables: Mapping[str, pa.Table]) -> Iterator[None]:
        """Like :meth:`registered` for several tables at once (a load's items, queries, qrels).

        The views are connection-local and read the Arrow memory in place: nothing is copied
        into the store file unless the SQL inserts it."""
        done: list[str] = []
        try:
            for name, table in tables.items():
                self.con.register(name, table)
                done.append(name)
            yield
        finally:
            for name in done:
                self.con.unregister(name)

    def cursor(self) -> Store:
        """A second store over the same database with its own transaction state.

        Its writes commit on their own, outside any transaction open on this store: the LLM
        ledger records finished calls through one, so a stage killed mid-transaction still keeps
        the calls it paid for. Close it (or this store) when done."""
        return Store(self.con.cursor(), self.path, self.read_only)

    def user_sql(
        self, sql: str, params: Mapping[str, Any] | Sequence[Any] | None = None
    ) -> pa.Table:
        """Run a user's own statement (``toolex sql``), not a shipped file; rows as Arrow.

        The only door for SQL that does not ship with toolex: the caller vets the statement
        (toolex.sqlaccess refuses writes unless asked, and opens the store read-only). A write
        comes back as DuckDB reports it (a ``Count`` column); a statement without any result
        as an empty table with one column ``rows``."""
        cur = self.con.execute(sql, params) if params else self.con.execute(sql)
        if cur.description is None:  # a write without RETURNING
            return pa.table({"rows": pa.array([], pa.int64())})
        # A DB-API result copies once more than con.sql(), which cannot bind ``?`` parameters
        # here; one copy of a shell query's rows is cheap, so DuckDB's warning is silenced.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return cur.to_arrow_table()

    # -- existence: one family of errors, one wording ------------------------------------------

    def benchmarks(self) -> list[str]:
        """Every stored benchmark's name, sorted."""
        return self._names("store/10_benchmarks.sql", {})

    def expansions(self, benchmark: str | None = None) -> list[str]:
        """The expansions of ``benchmark`` (of any benchmark when None) that hold rows, sorted;
        the implicit ``default`` is listed only once a stage or import wrote it."""
        return self._names("store/11_expansions.sql", {"benchmark": benchmark})

    def runs(self, benchmark: str | None = None) -> list[str]:
        """The stored runs (of ``benchmark`` when given), sorted."""
        return self._names("store/12_runs.sql", {"benchmark": benchmark})

    def _names(self, name: str, params: Mapping[str, Any]) -> list[str]:
        return [row[0] for row in self.execute(name, params).fetchall()]

    def require_benchmark(self, benchmark: str | None) -> str:
        """``benchmark``, or the only one stored when None; NotFoundError with close names."""
        known = self.benchmarks()
        if benchmark is None:
            if len(known) == 1:
                return known[0]
            if not known:
                raise NotFoundError("benchmark", "", [], "load one with `toolex load` first")
            raise NotFoundError(
                "benchmark", "", known, "the store holds several; name one with --benchmark"
            )
        if benchmark not in known:
            raise NotFoundError("benchmark", benchmark, known, "load it with `toolex load`")
        return benchmark

    def require_expansion(self, benchmark: str | None, expansion: str) -> str:
        """``expansion`` of ``benchmark`` (of any benchmark when None): it must have been
        expanded or imported, except the implicit ``default`` (DEFAULT_EXPANSION)."""
        if expansion == DEFAULT_EXPANSION:
            return expansion
        known = self.expansions(benchmark)
        if expansion not in known:
            raise NotFoundError(
                "expansion",
                expansion,
                sorted({*known, DEFAULT_EXPANSION}),
                f"expand it with `toolex expand --benchmark {benchmark or 'NAME'} "
                f"--expansion {expansion}`",
            )
        return expansion

    def require_runs(self, runs: list[str], benchmark: str | None = None) -> list[str]:
        """Every name in ``runs`` is a stored run (of ``benchmark`` when given)."""
        known = self.runs(benchmark)
        for run in runs:
            if run not in known:
                raise NotFoundError(
                    "run",
                    run,
                    known,
                    "make one with `toolex retrieve` or `toolex runs import`",
                )
        return runs
