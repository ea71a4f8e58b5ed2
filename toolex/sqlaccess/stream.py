"""A user's statement run against a store and read as a stream of Arrow record batches, with a
time limit and Ctrl-C that stop it inside DuckDB (what `toolex sql` runs).

DuckDB notices an interrupt between two chunks of work, so one scalar call over one huge value
(``regexp_replace(repeat('ab', 10^8), ...)``, ``repeat('ab', 10^9)``) runs to its end first:
`--timeout 1` took 27 s and 71 s, and Ctrl-C waited as long. A stop therefore has a total
deadline: DuckDB is interrupted for :data:`GRACE` seconds more, and when it has not let go by
then the statement is left running on its thread (:func:`left_running`), the stream ends in
:class:`SqlStopped` all the same, and the process must exit without closing the store (what
`toolex sql` does: ``os._exit``; a read-only statement changed nothing, and a write's transaction
was never committed, so DuckDB rolls it back).
"""

from __future__ import annotations

import contextlib
import math
import queue
import threading
import time
from collections.abc import Iterator, Sequence
from typing import cast

import pyarrow as pa

from toolex.errors import ToolexError
from toolex.sqlaccess import readonly
from toolex.sqlrunner import Params, SqlValue
from toolex.store import Store, store_error

# Rows per Arrow batch of a streamed result: a few MB for typical rows, few enough batches.
BATCH_ROWS = 10_000
# Seconds DuckDB is given to let go of a stopped statement before it is left running.
GRACE = 2.0
# The longest time limit a thread can wait for (about 292 years: threading's own bound).
MAX_TIMEOUT = float(threading.TIMEOUT_MAX)
_left_running = threading.Event()


def left_running() -> bool:
    """Whether a stopped statement was left running on its thread (it ignored DuckDB's
    interrupt past :data:`GRACE`): the process must then exit without closing its store."""
    return _left_running.is_set()


def check_timeout(timeout: float | None) -> float | None:
    """``timeout`` as a time limit in seconds, or None for none: ``inf`` means none, and a
    number that is not one (NaN), not above 0, or past what a thread can wait is an error."""
    if timeout is None or timeout == math.inf:
        return None
    if math.isnan(timeout) or timeout <= 0 or timeout > MAX_TIMEOUT:
        raise ToolexError(
            f"--timeout {timeout:g}: give seconds above 0 and at most {MAX_TIMEOUT:.3g}, or inf "
            "(or no --timeout) for no time limit"
        )
    return timeout


def run_sql(
    db: str,
    sql: str,
    *,
    write: bool = False,
    allow_files: bool = False,
    params: Params | Sequence[SqlValue] | None = None,
    timeout: float | None = None,
) -> pa.Table:
    """Run one statement against the store at ``db``; rows come back as one Arrow table (what
    :func:`stream_sql` streams, read whole)."""
    with stream_sql(
        db, sql, write=write, allow_files=allow_files, params=params, timeout=timeout
    ) as stream:
        return pa.Table.from_batches(list(stream), schema=stream.schema)


