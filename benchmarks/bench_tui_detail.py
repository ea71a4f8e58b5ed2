"""How long the first query page takes to open in the TUI, on a real store (issue 15's target:
under 0.3 s on the full shared-data store).

    python benchmarks/bench_tui_detail.py --db full.duckdb [--queries 20]

Build the store first (about a minute on 2 cores):

    toolex load toolret ../shared/data/toolret --db full.duckdb
    toolex load stabletoolbench ../shared/data/stabletoolbench --db full.duckdb
    toolex expand --benchmark toolret --db full.duckdb
    toolex expand --benchmark stabletoolbench --db full.duckdb
    toolex retrieve --benchmark toolret --retriever bm25 --run bm25-toolret --db full.duckdb
    toolex retrieve --benchmark stabletoolbench --retriever bm25 --run bm25-stb --db full.duckdb
    toolex retrieve --benchmark stabletoolbench --retriever wordllama --run wl-stb --db full.duckdb

For each benchmark it opens a fresh Browser (as the app does at start) and times, on the
first query and then on --queries more: every query a query page makes (``page_data``), and
the whole screen mounted by the real app at 80x24 through Pilot (``screen``). As a reference
measured in the same process it times what the page did before: scoring every query of every
run of the benchmark on first open (``whole benchmark``); the ratio is what scoring one query
buys, independent of how busy the machine is.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from toolex_tui.app import ToolexApp
from toolex_tui.data import Browser
from toolex_tui.screens.query_detail import QueryDetailScreen

from toolex.metrics import per_query
from toolex.store import Store


def page_data(browser: Browser, query_id: str) -> None:
    """Every query the query page makes, in the order it makes them."""
    browser.query(query_id)
    browser.slots(query_id)
    browser.candidates(query_id)
    browser.combinations(query_id)
    browser.run_scores(query_id)
    browser.run_ranks(query_id)


async def screen_open(store: Store, benchmark: str, query_id: str) -> float:
    """Seconds from asking the app for the query page to the page mounted (a fresh app: the
    first open, with nothing computed before)."""
    app = ToolexApp(store, benchmark=benchmark)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        start = time.perf_counter()
        app.push_screen(QueryDetailScreen(app.browser, query_id))
        await pilot.pause()
        assert isinstance(app.screen, QueryDetailScreen)
        return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--queries", type=int, default=20)
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
        screen = asyncio.run(screen_open(store, benchmark, ids[-1]))
        runs = browser.runs()
        t = time.perf_counter()
        if runs:
            per_query(store, runs, ks=(10,), expansion=browser.expansion)
        whole = time.perf_counter() - t
        print(
            f"{benchmark:>16}: {browser.total():5d} queries, {len(runs)} runs | first page_data "
            f"{first:.3f} s, median of {len(rest)} fresh opens {statistics.median(rest):.3f} s, "
            f"screen mounted {screen:.3f} s | reference: whole benchmark scored {whole:.3f} s "
            f"({whole / max(statistics.median(rest), 1e-9):.0f}x one query)"
        )
    store.close()


if __name__ == "__main__":
    main()
