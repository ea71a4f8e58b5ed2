"""Data access for the TUI: every list is one page of a SQL query (sql/browse/), never a table
loaded into Python, so a ToolRet-size store stays responsive. No Textual import here: the screens
call these functions, and the tests call them directly too. The query page's reads can also run
on reader threads (``query_page_later``, readers.py) while the page mounts.

Opening: the TUI browses read-only. DuckDB refuses even a read-only open while another process
(a running `toolex expand`) holds the write lock; ``open_browse_store`` then raises
``StoreLockedError`` and ``snapshot_copy`` offers a consistent copy of the file to browse instead.
"""

from __future__ import annotations

import copy
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

from toolex.errors import NotFoundError, StoreError
from toolex.snapshot import snapshot_copy as store_snapshot_copy
from toolex.sqlrunner import SqlValue
from toolex.store import DEFAULT_EXPANSION, LockedError, Store
from toolex_tui.readers import Readers
from toolex_tui.rows import (
    Candidate,
    Combination,
    Member,
    QueryHeader,
    RankedEquivalent,
    RunRanks,
    Slot,
    Tool,
    ToolEquivalent,
    ToolQuery,
)

PAGE_SIZE = 100
# stores (connections) holding the natural_key macro, which lives with its connection
_NATURAL_KEY: weakref.WeakSet[Store] = weakref.WeakSet()
# The sortable columns (a closed set, checked here, then bound as a value in 10_query_list.sql).
SORTS = ("query_id", "task", "category", "n_gt", "n_valid", "r_old", "r_new", "gain", "text")


class StoreLockedError(LockedError):
    """Another process holds the store's write lock; browse a snapshot copy instead."""

    def __init__(self, path: str, review: bool = False, holder: str = "another process") -> None:
        what = (
            "Reviewing writes labels, so it needs the lock: wait for it to finish "
            "(browsing meanwhile works on a copy: `toolex tui --snapshot`)"
            if review
            else "Wait for it to finish, or browse a copy taken now: `toolex tui --snapshot` "
            "(it may miss the pipeline's newest, uncommitted rows)"
        )
        super().__init__(
            f"the store {path} is locked by {holder} (DuckDB lets no other process open a store "
            f"while one writes). {what}",
            holder,
        )
        self.path = path


def open_browse_store(path: str | Path, *, writable: bool = False) -> Store:
    """Open ``path`` read-only (browsing) or read-write (``--review``); a held lock raises
    ``StoreLockedError`` (what to do instead, in the TUI's words). Which failure is a lock is
    toolex.store's to say (its LockedError), never a guess from the message here: a damaged
    file's "checksum ... in block" holds the word "lock" too."""
    path = str(path)
    if not Path(path).exists():
        raise StoreError(f"no store at {path}; create one with `toolex load ...` first")
    try:
        return Store.open(path, read_only=not writable)
    except LockedError as exc:
        # a snapshot cannot help a review: its labels must land in the real store
        raise StoreLockedError(path, review=writable, holder=exc.holder) from exc


def ensure_natural_key(store: Store) -> Store:
    """The ``natural_key`` macro (sql/browse/00_natural_key.sql), by which every list of the
    TUI orders ids (query_2 before query_10), on ``store``'s connection; once per connection."""
    if store not in _NATURAL_KEY:
        store.execute_script("browse/00_natural_key.sql")
        _NATURAL_KEY.add(store)
    return store


def snapshot_copy(path: str | Path, into: str | Path | None = None) -> Path:
    """A consistent copy of the store (file and write-ahead log) in a temporary folder, taken
    without the lock: toolex.snapshot.snapshot_copy, which retries while a writer checkpoints."""
    return store_snapshot_copy(path, into)


@dataclass(frozen=True)
class QueryFilter:
    """The list's filters; None means 'any'. ``beats`` needs ``score_run``."""

    search: str | None = None
    task: str | None = None
    category: str | None = None
    n_gt: int | None = None
    min_valid: int | None = None
    score_run: str | None = None
    beats: bool = False
    equiv_run: str | None = None

    def describe(self) -> str:
        parts = []
        for key, value in asdict(self).items():
            if key == "beats":
                if value:
                    parts.append("R@10 new>old")
            elif value not in (None, ""):
                parts.append(f"{key}={value}")
        return ", ".join(parts) or "no filter"


@dataclass
class Page:
    rows: list[dict[str, Any]]
    total: int  # rows matching the filter, all pages
    offset: int


