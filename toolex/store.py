"""The DuckDB store: one file per workspace, schema-versioned, with bound-parameter SQL files.

Schema files live in ``sql/schema/NNN_name.sql``; their number is the schema version. Opening a
store applies the missing ones in order inside one transaction, so an old store file is migrated
rather than broken, and a store written by a newer toolex is refused with a clear message.
"""

from __future__ import annotations

import contextlib
import os
import re
import warnings
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from toolex.errors import InputError, NotFoundError, StoreError
from toolex.resources import sql_files, sql_text

DEFAULT_DB = "toolex.duckdb"
# Every benchmark's implicit expansion: before any stage runs it holds the original annotation
# only, so naming it is never an error (its new scores then equal the old ones).
DEFAULT_EXPANSION = "default"
# DuckDB caches every block it reads or writes up to its memory limit, 80% of RAM by default: a
# long write (assembling 10,000 queries of a 50k-tool library) kept 12.4 GB resident though no
# statement needed more than a few hundred MB. A file store's limit is this (DuckDB then evicts
# to the file and spills large operators to <store>.tmp/): that assembly finishes in it at 3.5 GB
# peak RSS, what DuckDB cannot evict (indexes, temporary tables) and Python included.
# TOOLEX_MEMORY_LIMIT overrides it ("8GB", "500MB"); an out-of-memory error names it. An
# in-memory store keeps DuckDB's default: it has no file to evict to.
MEMORY_LIMIT = "2GB"
MEMORY_LIMIT_VAR = "TOOLEX_MEMORY_LIMIT"
_SIZE_RE = re.compile(r"\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)", re.IGNORECASE)
_VERSION_RE = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")

# A read-only store reaches nothing but its own file: no other file is read or written
# (read_text('/etc/passwd'), glob, COPY TO, EXPORT DATABASE, ATTACH), no URL is fetched, no
# extension is installed or loaded, and no SET/RESET/PRAGMA can change a setting back (the
# configuration is locked). DuckDB itself refuses, whatever sqlglot made of the statement
# (toolex.sqlaccess). Given at connect time: once locked, nothing could be set later; the store
# file and its write-ahead log are opened by the connect itself, so they stay readable.
LOCKED_DOWN: dict[str, bool] = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "lock_configuration": True,
}
# DuckDB's words for a file it cannot trust (its exception classes are not enough: a checksum
# failure arrives as the base duckdb.Error, and an IOException may be about a user's own file).
_DAMAGE_WORDS = (
    "corrupt",
    "checksum",
    "not a valid duckdb database",
    "could not read enough bytes",
    "invalidated",
    "failed to load metadata",
)
_DISK_WORDS = ("no space left", "disk full", "file too large", "disk quota")
_RECOVER = (
    "restore a backup copy, or move the file aside and rebuild the store (`toolex load` your "
    "inputs again, then re-import runs and re-run expansions). `toolex check --db {path}` "
    "names the tables that can still be read; copy those out first, e.g. "
    '`toolex sql "FROM llm_calls" --db {path} --format parquet --out calls.parquet`'
)


def memory_limit() -> str:
    """The memory limit a file store opens with: ``TOOLEX_MEMORY_LIMIT`` if set, else
    :data:`MEMORY_LIMIT`; a value DuckDB would refuse is an InputError naming the variable."""
    value = os.environ.get(MEMORY_LIMIT_VAR, "").strip()
    if not value:
        return MEMORY_LIMIT
    if not _SIZE_RE.fullmatch(value):
        raise InputError(
            f"{MEMORY_LIMIT_VAR}={value!r} is not a size: give a number and a unit, "
            "e.g. 4GB, 500MB or 1.5GiB"
        )
    return value


