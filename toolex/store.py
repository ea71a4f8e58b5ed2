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

from toolex.errors import StoreError
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
