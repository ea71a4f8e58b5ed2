"""The DuckDB store: one file per workspace, schema-versioned, with bound-parameter SQL files.

Schema files live in ``sql/schema/NNN_name.sql``; their number is the schema version. Opening a
store applies the missing ones in order inside one transaction, so an old store file is migrated
rather than broken, and a store written by a newer toolex is refused with a clear message.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import duckdb

import pyarrow as pa

from toolex.errors import NotFoundError, StoreError
from toolex.resources import sql_files, sql_text

DEFAULT_DB = "toolex.duckdb"
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
            # fetchall, not fetchone: fetchone leaves the result pending under DuckDB 2.x, and
            # the next `con.sql(...)` on the connection then fails with "Resource In Use".
            rows = self.con.execute("SELECT max(version) FROM schema_version").fetchall()
        except duckdb.CatalogException:
            return 0
        return int(rows[0][0] or 0) if rows else 0

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
            self.con.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version INTEGER PRIMARY KEY, name VARCHAR NOT NULL,"
                " applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp)"
            )
            for version, name in pending:
                self.con.execute(sql_text(f"schema/{name}"))
                self.con.execute(
                    "INSERT INTO schema_version (version, name) VALUES (?, ?)", [version, name]
                )

    # -- running SQL ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """All-or-nothing block: a failed load or stage leaves the store as it was."""
        self.con.execute("BEGIN TRANSACTION")
        try:
            yield self.con
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

    def query(self, name: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
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
        rows = self.execute(name, params).fetchall()
        return rows[0][0] if rows else None

    @contextlib.contextmanager
    def registered(self, name: str, table: pa.Table) -> Iterator[None]:
        """Expose an Arrow table to the shipped SQL under ``name`` for the block's duration."""
        self.con.register(name, table)
        try:
            yield
        finally:
            self.con.unregister(name)

    # -- existence: one family of errors, one wording ------------------------------------------

    def benchmarks(self) -> list[str]:
        return [r[0] for r in self.con.execute(sql_text("store/10_benchmarks.sql")).fetchall()]

    def expansions(self, benchmark: str) -> list[str]:
        return [
            r[0]
            for r in self.con.execute(
                sql_text("store/11_expansions.sql"), {"benchmark": benchmark}
            ).fetchall()
        ]

    def runs(self, benchmark: str | None = None) -> list[str]:
        return [
            r[0]
            for r in self.con.execute(
                sql_text("store/12_runs.sql"), {"benchmark": benchmark}
            ).fetchall()
        ]

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

    def require_expansion(self, benchmark: str, expansion: str) -> str:
        """``expansion`` of ``benchmark`` (it must have been expanded or imported)."""
        known = self.expansions(benchmark)
        if expansion not in known:
            raise NotFoundError(
                "expansion",
                expansion,
                known,
                f"expand it with `toolex expand --benchmark {benchmark} --expansion {expansion}`",
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
