"""Drive the real app with Pilot on the fixture store at 80x24: navigation, search, filters,
sorting, details, help. Widget state is asserted first; test_snapshots.py compares pictures."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Checkbox, DataTable, Select, Static
from toolex_tui.app import ToolexApp
from toolex_tui.screens.filters import FilterScreen
from toolex_tui.screens.help import HelpScreen
from toolex_tui.screens.queries import QueriesScreen
from toolex_tui.screens.query_detail import QueryDetailScreen
from toolex_tui.screens.tool_detail import ToolDetailScreen

from toolex.store import Store

SIZE = (80, 24)
pytestmark = pytest.mark.anyio


def keys(table: DataTable[Any]) -> list[str]:
    return [str(k.value) for k in table.rows]


async def test_navigate_list_query_tool_and_back(ro_store: Store) -> None:
    app = ToolexApp(ro_store)
    async with app.run_test(size=SIZE) as pilot:
        table = app.screen.query_one("#queries", DataTable)
        assert len(table.rows) == 8
        assert "8 of 8 queries" in str(app.screen.query_one("#list-status", Static).render())
        await pilot.press("enter")  # the first row: G1_instruction:588 (ids sort naturally)
        assert isinstance(app.screen, QueryDetailScreen)
        assert app.screen.query_id == "G1_instruction:588"
        combos = app.screen.query_one("#q-combos", DataTable)
        assert keys(combos) == ["0", "1"]
        await pilot.press("enter")  # slot 0's GT tool
        assert isinstance(app.screen, ToolDetailScreen)
        assert app.screen.item_id == "TheClique::Transfermarkt search"
        assert keys(app.screen.query_one("#t-queries", DataTable)) == ["gt|G1_instruction:588|0"]
        await pilot.press("enter")  # back into the query through the tool's query list
        assert isinstance(app.screen, QueryDetailScreen)
        await pilot.press("escape", "escape", "escape")
        assert isinstance(app.screen, QueriesScreen)
        await pilot.press("escape")  # the base screen stays
        assert isinstance(app.screen, QueriesScreen)


async def test_candidate_row_opens_its_tool(ro_store: Store) -> None:
    app = ToolexApp(ro_store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("down", "down", "enter")  # G1_instruction:1073, after 588 and 608
        cands = app.screen.query_one("#q-candidates", DataTable)
        cands.focus()
        await pilot.press("down", "enter")  # slot 0, rank 2: the accepted equivalent
        assert isinstance(app.screen, ToolDetailScreen)
        assert app.screen.item_id == "Keyword Analysis::QueryKeywords"


async def test_search_as_you_type(ro_store: Store) -> None:
    app = ToolexApp(ro_store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"messi")
        await pilot.pause()
        table = app.screen.query_one("#queries", DataTable)
        assert keys(table) == ["G1_instruction:588"]
        await pilot.press("enter")  # back to the table, then open
        await pilot.press("enter")
        assert isinstance(app.screen, QueryDetailScreen)
        await pilot.pause()  # the page mounts before the app closes (test_sort_by_key...)


async def test_filter_dialog_applies_run_filters(ro_store: Store) -> None:
    app = ToolexApp(ro_store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f")
        assert isinstance(app.screen, FilterScreen)
        app.screen.query_one("#f-score", Select).value = "swap"
        app.screen.query_one("#f-beats", Checkbox).value = True
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, QueriesScreen)
        table = app.screen.query_one("#queries", DataTable)
        assert keys(table) == ["G1_instruction:1073", "G2_instruction:1643", "G3_instruction:455"]
        assert "3 of 8 queries" in str(app.screen.query_one("#list-status", Static).render())
        await pilot.press("f")
        app.screen.query_one("#f-category", Select).value = "G3"
        await pilot.click("#apply")
        assert keys(app.screen.query_one("#queries", DataTable)) == ["G3_instruction:455"]
        await pilot.press("c")
        assert len(app.screen.query_one("#queries", DataTable).rows) == 8


async def test_sort_by_key_and_by_mouse(ro_store: Store) -> None:
    app = ToolexApp(ro_store)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, QueriesScreen)
        table = screen.query_one("#queries", DataTable)
        await pilot.press("S")  # reverse query_id
        assert keys(table)[0] == "G3_instruction:455"
        # click the "#GT" header: past the query, task and cat columns (+2 padding each)
        gt = sum(c.width + 2 for c in list(table.columns.values())[:3]) + 1
        await pilot.click("#queries", offset=(gt, 0))
        assert (screen.sort_key, screen.descending) == ("n_gt", False)
        await pilot.click("#queries", offset=(gt, 0))  # again: reversed
        assert screen.descending
        assert keys(table)[:2] == ["G2_instruction:5744", "G3_instruction:455"]
        await pilot.click("#queries", offset=(5, 3))  # a row: opens it
        await pilot.click("#queries", offset=(5, 3))
        assert isinstance(app.screen, QueryDetailScreen)
        # let the page finish mounting before the app closes: its title reached a Header
        # already torn down once in CI (Textual's set_title, NoMatches HeaderTitle)
        await pilot.pause()


async def test_help_screen(ro_store: Store) -> None:
    app = ToolexApp(ro_store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, QueriesScreen)
