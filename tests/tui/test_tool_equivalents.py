"""The tool view's equivalents across all queries (Browser.tool_equivalents) and its table."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable
from toolex_tui.app import ToolexApp
from toolex_tui.data import Browser
from toolex_tui.screens.tool_detail import ToolDetailScreen

from toolex.store import Store

TOOL = "Keyword Analysis::QueryKeywords"  # accepted in place of G1_instruction:1073 slot 0's GT


def test_equivalents_both_ways(ro_store: Store) -> None:
    b = Browser(ro_store)
    rows = b.tool_equivalents(TOOL)
    replaces = [r for r in rows if r.relation == "replaces"]
    assert replaces and all(r.steps >= 1 and r.queries >= 1 for r in replaces)
    other = replaces[0].item_id
    back = b.tool_equivalents(other)
    assert any(r.relation == "replaced by" and r.item_id == TOOL for r in back)
    assert b.tool_equivalents("no such tool") == []


@pytest.mark.anyio
async def test_the_tool_screen_lists_them(ro_store: Store) -> None:
    app = ToolexApp(ro_store)
    async with app.run_test(size=(100, 40)) as pilot:
        app.push_screen(ToolDetailScreen(app.browser, TOOL))
        await pilot.pause()
        table = app.screen.query_one("#t-equivalents", DataTable)
        assert table.row_count == len(app.browser.tool_equivalents(TOOL)) > 0
