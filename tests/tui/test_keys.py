"""Issue 15, the TUI: the keyboard reaches every table of the detail screens and shows it at
80x24; the keys of harlequin and less (j/k, g/G, /, ?, q, escape) work there; ids stay told
apart at 80 columns; nothing prints Python's None; equivalents come in a stable order."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widget import Widget
from textual.widgets import DataTable, Input, Static
from toolex_tui.app import ToolexApp
from toolex_tui.data import Browser
from toolex_tui.screens.help import HelpScreen
from toolex_tui.screens.queries import QueriesScreen
from toolex_tui.screens.query_detail import QueryDetailScreen
from toolex_tui.screens.tool_detail import ToolDetailScreen

from toolex.store import Store

SIZE = (80, 24)
pytestmark = pytest.mark.anyio
DETAIL_TABLES = ["q-slots", "q-candidates", "q-combos", "q-runs"]


def visible(app: ToolexApp, widget: Widget) -> bool:
    """The widget's first rows are on the screen (not scrolled away, not below the footer)."""
    region = widget.region
    return region.height > 0 and region.y >= 0 and region.y + min(region.height, 3) <= SIZE[1]


async def test_tab_reaches_every_table_of_a_query_and_shows_it(ro_store: Store) -> None:
    app = ToolexApp(ro_store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        assert isinstance(app.screen, QueryDetailScreen)
        seen: list[str] = []
        for _ in range(len(DETAIL_TABLES)):
            await pilot.press("tab")
            focused = app.screen.focused
            assert isinstance(focused, DataTable) and focused.id
            assert visible(app, focused), (focused.id, focused.region)
            seen.append(focused.id)
        assert sorted(seen) == sorted(DETAIL_TABLES)  # each table once, wherever focus began
        await pilot.press("tab")  # and round again
        assert app.screen.focused and app.screen.focused.id == seen[0]
        await pilot.press("shift+tab")
        assert app.screen.focused and app.screen.focused.id == seen[-1]


async def test_tab_reaches_the_tables_of_a_tool(ro_store: Store) -> None:
    app = ToolexApp(ro_store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        cands = app.screen.query_one("#q-candidates", DataTable)
        cands.focus()
        await pilot.press("down", "enter")  # the accepted equivalent: it has equivalents too
        assert isinstance(app.screen, ToolDetailScreen)
        tables = [t.id for t in app.screen.query(DataTable) if t.row_count]
        assert len(tables) >= 2
        seen = set()
        for _ in tables:
            await pilot.press("tab")
            focused = app.screen.focused
            assert focused and visible(app, focused)
            seen.add(focused.id)
        assert seen == set(tables)


async def test_less_keys_move_the_cursor(ro_store: Store) -> None:
    app = ToolexApp(ro_store)
    async with app.run_test(size=SIZE) as pilot:
        table = app.screen.query_one("#queries", DataTable)
        await pilot.press("j", "j")
        assert table.cursor_row == 2
        await pilot.press("k")
        assert table.cursor_row == 1
        await pilot.press("G")
        assert table.cursor_row == table.row_count - 1
        await pilot.press("g")
        assert table.cursor_row == 0
        await pilot.press("enter")
        slots = app.screen.query_one("#q-candidates", DataTable)
        slots.focus()
        await pilot.press("j", "j", "G", "k")
        assert slots.cursor_row == slots.row_count - 2


async def test_slash_help_escape_and_q_from_a_detail_screen(ro_store: Store) -> None:
    app = ToolexApp(ro_store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, QueryDetailScreen)
        await pilot.press("enter")  # into a tool: two screens above the list
        assert isinstance(app.screen, ToolDetailScreen)
        await pilot.press("slash")  # as on the list: search, which lives on the list
        assert isinstance(app.screen, QueriesScreen)
        assert isinstance(app.screen.focused, Input)
        await pilot.press(*"messi", "enter", "enter")
        assert isinstance(app.screen, QueryDetailScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, QueriesScreen)
        await pilot.press("enter", "q")
    assert app.return_code == 0  # q quit from the detail screen


def _long_id_store(path: Path) -> Store:
    """Ten queries whose ids share a 24-character prefix (as ToolRet's task-prefixed ids do),
    with no task, category or platform: the fields that used to print as None."""
    store = Store.open(path)
    c = store.con
    c.execute("INSERT INTO benchmarks (benchmark, format, source) VALUES ('b', 'plain', 'x')")
    c.execute(
        "INSERT INTO items (benchmark, item_id, doc, text) VALUES ('b', 'tool', '{}', 'tool')"
    )
    for n in range(10):
        qid = f"gorilla-huggingface_query_{n}"
        c.execute(
            "INSERT INTO queries (benchmark, query_id, text) VALUES ('b', ?, 'find a model')",
            [qid],
        )
        c.execute("INSERT INTO qrels VALUES ('b', ?, 'tool', 1, 0)", [qid])
    return store


async def test_long_ids_stay_distinct_and_none_never_shows(tmp_path: Path) -> None:
    store = _long_id_store(tmp_path / "ids.duckdb")
    app = ToolexApp(store)
    async with app.run_test(size=SIZE) as pilot:
        table = app.screen.query_one("#queries", DataTable)
        shown = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        assert len(set(shown)) == 10, shown
        await pilot.press("enter")
        header = str(app.screen.query_one("#q-header", Static).render())
        assert "None" not in header and "task –" in header
        await pilot.press("enter")  # the GT tool: no platform, category or kind given
        assert isinstance(app.screen, ToolDetailScreen)
        text = str(app.screen.query_one("#t-header", Static).render())
        assert "None" not in text and "platform –" in text
    store.close()


def test_equivalents_are_listed_best_rank_first(tmp_path: Path) -> None:
    """A run ranks three accepted equivalents of one slot; the query page lists them by rank,
    the same way every time (it used to follow DuckDB's hash order)."""
    store = Store.open(tmp_path / "eq.duckdb")
    c = store.con
    c.execute("INSERT INTO benchmarks (benchmark, format, source) VALUES ('b', 'plain', 'x')")
    c.execute("INSERT INTO queries (benchmark, query_id, text) VALUES ('b', 'q', 'x')")
    c.execute("INSERT INTO qrels VALUES ('b', 'q', 'gt', 1, 0)")
    c.execute("INSERT INTO runs (run_id, benchmark, level) VALUES ('r', 'b', 'query')")
    for combo, item, rank in [(1, "zz", 2), (2, "aa", 9), (3, "mm", 5)]:
        c.execute(
            "INSERT INTO combinations (benchmark, expansion, query_id, combo_id, status) "
            "VALUES ('b', 'default', 'q', ?, 'valid')",
            [combo],
        )
        c.execute(
            "INSERT INTO combination_items VALUES ('b', 'default', 'q', ?, 0, ?)", [combo, item]
        )
        c.execute("INSERT INTO run_results VALUES ('r', 'q', ?, ?, ?)", [item, 1.0 / rank, rank])
    browser = Browser(store, "b", "default")
    for _ in range(3):
        listed = browser.run_ranks("q")[0].equivalents or []
        assert [(e.item_id, e.rank) for e in listed] == [("zz", 2), ("mm", 5), ("aa", 9)]
    store.close()
