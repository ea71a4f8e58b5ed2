"""Issue 25.9, the TUI at 80x24: ToolRet's opaque ids carry their tool's name, every list sorts
ids naturally (query_2 before query_10), every table fits the terminal's width with usable
reason and run columns, and the footer reads "] Next page". On ToolRet's apibank task as
toolex loads and expands it (tests/tui/conftest.py), driven with Pilot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Static
from textual.widgets._footer import FooterKey
from toolex_tui.app import ToolexApp
from toolex_tui.components.cells import clip_id, item_label, item_name
from toolex_tui.components.widths import Column, fit
from toolex_tui.data import Browser, QueryFilter
from toolex_tui.screens.query_detail import QueryDetailScreen
from toolex_tui.screens.tool_detail import ToolDetailScreen

from toolex.store import Store

from .conftest import TOOLRET_RUNS

SIZE = (80, 24)
pytestmark = pytest.mark.anyio


def cells(table: DataTable[Any], column: int) -> list[str]:
    return [str(table.get_row_at(i)[column]) for i in range(table.row_count)]


def fits(table: DataTable[Any]) -> bool:
    """No column past the table's right edge (the table would scroll sideways)."""
    return table.virtual_size.width <= table.scrollable_content_region.width


# -- the rules, by hand ---------------------------------------------------------------------


def test_fit_serves_fixed_columns_then_the_smallest_need_first() -> None:
    # room 40 - 2 * 4 padding = 32: fixed 4 + 3, flexible ones from 8 and 8, so 9 spare;
    # "tool" needs 4 more (12: half the spare would be 4), "reason" gets the other 5 (13)
    columns = [
        Column("slot", 4),
        Column("ok", 3),
        Column("tool", 12, minimum=8),
        Column("reason", 90, minimum=8),
    ]
    assert fit(40, columns) == [4, 3, 12, 13]
    assert fit(30, columns) == [4, 3, 8, 8]  # 1 short of the minimums: they stand
    # nothing wider than its widest cell, however much room
    assert fit(200, columns) == [4, 3, 12, 90]


def test_fit_when_even_the_minimums_do_not_fit_gives_the_minimums() -> None:
    assert fit(10, [Column("a", 5), Column("b", 30, minimum=12)]) == [5, 12]


def test_an_item_shows_its_name_unless_its_id_says_it() -> None:
    assert item_name("apigen_tool_509", "std_deviation") == "std_deviation"
    assert item_name("OTT details::New Arrivals", "New Arrivals") is None  # StableToolBench
    assert item_name("x", None) is None and item_name("x", "  ") is None
    assert item_label("apigen_tool_509", "std_deviation") == "apigen_tool_509 · std_deviation"
    # the name is clipped first, the id only when it alone does not fit
    assert item_label("apigen_tool_509", "std_deviation", 24) == "apigen_tool_509 · std_d…"
    assert item_label("apigen_tool_509", "std_deviation", 20) == "apigen_tool_509"
    assert item_label("apigen_tool_509", "std_deviation", 10) == "api…ol_509"


def test_ids_sort_naturally_in_every_list(tmp_path: Path) -> None:
    """query_2 before query_10 in the list (ascending and descending), the facets, the runs,
    a tool's queries; a number of any length compares right."""
    store = Store.open(tmp_path / "n.duckdb")
    c = store.con
    c.execute("INSERT INTO benchmarks (benchmark, format, source) VALUES ('b', 'plain', 'x')")
    ids = ["query_10", "query_2", "query_1", "query_9", "query_100000000000000000000"]
    for i, qid in enumerate(ids):
        c.execute(
            "INSERT INTO queries (benchmark, query_id, task, text) VALUES ('b', ?, ?, 'x')",
            [qid, ["G10", "G2", "G1"][i % 3]],
        )
        c.execute("INSERT INTO qrels VALUES ('b', ?, 'tool', 1, 0)", [qid])
    for slot in range(1, 10):  # query_1 has 10 ground-truth tools
        c.execute("INSERT INTO qrels VALUES ('b', 'query_1', ?, 1, ?)", [f"t{slot}", slot])
    for run in ("run_10", "run_2"):
        c.execute("INSERT INTO runs (run_id, benchmark, level) VALUES (?, 'b', 'query')", [run])
    natural = ["query_1", "query_2", "query_9", "query_10", "query_100000000000000000000"]
    browser = Browser(store, "b", "default")
    assert [r["query_id"] for r in browser.page().rows] == natural
    back = browser.page(QueryFilter(), sort="query_id", descending=True)
    assert [r["query_id"] for r in back.rows] == natural[::-1]
    by_task = browser.page(QueryFilter(), sort="task")  # names too; ties: ids, naturally
    assert [(r["task"], r["query_id"]) for r in by_task.rows] == [
        ("G1", "query_1"),
        ("G2", "query_2"),
        ("G2", "query_100000000000000000000"),
        ("G10", "query_9"),
        ("G10", "query_10"),
    ]
    facets = browser.facets()
    assert [v for v, _ in facets["task"]] == ["G1", "G2", "G10"]
    assert [v for v, _ in facets["n_gt"]] == ["1", "10"]
    assert browser.runs() == ["run_2", "run_10"]
    assert [r.query_id for r in browser.tool_queries("tool")] == natural
    store.close()