def store_error(exc: BaseException, path: str | None = None) -> StoreError | None:
    """The one translation of DuckDB's failures into a message a user can act on: what failed,
    in which file, and how to recover. None when ``exc`` is not DuckDB's.

    Every command goes through it: the Store's own methods raise its StoreError for a damaged,
    locked or full store (:meth:`Store._translated`), and the CLI's ``main`` passes anything
    else DuckDB raised through it, so no DuckDB error reaches the user as a traceback."""
    if not isinstance(exc, duckdb.Error):
        return None
    where = f"the store {path}" if path else "the store"
    text = str(exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    if _locked(exc):
        return StoreError(lock_message(path or "", text))
    if _disk_full(exc):
        return StoreError(
            f"{where} could not be written ({first}); the command's changes were rolled back, "
            "so the store holds what it held before. Free disk space (DuckDB also needs room "
            "for the write-ahead log beside the file) and run the command again"
        )
    if _damaged(exc, path):
        recover = _RECOVER.format(path=path or "PATH")
        return StoreError(f"{where} is damaged or unreadable ({first}). To recover: {recover}")
    if isinstance(exc, duckdb.OutOfMemoryException):
        return StoreError(
            f"DuckDB ran out of memory on {where} ({first}); the command's changes were rolled "
            f"back. Allow it more with {MEMORY_LIMIT_VAR} (now {memory_limit()}), e.g. "
            f"{MEMORY_LIMIT_VAR}=8GB, and run the command again"
        )
    return StoreError(f"DuckDB failed on {where}: {first}")


def _locked(exc: duckdb.Error) -> bool:
    return isinstance(exc, duckdb.IOException) and "lock" in str(exc).lower()


def _disk_full(exc: duckdb.Error) -> bool:
    return any(w in str(exc).lower() for w in _DISK_WORDS)


def _damaged(exc: duckdb.Error, path: str | None) -> bool:
    fatal = duckdb.InternalException | duckdb.FatalException | duckdb.SerializationException
    if isinstance(exc, fatal) or any(w in str(exc).lower() for w in _DAMAGE_WORDS):
        return True
    # An IOException about the store's own file (not, say, a user's read_csv of a missing one).
    return isinstance(exc, duckdb.IOException) and bool(path) and str(path) in str(exc)


def _is_failure_of_the_file(exc: duckdb.Error, path: str) -> bool:
    """Damage, a full disk or a held lock: failures of the store file rather than of a
    statement (a missing table, a bad cast), which callers may expect and handle."""
    return _locked(exc) or _disk_full(exc) or _damaged(exc, path)


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


def lock_holder(duckdb_error: str) -> str:
    """The process holding a store's lock, as DuckDB's error names it (``... is held in EXE
    (PID n)``), with its command line when the system shows it; else "another process"."""
    match = re.search(r"held in (.+?) \(PID (\d+)\)", duckdb_error)
    if not match:
        return "another process"
    exe, pid = match.groups()
    with contextlib.suppress(OSError):
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        shown = " ".join(a.decode(errors="replace") for a in argv if a)
        if shown:
            return f"PID {pid} ({shown[:160]})"
    return f"PID {pid} ({exe})"


def lock_message(path: str, duckdb_error: str) -> str:
    """Who holds the store and what to do. DuckDB lets one process write a file and no other
    open it meanwhile, even read-only: an open ``toolex tui`` blocks ``load``, ``expand`` and
    ``retrieve`` just as a running pipeline does."""
    return (
        f"the store {path} is locked by {lock_holder(duckdb_error)}: while one process has a "
        "store open for writing no other may open it, and while any process has it open (a "
        "running pipeline, or a `toolex tui` even though it only reads) none may write; wait "
        "for it or close it (`toolex tui --snapshot` browses a copy and holds no lock)"
    )


class Store:
    """A toolex workspace: a DuckDB connection plus helpers to run the shipped SQL.

    Use ``Store.open(path)``; ``read_only=True`` opens the file without taking the write lock
    (the TUI, ``toolex sql``, reports) and with DuckDB locked down (:data:`LOCKED_DOWN`: no
    file, network or extension access beyond the store itself, settings frozen) unless
    ``allow_files=True`` (``toolex sql --allow-files``).

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
    def open(
        cls, path: str | Path = DEFAULT_DB, *, read_only: bool = False, allow_files: bool = False
    ) -> Store:
        path = str(path)
        if path != ":memory:" and Path(path).exists() and not Path(path).is_file():
            raise StoreError(f"the store {path} is not a file (a folder?); name a .duckdb file")
        if read_only and path != ":memory:" and not Path(path).exists():
            raise StoreError(f"no store at {path}; create one with `toolex load ...` first")
        config: dict[str, Any] = dict(LOCKED_DOWN if read_only and not allow_files else {})
        if path != ":memory:":
            config["memory_limit"] = memory_limit()
        try:
            con = duckdb.connect(path, read_only=read_only, config=config)
        except duckdb.Error as exc:  # a held lock (lock_message), a damaged file, ...
            raise store_error(exc, path) or exc from exc
        store = cls(con, path, read_only)
        try:
            with store._translated():
                store._check_length()
                store.migrate()
        except BaseException:
            con.close()
            raise
        return store

    @classmethod
    def memory(cls) -> Store:
        return cls.open(":memory:")

    def close(self) -> None:
        self.con.close()

    @contextlib.contextmanager
    def _translated(self) -> Iterator[None]:
        """DuckDB's failures of the file itself (damage, full disk, lock) as StoreError."""
        try:
            yield
        except duckdb.Error as exc:
            if not _is_failure_of_the_file(exc, self.path):
                raise
            raise store_error(exc, self.path) or exc from exc

    def _check_length(self) -> None:
        """A file shorter than the blocks its header claims was truncated (a partial copy, a
        full disk): DuckDB opens it, fails table by table later, and lets a writer "succeed"
        on it. Writers are refused here; readers may open it (``toolex check`` then names the
        tables that can still be read, each failing one raising StoreError when queried)."""
        if self.path == ":memory:" or self.read_only:
            return
        size = self.rows("store/40_database_size.sql")
        if not size:
            return
        # Blocks that hold data must all be in the file; free ones at its end need not be: a
        # healthy store whose last blocks were freed is one block (less its header) shorter
        # than block_size * total_blocks.
        claimed = int(size[0]["block_size"]) * int(size[0]["used_blocks"])
        actual = Path(self.path).stat().st_size
        if actual < claimed:
            raise StoreError(
                f"the store {self.path} is truncated: its header claims {claimed} bytes of "
                f"blocks, the file holds {actual}. To recover: " + _RECOVER.format(path=self.path)
            )

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

        Yields the store itself (``with store.transaction() as tx: tx.execute(...)``). A commit
        that fails (a full disk) rolls back and raises StoreError: nothing was written."""
        with self._translated():
            self.con.execute("BEGIN TRANSACTION")
        try:
            yield self
        except BaseException:
            with contextlib.suppress(duckdb.Error):  # an invalidated database cannot roll back
                self.con.execute("ROLLBACK")
            raise
        try:
            with self._translated():
                self.con.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(duckdb.Error):
                self.con.execute("ROLLBACK")
            raise

    def execute(
        self, name: str, params: Mapping[str, Any] | None = None
    ) -> duckdb.DuckDBPyConnection:
        """Run one shipped SQL file (one statement) with ``$name`` parameters bound."""
        with self._translated():
            return self.con.execute(sql_text(name), dict(params or {}))

    def rows(self, name: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run one shipped SQL file and return its rows as dicts."""
        cur = self.execute(name, params)
        cols = [d[0] for d in cur.description or []]
        with self._translated():
            return [dict(zip(cols, row, strict=True)) for row in cur.fetchall()]

    def execute_script(self, name: str) -> None:
        """Run a shipped multi-statement SQL file that takes no parameters (DDL, views)."""
        with self._translated():
            self.con.execute(sql_text(name))

    def arrow(self, name: str, params: Mapping[str, Any] | None = None) -> pa.Table:
        """Run one shipped SQL query with bound parameters; rows come back as an Arrow table.

        DuckDB refuses a relation query while an earlier ``execute()`` result is unread (e.g. the
        schema-version probe), so that result is completed first.
        """
        with self._translated():
            self.con.complete()
            return self.con.sql(sql_text(name), params=dict(params or {})).to_arrow_table()

    def copy_parquet(self, name: str, params: Mapping[str, Any] | None, path: str | Path) -> None:
        """Write the rows of one shipped query to a Parquet file with DuckDB's COPY, streamed
        rather than held in memory: how an engine outside DuckDB gets its inputs
        (toolex.engines). A store opened read-only and locked down writes no file; open it
        with ``allow_files=True``."""
        with self._translated():
            self.con.complete()
            self.con.sql(sql_text(name), params=dict(params or {})).write_parquet(str(path))

    def scalar(self, name: str, params: Mapping[str, Any] | None = None) -> Any:
        """The first column of the first row of one shipped SQL query (None when no row)."""
        # fetchall, not fetchone: fetchone leaves the result pending under DuckDB 2.x, and the
        # next relation query (``arrow``) on the connection then fails with "Resource In Use".
        cur = self.execute(name, params)
        with self._translated():
            rows = cur.fetchall()
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
        except BaseException:
            # A failed statement aborts the transaction, and an aborted transaction refuses
            # even unregister: raising that would hide the error that aborted it (an out-of-
            # memory reported as "Current transaction is aborted"). The view is replaced the
            # next time the name is registered.
            for name in done:
                with contextlib.suppress(duckdb.Error):
                    self.con.unregister(name)
            raise
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
        with self._translated():
            cur = self.con.execute(sql, params) if params else self.con.execute(sql)
            if cur.description is None:  # a write without RETURNING
                return pa.table({"rows": pa.array([], pa.int64())})
            # A DB-API result copies once more than con.sql(), which cannot bind ``?``
            # parameters here; one copy of a shell query's rows is cheap, so DuckDB's warning
            # is silenced.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                return cur.to_arrow_table()

    def unreadable_tables(self) -> list[tuple[str, str]]:
        """(table, DuckDB's error) for each table that cannot be read in full: a damaged file
        can open and serve most tables while one table's blocks are gone (``toolex check``)."""
        bad = []
        for table in self._names("store/41_tables.sql", {}):
            try:
                self.execute("store/42_read_table.sql", {"table": table}).fetchall()
            except (duckdb.Error, StoreError) as exc:
                cause = exc.__cause__ if isinstance(exc, StoreError) else exc
                bad.append((table, (str(cause or exc).splitlines() or ["?"])[0]))
        return bad

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