class SqlStopped(ToolexError):
    """A statement stopped before its end: its time limit passed (``reason`` "timeout") or the
    user pressed Ctrl-C ("interrupt"). DuckDB's interrupt stopped it; nothing was written."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class SqlStream:
    """One statement's result as Arrow record batches, read as they come (:func:`stream_sql`).

    DuckDB runs the statement on a worker thread that hands batches over a queue two deep, so
    the result is never whole in memory, and the main thread stays free to take Ctrl-C: a
    statement inside DuckDB does not return to Python until it is done, so the signal would
    otherwise wait for it. Ctrl-C, or the time limit, calls the connection's ``interrupt()``
    until the worker has let go (an interrupt that lands before DuckDB starts the statement is
    forgotten, so one call is not enough), for :data:`GRACE` seconds at most; the stream then
    ends in :class:`SqlStopped` (the statement left running if DuckDB did not let go)."""

    def __init__(
        self,
        store: Store,
        sql: str,
        params: Params | Sequence[SqlValue] | None,
        timeout: float | None,
        batch_rows: int,
    ) -> None:
        self._store, self._timeout = store, check_timeout(timeout)
        self._queue: queue.Queue[tuple[str, object]] = queue.Queue(maxsize=2)
        self._stop = threading.Event()
        self._timed_out = threading.Event()
        self._worker = threading.Thread(
            target=self._produce, args=(sql, params, batch_rows), daemon=True
        )
        self._timer = (
            threading.Timer(self._timeout, self._expire) if self._timeout is not None else None
        )
        self.schema = pa.schema([])

    def _produce(
        self, sql: str, params: Params | Sequence[SqlValue] | None, batch_rows: int
    ) -> None:
        try:
            reader = self._store.user_reader(sql, params, batch_rows)
            if self._hand("schema", reader.schema):
                for batch in reader:
                    if not self._hand("batch", batch):
                        return
                self._hand("end", None)
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread, raised there
            self._hand("error", exc)

    def _hand(self, kind: str, value: object) -> bool:
        """Put one message on the queue unless the stream was stopped; False once it was."""
        while not self._stop.is_set():
            try:
                self._queue.put((kind, value), timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def _expire(self) -> None:
        """The time limit passed (on the timer's thread): flag it and interrupt DuckDB; the
        main thread, waiting for a batch or between two, stops the stream."""
        self._timed_out.set()
        with contextlib.suppress(Exception):
            self._store.interrupt()

    def _halt(self) -> None:
        """Interrupt DuckDB until the worker lets go of the statement, for GRACE seconds at
        most; past them the statement is left running (:func:`left_running`)."""
        deadline = time.monotonic() + GRACE
        while self._worker.is_alive() and time.monotonic() < deadline:
            with contextlib.suppress(Exception):  # a connection that is closing: nothing runs
                self._store.interrupt()
            self._worker.join(timeout=0.1)
        if self._worker.is_alive():
            _left_running.set()

    @property
    def running(self) -> bool:
        """Whether the statement still runs on its thread (the store must then stay open)."""
        return self._worker.is_alive()

    def _next(self) -> tuple[str, object]:
        while True:
            if self._timed_out.is_set():
                raise self.stopped("timeout")
            try:
                kind, value = self._queue.get(timeout=0.1)  # Ctrl-C interrupts the wait
                break
            except queue.Empty:
                if not self._worker.is_alive() and self._queue.empty():
                    if self._timed_out.is_set():
                        raise self.stopped("timeout") from None
                    raise ToolexError("the statement ended without a result") from None
        if kind == "error":  # _produce hands the exception it met
            raise self._failure(cast(BaseException, value))
        if self._timed_out.is_set() and kind != "end":
            raise self.stopped("timeout")
        return kind, value

    def start(self) -> None:
        """Start the statement and wait for its first batch (and so its columns)."""
        self._worker.start()
        if self._timer is not None:
            self._timer.start()
        _, self.schema = self._next()

    def __iter__(self) -> Iterator[pa.RecordBatch]:
        while True:
            kind, value = self._next()
            if kind == "end":
                return
            yield value

    @property
    def columns(self) -> list[str]:
        return list(self.schema.names)

    def close(self) -> None:
        """Stop the statement if it still runs, and wait for the worker to let go of it (for
        GRACE seconds at most)."""
        if self._timer is not None:
            self._timer.cancel()
        self._stop.set()  # a worker waiting to hand a batch over gives up
        self._halt()
        if self._timer is not None and self._timer.is_alive():
            self._timer.join()  # it may be interrupting too; the store closes after both

    def stopped(self, reason: str) -> SqlStopped:
        """The statement, stopped for ``reason``, as the error to raise."""
        self.close()
        how = "DuckDB stopped the statement"
        if self.running:
            how = (
                f"DuckDB had not stopped the statement {GRACE:g} s later (one value too large to "
                "interrupt), so toolex left it and exits"
            )
        if reason == "timeout":
            return SqlStopped(
                f"the statement ran past its time limit of {self._timeout:g} s (--timeout) and "
                f"{how}; the store is as it was",
                reason,
            )
        return SqlStopped(f"interrupted (Ctrl-C): {how}; the store is as it was", reason)

    def _failure(self, exc: BaseException) -> ToolexError:
        if self._timed_out.is_set():
            return self.stopped("timeout")
        if isinstance(exc, ToolexError):
            return exc
        mapped = store_error(exc, self._store.path)
        if mapped is not None and not str(mapped).startswith("DuckDB failed on"):
            return mapped
        # DuckDB's own errors name the table or column; a failure met mid-stream comes through
        # pyarrow as an OSError with the same text.
        text = readonly.short(exc, 1000)
        if any(w in text for w in readonly.LOCKED_WORDS):
            text += (
                "; a read-only `toolex sql` reaches nothing but the store itself (no files, "
                "URLs, extensions or settings): add --allow-files to let a query read files"
            )
        return ToolexError(f"the SQL failed: {text}")


@contextlib.contextmanager
def stream_sql(
    db: str,
    sql: str,
    *,
    write: bool = False,
    allow_files: bool = False,
    params: Params | Sequence[SqlValue] | None = None,
    timeout: float | None = None,
    batch_rows: int = BATCH_ROWS,
) -> Iterator[SqlStream]:
    """Run one statement against the store at ``db`` and stream its rows (:class:`SqlStream`:
    ``schema``, ``columns``, then iterate for Arrow record batches).

    Without ``write`` the statement must pass :func:`check_read_only` and the store is opened
    read-only and locked down (``allow_files`` lets the query read files); with it, the store is
    opened for writing and the statement runs in a transaction, committed once the rows are
    read. ``timeout`` (seconds) stops the statement when it passes, Ctrl-C at once
    (:class:`SqlStopped` either way)."""
    timeout = check_timeout(timeout)
    if not write:
        readonly.check_read_only(sql, allow_files=allow_files)
    store = Store.open(db, read_only=not write, allow_files=allow_files)
    stream: SqlStream | None = None
    try:
        with store.transaction() if write else contextlib.nullcontext():
            stream = SqlStream(store, sql, params, timeout, batch_rows)
            try:
                stream.start()
                yield stream
            except KeyboardInterrupt:  # while waiting for a batch, or while printing one
                raise stream.stopped("interrupt") from None
            finally:
                stream.close()
            if stream.running:  # the caller stopped reading, and DuckDB did not let go
                raise SqlStopped(
                    "the statement was stopped early and left running; nothing was committed",
                    "interrupt",
                )
    finally:
        # A statement left running holds the connection (DuckDB refuses to close it): the
        # caller exits the process instead (left_running).
        if stream is None or not stream.running:
            store.close()