# -- ToolRet at 80x24 -----------------------------------------------------------------------


async def test_the_list_sorts_toolret_ids_naturally_and_its_footer_reads_right(
    toolret_store: Store,
) -> None:
    app = ToolexApp(toolret_store)
    async with app.run_test(size=SIZE):
        table = app.screen.query_one("#queries", DataTable)
        assert cells(table, 0)[:12] == [f"apibank_query_{i}" for i in range(12)]
        assert fits(table)
        widths = {str(key.value): c.width for key, c in table.columns.items()}
        assert sum(w + 2 for w in widths.values()) == 80 - 2  # the text takes the rest
        assert widths["text"] >= 30 and widths["query_id"] == len(
            "apibank_query_99"
        )  # page 1: 0-99
        keys = [(k.key_display, k.description) for k in app.screen.query(FooterKey)]
        assert ("]", "Next page") in keys
        assert not any("][" in d or "][" in str(k) for k, d in keys)


async def test_a_toolret_query_page_names_its_tools_and_fits_80_columns(
    toolret_store: Store,
) -> None:
    names = dict(toolret_store.con.execute("SELECT item_id, name FROM items").fetchall())
    app = ToolexApp(toolret_store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")  # apibank_query_0
        screen = app.screen
        assert isinstance(screen, QueryDetailScreen) and screen.query_id == "apibank_query_0"
        for table in screen.query(DataTable):
            assert fits(table), (table.id, table.virtual_size, table.scrollable_content_region)
        # the ground-truth tools and the candidates: id, then the name as far as it fits
        for table_id, id_column in (("#q-slots", 1), ("#q-candidates", 3)):
            table = screen.query_one(table_id, DataTable)
            width = list(table.columns.values())[id_column].width
            keys = [str(k.value).split("|")[-1] for k in table.rows]
            shown = cells(table, id_column)
            assert shown == [item_label(k, names[k], width) for k in keys]
            for cell, key in zip(shown, keys, strict=True):
                assert cell.startswith(f"{key} · {names[key][:3]}"), cell
        cands = screen.query_one("#q-candidates", DataTable)
        assert list(cands.columns.values())[4].width >= 20  # the reason (issue: 3 characters)
        # the highlighted candidate's whole reason and name under the table
        first = str(cands.get_row_at(0)[3]).split(" · ")[0]
        line = str(screen.query_one("#q-reason", Static).render())
        assert line.startswith(f"{first} · {names[first]}")
        # the runs, in natural order, the one that fits whole; the longer one whole on the line
        runs = screen.query_one("#q-runs", DataTable)
        width = list(runs.columns.values())[0].width
        assert cells(runs, 0) == [TOOLRET_RUNS[0], clip_id(TOOLRET_RUNS[1], width)]
        assert len(TOOLRET_RUNS[0]) <= width < len(TOOLRET_RUNS[1])
        runs.focus()
        await pilot.press("down")
        run_line = str(screen.query_one("#q-run-line", Static).render())
        assert run_line.startswith(f"{TOOLRET_RUNS[1]}: GT ranks by slot ")


async def test_a_toolret_tool_page_names_its_tool_and_fits_80_columns(toolret_store: Store) -> None:
    app = ToolexApp(toolret_store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "enter")  # apibank_query_0's first ground-truth tool
        # The tables are filled in on_mount; their widths are known only after the layout that
        # follows. Under load (typed5's run at load 11) the assertions once ran before it:
        # pause() lets the app process what is queued (no timing involved).
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ToolDetailScreen)
        name = toolret_store.con.execute(
            "SELECT name FROM items WHERE item_id = ?", [screen.item_id]
        ).fetchall()[0][0]
        header = str(screen.query_one("#t-header", Static).render())
        assert header.startswith(f"{screen.item_id} · {name}\n")
        for table in screen.query(DataTable):
            assert fits(table), table.id
        assert cells(screen.query_one("#t-queries", DataTable), 1)[0] == "apibank_query_0"
