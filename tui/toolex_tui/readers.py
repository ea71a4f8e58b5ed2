"""Reads off the UI thread: a small pool of threads, each with its own connection to the store.

A page's SQL takes tens of milliseconds, and so does Textual mounting the page; run one after the
other they add up. The query page therefore starts its reads here when it is created and Textual
lays the page out meanwhile (DuckDB releases the GIL while it runs a query). A DuckDB connection
must not be used by two threads at once, so each thread reads through its own
``Store.cursor()``, opened on its first task and closed with the pool. The app starts the pool
while the query list shows, so the first page opened finds its connections ready. No Textual
import here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from toolex.store import Store

T = TypeVar("T")
# Two: the query page's slowest read (its per-run scores) runs beside all the others.
WORKERS = 2


class Readers:
    """``submit(fn)`` runs ``fn(store)`` on a reader thread, with that thread's own store.

    ``warm(store)``, when given, runs at once on every thread: what each connection needs before
    its first real read (the metric macros), done while nobody waits for it."""

    def __init__(
        self, store: Store, workers: int = WORKERS, warm: Callable[[Store], object] | None = None
    ) -> None:
        self._store = store
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="toolex-read")
        self._local = threading.local()
        self._cursors: list[Store] = []
        self._lock = threading.Lock()
        # The barrier holds each warm-up until all are running: one per thread, not two on the
        # first thread while the other stays cold. close() breaks it, should a thread never come.
        self._warming = threading.Barrier(workers)
        if warm is not None:
            for _ in range(workers):
                self.submit(lambda store: (self._warming.wait(timeout=5), warm(store)))

    def submit(self, fn: Callable[[Store], T]) -> Future[T]:
        return self._pool.submit(self._run, fn)

    def _run(self, fn: Callable[[Store], T]) -> T:
        store = getattr(self._local, "store", None)
        if store is None:
            store = self._local.store = self._store.cursor()
            with self._lock:
                self._cursors.append(store)
        return fn(store)

    def close(self) -> None:
        """Wait for the reads under way, then close the threads' connections."""
        self._warming.abort()
        self._pool.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            for store in self._cursors:
                store.close()
            self._cursors.clear()