@dataclass(frozen=True)
class QueryPage:
    """Everything the query page shows; ``header`` None when there is no such query."""

    header: QueryHeader | None
    slots: list[Slot]
    candidates: list[Candidate]
    combinations: list[Combination]
    scores: dict[
        str, dict[str, tuple[float, float] | tuple[None, None]]
    ]  # Browser.run_scores: {run_id: {metric: (old, new)}}
    ranks: list[RunRanks]  # Browser.run_ranks


class Browser:
    """Read-side queries of one benchmark/expansion in a store.

    Both must exist (NotFoundError otherwise). Without a benchmark, the largest one is shown:
    the largest holding ``expansion`` when one is named, else the largest with its first
    expansion. Without an expansion, a named benchmark shows 'default'."""

    def __init__(
        self, store: Store, benchmark: str | None = None, expansion: str | None = None
    ) -> None:
        self.store = ensure_natural_key(store)
        if benchmark is None:
            benchmark, expansion = self._largest(expansion)
        self.benchmark = store.require_benchmark(benchmark)
        self.expansion = store.require_expansion(benchmark, expansion or DEFAULT_EXPANSION)
        self._readers: Readers | None = None  # start_readers
        self._ahead: tuple[str, Future[QueryPage]] | None = None  # read_ahead

    def _on(self, store: Store) -> Browser:
        """The same benchmark and expansion read through another connection."""
        twin = copy.copy(self)
        twin.store, twin._readers, twin._ahead = ensure_natural_key(store), None, None
        return twin

    def start_readers(self) -> Readers:
        """Start the query page's reader threads now, each with its connection and the metric
        macros in place, so that the first page opened does not wait for them (the app calls
        this once the query list is on screen)."""
        if self._readers is None:
            from toolex.metrics.engine import ensure_macros

            def warm(store: Store) -> None:
                ensure_macros(store)
                ensure_natural_key(store)

            self._readers = Readers(self.store, warm=warm)
        return self._readers

    def close(self) -> None:
        """Stop the reader threads, if any ran (the store itself stays open)."""
        if self._readers is not None:
            self._readers.close()
            self._readers = None

    def _largest(self, expansion: str | None) -> tuple[str, str | None]:
        choices = self.store.rows("browse/14_benchmarks.sql")  # largest first
        if not choices:
            raise NotFoundError("benchmark", "", [], "load one with `toolex load` first")
        if expansion is None:
            return choices[0]["benchmark"], choices[0]["expansion"]
        self.store.require_expansion(None, expansion)  # held by some benchmark
        holding = {b for b in self.store.benchmarks() if expansion in self.store.expansions(b)}
        first = next((c for c in choices if c["benchmark"] in holding), choices[0])
        return first["benchmark"], expansion

    def _p(self, **extra: SqlValue) -> dict[str, SqlValue]:
        return {"benchmark": self.benchmark, **extra}

    # -- the list ----------------------------------------------------------------------------

    def page(
        self,
        flt: QueryFilter = QueryFilter(),
        *,
        sort: str = "query_id",
        descending: bool = False,
        offset: int = 0,
        limit: int = PAGE_SIZE,
    ) -> Page:
        if sort not in SORTS:
            raise ValueError(f"cannot sort by {sort!r}; choose one of {', '.join(SORTS)}")
        params = self._p(
            expansion=self.expansion,
            sort=sort,
            descending=descending,
            limit=limit,
            offset=max(offset, 0),
            **asdict(flt),
        )
        params["search"] = flt.search or None
        params["beats"] = bool(flt.beats and flt.score_run)
        rows = self.store.rows("browse/10_query_list.sql", params)
        total = rows[0].pop("total") if rows else 0
        for row in rows[1:]:
            row.pop("total")
        if not rows and offset > 0:  # the filter shrank the list below this page
            return self.page(flt, sort=sort, descending=descending, offset=0, limit=limit)
        return Page(rows, int(total), max(offset, 0))

    def total(self) -> int:
        return int(self.store.rows("browse/11_query_total.sql", self._p())[0]["n"])

    def facets(self) -> dict[str, list[tuple[str, int]]]:
        out: dict[str, list[tuple[str, int]]] = {"task": [], "category": [], "n_gt": []}
        for row in self.store.rows("browse/12_facets.sql", self._p()):
            out[row["facet"]].append((row["value"], int(row["n"])))  # in natural order
        return out

    def runs(self) -> list[str]:
        return [r["run_id"] for r in self.store.rows("browse/13_runs.sql", self._p())]

    # -- details -----------------------------------------------------------------------------

    def query(self, query_id: str) -> QueryHeader | None:
        rows = self.store.rows("browse/20_query_header.sql", self._p(query_id=query_id))
        return QueryHeader(**rows[0]) if rows else None

    def slots(self, query_id: str) -> list[Slot]:
        params = self._p(expansion=self.expansion, query_id=query_id)
        return [Slot(**r) for r in self.store.rows("browse/21_query_subqueries.sql", params)]

    def candidates(self, query_id: str) -> list[Candidate]:
        params = self._p(expansion=self.expansion, query_id=query_id)
        return [Candidate(**r) for r in self.store.rows("browse/22_query_candidates.sql", params)]

    def combinations(self, query_id: str) -> list[Combination]:
        params = self._p(expansion=self.expansion, query_id=query_id)
        rows = self.store.rows("browse/23_query_combinations.sql", params)
        return [Combination(**{**r, "members": _listed(Member, r["members"])}) for r in rows]

    def run_ranks(self, query_id: str) -> list[RunRanks]:
        params = self._p(expansion=self.expansion, query_id=query_id)
        rows = self.store.rows("browse/24_query_runs.sql", params)
        return [
            RunRanks(**{**r, "equivalents": _listed(RankedEquivalent, r["equivalents"])})
            for r in rows
        ]

    def run_scores(
        self, query_id: str, k: int = 10
    ) -> dict[str, dict[str, tuple[float, float] | tuple[None, None]]]:
        """{run_id: {metric: (old, new)}} at cutoff ``k`` from toolex.metrics, for this query
        alone (computing the whole benchmark first made the first query page take a second)."""
        from toolex.metrics.engine import query_scores

        runs = self.runs()
        if not runs:
            return {}
        out: dict[str, dict[str, tuple[float, float] | tuple[None, None]]] = {}
        for row in query_scores(self.store, runs, query_id, ks=(k,), expansion=self.expansion):
            out.setdefault(row.run_id, {})[row.metric] = (row.old, row.new)
        return out

    def query_page(self, query_id: str) -> QueryPage:
        """All the query page's reads, one after the other."""
        return self._page(query_id, lambda: self.run_scores(query_id))

    def read_ahead(self, query_id: str) -> None:
        """Start reading the page of the query the list's cursor rests on: opened, it is then
        filled at once. Only the latest is kept (a browsing store does not change)."""
        if self._ahead is None or self._ahead[0] != query_id:
            self._ahead = (query_id, self._read_later(query_id))

    def query_page_later(self, query_id: str) -> Future[QueryPage]:
        """:meth:`query_page` on reader threads (readers.py), started now unless read ahead."""
        if self._ahead is not None and self._ahead[0] == query_id:
            return self._ahead[1]
        return self._read_later(query_id)

    def _read_later(self, query_id: str) -> Future[QueryPage]:
        # the per-run scores, the slowest read, run beside the others
        readers = self.start_readers()
        scores = readers.submit(lambda store: self._on(store).run_scores(query_id))
        # the pool is first in, first out: a thread took `scores` before any takes this task,
        # so waiting for it here cannot deadlock, whatever else is queued
        return readers.submit(lambda store: self._on(store)._page(query_id, scores.result))

    def _page(
        self,
        query_id: str,
        scores: Callable[[], dict[str, dict[str, tuple[float, float] | tuple[None, None]]]],
    ) -> QueryPage:
        head = self.query(query_id)
        if head is None:
            return QueryPage(None, [], [], [], {}, [])
        slots, candidates = self.slots(query_id), self.candidates(query_id)
        combinations, ranks = self.combinations(query_id), self.run_ranks(query_id)
        return QueryPage(head, slots, candidates, combinations, scores(), ranks)

    def tool(self, item_id: str) -> Tool | None:
        rows = self.store.rows("browse/30_tool.sql", self._p(item_id=item_id))
        return Tool(**rows[0]) if rows else None

    def tool_queries(self, item_id: str, limit: int = 200) -> list[ToolQuery]:
        params = self._p(expansion=self.expansion, item_id=item_id, limit=limit)
        return [ToolQuery(**r) for r in self.store.rows("browse/31_tool_queries.sql", params)]

    def tool_equivalents(self, item_id: str, limit: int = 200) -> list[ToolEquivalent]:
        """The items ``item_id`` replaces or is replaced by across all queries, by steps."""
        params = self._p(expansion=self.expansion, item_id=item_id, limit=limit)
        rows = self.store.rows("browse/32_tool_equivalents.sql", params)
        return [ToolEquivalent(**r) for r in rows]


Nested = TypeVar("Nested", Member, RankedEquivalent)


def _listed(kind: type[Nested], structs: list[dict[str, object]] | None) -> list[Nested] | None:
    """A list of DuckDB structs as typed rows (None stays None: nothing to list)."""
    return None if structs is None else [kind(**s) for s in structs]  # type: ignore[arg-type]
