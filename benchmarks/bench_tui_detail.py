"""How long the first query page takes to open in the TUI, on a real store (issue 15's target:
under 0.3 s on the full shared-data store).

    python benchmarks/bench_tui_detail.py --db full.duckdb [--queries 20] [--opens 7]

Build the store first (about a minute on 2 cores):

    toolex load toolret ../shared/data/toolret --db full.duckdb
    toolex load stabletoolbench ../shared/data/stabletoolbench --db full.duckdb
    toolex expand --benchmark toolret --db full.duckdb
    toolex expand --benchmark stabletoolbench --db full.duckdb
    toolex retrieve --benchmark toolret --retriever bm25 --run bm25-toolret --db full.duckdb
    toolex retrieve --benchmark stabletoolbench --retriever bm25 --run bm25-stb --db full.duckdb
    toolex retrieve --benchmark stabletoolbench --retriever wordllama --run wl-stb --db full.duckdb

For each benchmark it opens a fresh Browser (as the app does at start) and times, on the
first query and then on --queries more, every query a query page makes, one after the other
(``page_data``). Then ``query page mounted``: --opens times, each the first query page of a
fresh app at 80x24 driven by Pilot, from asking for the page (which starts its reads) to Pilot
finding the app idle with the page filled; median and min. Then ``from the list``: enter on a
row the list's cursor has rested on, so that its page was read ahead (what a user meets).

Two references are measured in the same process: a page of a header, a line and the footer,
opened the same way and interleaved with the query pages (``empty page``: what any page costs
on this machine at this moment, Pilot's wait for an idle app included; on a busy machine compare
against it rather than against absolute times), and what the page did before issue 15: scoring
every query of every run of the benchmark on first open (``whole benchmark``); the ratio is
what scoring one query buys.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import time

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static
from toolex_tui.app import Opened, ToolexApp
from toolex_tui.data import Browser
from toolex_tui.screens.queries import READ_AHEAD_AFTER
from toolex_tui.screens.query_detail import QueryDetailScreen

from toolex.metrics import per_query
from toolex.store import Store


def page_data(browser: Browser, query_id: str) -> None:
    """Every query the query page makes, one after the other (the page runs them on two reader
    threads while it mounts: Browser.query_page_later)."""
    browser.query_page(query_id)


class EmptyPage(Screen[None]):
    """The reference: what every page has (header, footer) and one line."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("empty")
        yield Footer()


async def screen_open(store: Store, benchmark: str, query_id: str | None) -> float:
    """Seconds from asking the app for the query page (None: the empty page) to the page
    mounted and filled (a fresh app: the first open, with nothing computed before)."""
    app = ToolexApp(store, opened=Opened(benchmark))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # The apps opened before in this process leave garbage that a session's first page never
        # meets (a full collection then took 0.1-0.2 s inside whichever open it fell on): collect
        # it here, outside the timing.
        gc.collect()
        start = time.perf_counter()
        app.push_screen(
            EmptyPage() if query_id is None else QueryDetailScreen(app.browser, query_id)
        )
        await pilot.pause()
        took = time.perf_counter() - start
        if query_id is not None:
            assert isinstance(app.screen, QueryDetailScreen)
            assert app.screen.query_one("#q-slots", DataTable).row_count  # filled, not a frame
        return took


async def list_open(store: Store, benchmark: str, row: int) -> float:
    """Seconds from enter on a row of the query list, the cursor having rested on it (so its
    page was read ahead), to the page mounted and filled: what a user meets."""
    app = ToolexApp(store, opened=Opened(benchmark))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.query_one("#queries", DataTable).move_cursor(row=row)
        await pilot.pause(READ_AHEAD_AFTER + 0.3)
        gc.collect()
        start = time.perf_counter()
        await pilot.press("enter")
        took = time.perf_counter() - start
        assert isinstance(app.screen, QueryDetailScreen)
        assert app.screen.query_one("#q-slots", DataTable).row_count
        return took


def screen_opens(
    store: Store, benchmark: str, ids: list[str], n: int
) -> tuple[list[float], list[float]]:
    """n first opens of the query page (cycling through ``ids``), each beside an empty page."""
    pages: list[float] = []
    empty: list[float] = []
    for i in range(n):
        pages.append(asyncio.run(screen_open(store, benchmark, ids[i % len(ids)])))
        empty.append(asyncio.run(screen_open(store, benchmark, None)))
    return pages, empty


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--queries", type=int, default=20)
    ap.add_argument("--opens", type=int, default=7, help="first opens timed per benchmark")
    args = ap.parse_args()
    store = Store.open(args.db, read_only=True)
    for benchmark in store.benchmarks():
        browser = Browser(store, benchmark)
        ids = [r["query_id"] for r in browser.page(limit=args.queries + 1).rows]
        t = time.perf_counter()
        page_data(browser, ids[0])
        first = time.perf_counter() - t
        rest = []
        for qid in ids[1:]:
            t = time.perf_counter()
            page_data(Browser(store, benchmark), qid)
            rest.append(time.perf_counter() - t)
        pages, empty = screen_opens(store, benchmark, ids[1:] or ids, args.opens)
        rested = [
            asyncio.run(list_open(store, benchmark, 1 + i % max(len(ids) - 1, 1)))
            for i in range(args.opens)
        ]
        runs = browser.runs()
        t = time.perf_counter()
        if runs:
            per_query(store, runs, ks=(10,), expansion=browser.expansion)
        whole = time.perf_counter() - t
        print(
            f"{benchmark}: {browser.total()} queries, {len(runs)} runs\n"
            f"  page_data: first {first:.3f} s, median of {len(rest)} fresh opens "
            f"{statistics.median(rest):.3f} s\n"
            f"  query page mounted: median {statistics.median(pages):.3f} s, min {min(pages):.3f} s"
            f" ({len(pages)} first opens)\n"
            f"  from the list, its row read ahead: median {statistics.median(rested):.3f} s, "
            f"min {min(rested):.3f} s\n"
            f"  reference: empty page mounted median {statistics.median(empty):.3f} s, "
            f"min {min(empty):.3f} s; whole benchmark scored {whole:.3f} s "
            f"({whole / max(statistics.median(rest), 1e-9):.0f}x one query)"
        )
    store.close()


if __name__ == "__main__":
    main()
