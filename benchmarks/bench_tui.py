"""How fast the TUI opens and filters a large store: a synthetic store of N queries (default
7,000, ToolRet-like), timed through the same code the app runs.

    python benchmarks/bench_tui.py [--queries 7000] [--items 20000] [--repeat 5]

Prints, for each step, the median wall time over --repeat runs, and as a reference measured in
the same process, the time to do the naive thing the TUI avoids: fetch every query row (with its
GT and valid-combination counts) into Python and filter there. The ratio shows what paging in
SQL buys; absolute numbers depend on the machine (2 shared cores when this was written).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path

import fixtures
import numpy as np
import pyarrow as pa
import reads
from textual.widgets import Input
from toolex_tui.app import ToolexApp
from toolex_tui.data import Browser, QueryFilter, open_browse_store
from toolex_tui.screens.queries import QueriesScreen

from toolex.store import Store

WORDS = (  # noqa: SIM905 (a word list reads better as a sentence)
    "weather forecast city stock price convert currency search video translate text email send "
    "calendar event music lyrics movie review flight hotel booking recipe nutrition news "
    "headline football score qr code image resize phone validate"
).split()


def _insert(store: Store, table: str, data: Mapping[str, Sequence[object]]) -> None:
    fixtures.insert(store, table, pa.table(data))


def build(path: Path, n_queries: int, n_items: int, seed: int = 0) -> None:
    """Queries in 35 tasks / 3 categories, 1-4 GT tools, 0-8 extra valid combinations, two
    query-level runs of 100 results each."""
    rng = np.random.default_rng(seed)
    store = Store.open(path)
    b, e = "bench", "default"
    fixtures.write(
        store,
        "INSERT INTO benchmarks (benchmark, format, source) VALUES (?, 'plain', 'synthetic')",
        [b],
    )
    fixtures.write(store, "INSERT INTO expansions (benchmark, expansion) VALUES (?, ?)", [b, e])
    items = [f"tool_{i}" for i in range(n_items)]
    _insert(
        store,
        "items",
        {
            "benchmark": [b] * n_items,
            "item_id": items,
            "platform": [f"p{i // 5}" for i in range(n_items)],
            "doc": ['{"name": "t"}'] * n_items,
            "text": [f"tool {i}" for i in range(n_items)],
        },
    )
    qids = [f"q{i}" for i in range(n_queries)]
    texts = [" ".join(rng.choice(WORDS, 12)) for _ in range(n_queries)]
    _insert(
        store,
        "queries",
        {
            "benchmark": [b] * n_queries,
            "query_id": qids,
            "task": [f"task{i % 35}" for i in range(n_queries)],
            "category": [("web", "code", "customized")[i % 3] for i in range(n_queries)],
            "text": texts,
        },
    )
    k = rng.integers(1, 5, n_queries)
    gt = {q: list(rng.choice(n_items, kq, replace=False)) for q, kq in zip(qids, k, strict=True)}
    qr = [(q, items[t], s) for q, ts in gt.items() for s, t in enumerate(ts)]
    _insert(
        store,
        "qrels",
        {
            "benchmark": [b] * len(qr),
            "query_id": [r[0] for r in qr],
            "item_id": [r[1] for r in qr],
            "slot": [r[2] for r in qr],
        },
    )
    combos, members = [], []
    for q, ts in gt.items():
        combos.append((q, 0, True, "valid"))
        members += [(q, 0, s, items[t]) for s, t in enumerate(ts)]
        for c in range(1, int(rng.integers(0, 9)) + 1):
            status = ("valid", "rejected_platform", "cut")[int(rng.integers(0, 3))]
            combos.append((q, c, False, status))
            swap = int(rng.integers(0, len(ts)))
            members += [
                (q, c, s, items[(t + c) % n_items] if s == swap else items[t])
                for s, t in enumerate(ts)
            ]
    _insert(
        store,
        "combinations",
        {
            "benchmark": [b] * len(combos),
            "expansion": [e] * len(combos),
            "query_id": [c[0] for c in combos],
            "combo_id": [c[1] for c in combos],
            "is_original": [c[2] for c in combos],
            "status": [c[3] for c in combos],
            "rrf_rank": [c[1] + 1 for c in combos],
        },
    )
    _insert(
        store,
        "combination_items",
        {
            "benchmark": [b] * len(members),
            "expansion": [e] * len(members),
            "query_id": [m[0] for m in members],
            "combo_id": [m[1] for m in members],
            "slot": [m[2] for m in members],
            "item_id": [m[3] for m in members],
        },
    )
    for run in ("runA", "runB"):
        fixtures.write(
            store, "INSERT INTO runs (run_id, benchmark, level) VALUES (?, ?, 'query')", [run, b]
        )
        rq, ri, rr = [], [], []
        for q, ts in gt.items():
            pool = list(rng.choice(n_items, 100, replace=False))
            # put some GT tools and their swapped equivalents near the top
            for t in ts[:1]:
                pool.insert(int(rng.integers(0, 30)), t)
                pool.insert(int(rng.integers(0, 30)), (t + 1) % n_items)
            seen, ranked = set(), []
            for t in pool:
                if t not in seen:
                    seen.add(t)
                    ranked.append(t)
            ranked = ranked[:100]
            rq += [q] * len(ranked)
            ri += [items[t] for t in ranked]
            rr += list(range(1, len(ranked) + 1))
        _insert(
            store,
            "run_results",
            {
                "run_id": [run] * len(rq),
                "query_id": rq,
                "item_id": ri,
                "score": [1.0 / r for r in rr],
                "rank": rr,
            },
        )
    store.close()


def timed(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


# every query row with its GT and valid-combination counts
EVERY_QUERY = reads.query(
    "SELECT q.query_id, q.task, q.category, q.text, "
    "(SELECT count(*) FROM qrels g WHERE g.query_id = q.query_id) AS n_gt, "
    "(SELECT count(*) FROM combinations c WHERE c.query_id = q.query_id "
    " AND c.status = 'valid') AS n_valid FROM queries q"
)


def naive(store: Store, flt: QueryFilter) -> int:
    """The reference: every query row with its counts into Python, filtered there."""
    rows = EVERY_QUERY(store, None)
    s = (flt.search or "").lower()
    keep = [
        r
        for r in rows
        if (not s or s in r[0].lower() or s in r[3].lower())
        and (flt.task is None or r[1] == flt.task)
        and (flt.min_valid is None or r[5] >= flt.min_valid)
    ]
    keep.sort(key=lambda r: r[0])
    return len(keep[:100])


async def app_open_and_search(store: Store, text: str) -> tuple[float, float]:
    t0 = time.perf_counter()
    app = ToolexApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        opened = time.perf_counter() - t0
        screen = app.screen
        assert isinstance(screen, QueriesScreen)
        t1 = time.perf_counter()
        screen.query_one("#search", Input).value = text  # one Input.Changed -> one SQL page
        await pilot.pause()
        searched = time.perf_counter() - t1
        assert screen.page_data.total >= 0
    return opened, searched


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=7000)
    ap.add_argument("--items", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    path = Path(tempfile.mkdtemp()) / "bench.duckdb"
    t = time.perf_counter()
    build(path, args.queries, args.items)
    print(
        f"built a synthetic store of {args.queries:,} queries, {args.items:,} items in "
        f"{time.perf_counter() - t:.1f} s ({path.stat().st_size / 1e6:.0f} MB)"
    )

    def open_first_page() -> None:
        s = open_browse_store(path)
        Browser(s).page()
        s.close()

    print(
        f"\nopen read-only + first page of 100 (median of {args.repeat}): "
        f"{timed(open_first_page, args.repeat) * 1000:.0f} ms"
    )
    store = open_browse_store(path)
    browser = Browser(store)
    cases = {
        "no filter": QueryFilter(),
        "search 'weather'": QueryFilter(search="weather"),
        "task": QueryFilter(task="task7"),
        "# valid >= 3": QueryFilter(min_valid=3),
        "# GT = 3": QueryFilter(n_gt=3),
        "scores of runA, new>old": QueryFilter(score_run="runA", beats=True),
        "GT out / equivalent in top 10 (runA)": QueryFilter(equiv_run="runA"),
        "all at once": QueryFilter(
            search="a", category="web", min_valid=2, score_run="runA", beats=True, equiv_run="runB"
        ),
    }
    print(f"\n{'filter':40} {'matches':>8} {'page ms':>8} {'naive ms':>9} {'ratio':>6}")
    for name, flt in cases.items():
        page_ms = timed(partial(browser.page, flt), args.repeat) * 1000
        total = browser.page(flt).total
        naive_ms = timed(partial(naive, store, flt), args.repeat) * 1000
        ratio = naive_ms / page_ms if page_ms else float("nan")
        # the naive reference cannot do the run-based filters at all (shown for its scan cost)
        print(f"{name:40} {total:>8,} {page_ms:>8.1f} {naive_ms:>9.1f} {ratio:>6.2f}")
    sorted_ms = timed(lambda: browser.page(sort="n_valid", descending=True), args.repeat) * 1000
    last_ms = timed(lambda: browser.page(offset=args.queries - 100), args.repeat) * 1000
    print(f"{'sort by # valid desc':40} {'':>8} {sorted_ms:>8.1f}")
    print(f"{'last page (offset N-100)':40} {'':>8} {last_ms:>8.1f}")
    qid = browser.page().rows[0]["query_id"]
    detail_ms = (
        timed(
            lambda: (
                browser.slots(qid),
                browser.candidates(qid),
                browser.combinations(qid),
                browser.run_ranks(qid),
            ),
            args.repeat,
        )
        * 1000
    )
    print(f"{'query detail (4 SQL queries)':40} {'':>8} {detail_ms:>8.1f}")
    t = time.perf_counter()
    browser.run_scores(qid)
    print(
        f"{'first run-score lookup (metrics, 2 runs)':40} {'':>8} "
        f"{(time.perf_counter() - t) * 1000:>8.1f}"
    )

    opened, searched = asyncio.run(app_open_and_search(store, "weather"))
    print(
        f"\napp (headless Pilot, 80x24): open to first screen {opened * 1000:.0f} ms; "
        f"type a search and redraw {searched * 1000:.0f} ms"
    )
    store.close()


if __name__ == "__main__":
    main()
