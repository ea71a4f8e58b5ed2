"""The Store: a toolex workspace, opened from one DuckDB file (or in memory) and migrated to
this toolex's schema, with checks that the file is whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from toolex.errors import StoreError
from toolex.resources import sql_text
from toolex.store import commits, side_files
from toolex.store.commits import Count
from toolex.store.config import (
    DEFAULT_DB,
    LOCKED_DOWN,
    memory_limit,
    read_only_threads,
    scratch_threads,
)
from toolex.store.duck import duckdb
from toolex.store.existence import Existence
from toolex.store.failures import RECOVER, is_failure_of_the_file, store_error
from toolex.store.migrations import Migrations


def _has_log(path: str) -> bool:
    """Whether the store has a write-ahead log with anything in it (commits not yet
    checkpointed into the file, which DuckDB replays on open)."""
    try:
        return Path(f"{path}.wal").stat().st_size > 0
    except OSError:
        return False


class UnreadableTable(NamedTuple):
    """A table a damaged store file cannot serve in full, with the first line of DuckDB's
    error (``toolex check``, ``toolex tui --snapshot``)."""

    table: str
    error: str


class OpenState(NamedTuple):
    """What store/04_open_state.sql reads: the schema version and the commit count (as
    :class:`~toolex.store.commits.Count`) of a store, in one query."""

    schema_version: int | None
    store_id: str
    commits: int
    n_rows: int


class DatabaseSize(NamedTuple):
    """DuckDB's account of the store file's blocks (``pragma_database_size``)."""

    block_size: int
    total_blocks: int
    used_blocks: int


# Tables a store fills when it is created, before it holds anything of a user's.
BOOKKEEPING = frozenset({"schema_version", "store_identity", "store_commits"})


def _remove_store_files(path: str) -> None:
    """The store file and every file toolex or DuckDB names after it (log, commit record,
    vector and spill folders)."""
    import shutil

    for name in (path, f"{path}.wal", str(commits.record_path(path))):
        Path(name).unlink(missing_ok=True)
    for folder in (f"{path}.lance", f"{path}.tmp"):
        shutil.rmtree(folder, ignore_errors=True)


class Store(Migrations, Existence):
    """A toolex workspace: a DuckDB connection plus helpers to run the shipped SQL.

    Use ``Store.open(path)``; ``read_only=True`` opens the file without taking the write lock
    (the TUI, ``toolex sql``, reports) and with DuckDB locked down (:data:`LOCKED_DOWN`: no
    file, network or extension access beyond the store itself, settings frozen) unless
    ``allow_files=True`` (``toolex sql --allow-files``).

    The store is the only way into DuckDB: code asks it for rows (``rows``, ``scalar``), Arrow
    tables (``arrow``), registered inputs (``registered``) and transactions, never for ``con``.
    Two documented doors remain for what shipped SQL cannot do: ``cursor()`` (a second store over
    the same database whose writes commit on their own, for the LLM ledger) and ``user_sql()``
    (a user's own statement, for ``toolex sql``).

    How SQL runs is :class:`~toolex.store.connection.Connection`'s; the schema version and its
    migrations are :class:`~toolex.store.migrations.Migrations`'; the names a store holds and
    the checks that a name is one of them are :class:`~toolex.store.existence.Existence`'.
    """

    @classmethod
    def open(
        cls, path: str | Path = DEFAULT_DB, *, read_only: bool = False, allow_files: bool = False
    ) -> Store:
        path = str(path)
        if path != ":memory:":
            kind = side_files.not_regular(path)
            if kind is not None:
                raise StoreError(f"the store {path} is {kind}, not a file; name a .duckdb file")
            # DuckDB reads its log on open, and a FIFO there would never answer; the commit
            # record is checked as it is read (commits.read_record)
            side_files.check(f"{path}.wal", "DuckDB keeps the store's write-ahead log")
        new = path != ":memory:" and not Path(path).exists()
        folder = Path(path).expanduser().parent
        if new and not folder.is_dir():
            # DuckDB's own words ("Cannot open file") read as a damaged store, with recovery
            # advice for a file that was never there.
            what = "is not a folder" if folder.exists() else "does not exist"
            todo = (
                "name the store you mean with --db, or create one with `toolex load ...`"
                if read_only
                else f"create it (mkdir -p {folder}) or name another --db"
            )
            raise StoreError(f"no store at {path}: the folder {folder} {what}; {todo}")
        if read_only and new:
            raise StoreError(f"no store at {path}; create one with `toolex load ...` first")
        log = path != ":memory:" and _has_log(path)  # before DuckDB replays and removes it
        locked = read_only and not allow_files
        config: dict[str, Any] = dict(LOCKED_DOWN if locked else {})
        lock = config.pop("lock_configuration", False)  # after the session setting below
        if path != ":memory:":
            config |= {"memory_limit": memory_limit()} | read_only_threads(path, locked)
        try:
            con = duckdb.connect(path, read_only=read_only, config=config)
            # DuckDB draws its progress bar on stdout, piped or not, for any statement past 2 s:
            # on a loaded machine it landed in `--format json` output (issue 25). A session
            # setting (cursors inherit it), so it is set here, then the configuration locked.
            con.execute("SET enable_progress_bar = false")
            if lock:
                con.execute("SET lock_configuration = true")
        except duckdb.Error as exc:  # a held lock (lock_message), a damaged file, ...
            raise store_error(exc, path) or exc from exc
        store = cls(con, path, read_only)
        store.created = new
        try:
            with store._translated():
                store._check_length()
                state = None if new else store._open_state()
                count = store._check_commits(log, state)
                migrated = store.migrate(None if state is None else state.schema_version)
                store._start_counting(None if migrated else count)
        except BaseException:
            con.close()
            if new:
                _remove_store_files(path)
            raise
        return store

    @classmethod
    def memory(cls) -> Store:
        return cls.open(":memory:")

    @classmethod
    def scratch(cls) -> Store:
        """A store in memory with no tables: no schema, no migrations, for a caller that
        builds connection-local stand-ins of only the tables it reads (toolex.runs.plain, for
        `toolex eval --run-file --qrels-file`). The whole schema costs 0.065 CPU-s to create,
        a fifth of what scoring two files takes."""
        # One thread: what it holds is a few MB (8 MB files at most), where DuckDB's second
        # thread only adds the CPU of handing work over: 0.04 CPU-s of the 0.33 a `toolex eval`
        # of two TREC files took (benchmarks/bench_startup.py), and no wall time. No I/O pool
        # either (toolex.store.config.scratch_threads).
        config: dict[str, Any] = scratch_threads()
        con = duckdb.connect(":memory:", config=config)
        con.execute("SET enable_progress_bar = false")  # as open() sets it, for the same reason
        return cls(con, ":memory:", False)

    def close(self) -> None:
        if self._counter is not None:
            self._counter.close()
        self._con.close()

    def _open_state(self) -> OpenState | None:
        """The schema version and commit count of a store whose bookkeeping tables are all
        there, in one query (a current store: every open but the first of a file); None for a
        new store, one from before schema 70 or a damaged file, which the steps after read
        one by one (and word their failures)."""
        if self.path == ":memory:":
            return None
        try:
            state = self._con.execute(sql_text("store/04_open_state.sql")).fetchall()[0]
        except duckdb.Error:
            return None
        return OpenState(*state)

    def _check_commits(self, log: bool = True, state: OpenState | None = None) -> Count | None:
        """Refuse a store that lost committed writes (toolex.store.commits), before anything
        is read from it or written to it; ``log``: it had a write-ahead log when opened;
        ``state``: what :meth:`_open_state` read. The count checked, None where nothing is
        counted (in memory, before schema 70, a damaged file opened to read)."""
        if self.path == ":memory:":
            return None
        if state is not None:
            count = Count(state.store_id, state.commits, state.n_rows)
        else:
            try:
                count = self.commit_count()
            except duckdb.CatalogException:  # a store from before schema 70: nothing counted
                return None
            except duckdb.Error as exc:
                if self.read_only and is_failure_of_the_file(exc, self.path):
                    return None  # a damaged file: `toolex check` names what it can still read
                raise
        commits.check(self.path, count, log)
        return count

    def _start_counting(self, count: Count | None = None) -> None:
        """Count every commit from now on (a store file opened for writing), after folding a
        long count into one row, and record the count as it stands (a store first counted,
        or a record deleted, gets one now); ``count``: the store's, when already read."""
        if self.path == ":memory:" or self.read_only:
            return
        if count is None:
            count = self.commit_count()
        if count.n_rows > commits.COMPACT_ROWS:
            with self.transaction():
                self.execute_script("store/52_compact_commits.sql")
            count = self.commit_count()
        self.counting = True
        with self._translated():
            commits.record(self.path, count, opening=True)

    def _check_length(self) -> None:
        """A file shorter than the blocks its header claims was truncated (a partial copy, a
        full disk): DuckDB opens it, fails table by table later, and lets a writer "succeed"
        on it. Writers are refused here; readers may open it (``toolex check`` then names the
        tables that can still be read, each failing one raising StoreError when queried)."""
        if self.path == ":memory:" or self.read_only:
            return
        size = self.typed("store/40_database_size.sql", DatabaseSize)
        if not size:
            return
        # Blocks that hold data must all be in the file; free ones at its end need not be: a
        # healthy store whose last blocks were freed is one block (less its header) shorter
        # than block_size * total_blocks.
        claimed = int(size[0].block_size) * int(size[0].used_blocks)
        actual = Path(self.path).stat().st_size
        if actual < claimed:
            raise StoreError(
                f"the store {self.path} is truncated: its header claims {claimed} bytes of "
                f"blocks, the file holds {actual}. To recover: " + RECOVER.format(path=self.path)
            )

    def __enter__(self) -> Store:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is not None and self.discard_if_new():
            return
        self.close()

    def discard_if_new(self) -> bool:
        """After a failed command: close and delete the store when this open created it and it
        still holds nothing (only its bookkeeping: schema version, identity, commit count), so
        a failed first command (`expand --benchmark nope` on a new path) leaves no empty store
        behind. True when it was deleted (and closed)."""
        if not self.created or self.read_only:
            return False
        try:
            counts = self.rows("store/20_table_counts.sql")
        except Exception:  # noqa: BLE001 - unsure what it holds: keep it
            return False
        if any(r["rows"] for r in counts if r["table"] not in BOOKKEEPING):
            return False
        self.close()
        _remove_store_files(self.path)
        return True

    def cursor(self) -> Store:
        """A second store over the same database with its own transaction state.

        Its writes commit on their own, outside any transaction open on this store: the LLM
        ledger records finished calls through one, so a stage killed mid-transaction still keeps
        the calls it paid for. Close it (or this store) when done."""
        return Store(self._con.cursor(), self.path, self.read_only, self.counting)

    def unreadable_tables(self) -> list[UnreadableTable]:
        """Each table that cannot be read in full, with DuckDB's error: a damaged file can open
        and serve most tables while one table's blocks are gone (``toolex check``)."""
        bad = []
        for table in self._names("store/41_tables.sql", {}):
            try:
                self.execute("store/42_read_table.sql", {"table": table}).fetchall()
            except (duckdb.Error, StoreError) as exc:
                cause = exc.__cause__ if isinstance(exc, StoreError) else exc
                bad.append(UnreadableTable(table, (str(cause or exc).splitlines() or ["?"])[0]))
        return bad
