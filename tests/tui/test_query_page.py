"""Issue 15, the query page's first open: its reads run on reader threads while the page mounts
(toolex_tui.readers), or before, once the list's cursor rests on its row; the footer is built
once; and none of it shows: the page opens filled, at its top, with the first table focused,
and keys pressed while it loads act on the filled page."""

from __future__ import annotations

import threading
from concurrent.futures import Future

import pytest
from textual.widgets import DataTable, Static
from textual.widgets._footer import FooterKey
from toolex_tui.app import ToolexApp
from toolex_tui.components.footer import KeyFooter
from toolex_tui.data import Browser, QueryPage
from toolex_tui.screens.queries import READ_AHEAD_AFTER, QueriesScreen
from toolex_tui.screens.query_detail import QueryDetailScreen

from toolex.store import Store

SIZE = (80, 24)
pytestmark = pytest.mark.anyio


def footer_keys(app: ToolexApp) -> list[FooterKey]:
    return list(app.screen.query_one(KeyFooter).query(FooterKey))


async def test_the_page_opens_filled_at_its_top_with_the_first_table_focused(
    ro_store: Store,
) -> None:
    app = ToolexApp(ro_store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("down", "down", "enter")  # G1_instruction:1073 (after 588 and 608)
        await pilot.wait_for_animation()
        screen = app.screen
        assert isinstance(screen, QueryDetailScreen)
        detail = screen.query_one("#detail")
        # taller than the terminal, yet not scrolled to centre the focused table
        assert detail.max_scroll_y > 0 and detail.scroll_y == 0
        assert screen.focused is screen.query_one("#q-slots", DataTable)
        assert screen.query_one("#q-candidates", DataTable).row_count == 10
        reason = str(screen.query_one("#q-reason", Static).render())
        assert reason.startswith("Keyword Analysis::PopularSitesForQuery")  # the first row's


async def test_the_footer_keeps_its_keys_while_focus_moves(ro_store: Store) -> None:
    app = ToolexApp(ro_store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        keys = footer_keys(app)
        assert [k.description for k in keys] == ["Next table", "Back", "Quit", "Help"]
        await pilot.press("tab", "tab")  # the same keys: the footer is not rebuilt
        assert footer_keys(app) == keys
        await pilot.press("escape")  # other keys: rebuilt
        assert isinstance(app.screen, QueriesScreen)
        assert "Filters" in [k.description for k in footer_keys(app)]


async def test_keys_pressed_while_the_page_loads_act_on_the_filled_page(
    ro_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    later = Browser.query_page_later

    def slow(self: Browser, query_id: str) -> Future[QueryPage]:
        """Reads that outlast Pilot's wait for an idle app (1 s at most) before the next key."""
        page: Future[QueryPage] = Future()
        read = later(self, query_id)
        threading.Timer(1.2, lambda: page.set_result(read.result())).start()
        return page

    monkeypatch.setattr(Browser, "query_page_later", slow)
    app = ToolexApp(ro_store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "tab")  # tab while the reads are under way
        screen = app.screen
        assert isinstance(screen, QueryDetailScreen)
        assert screen.query_one("#q-slots", DataTable).row_count == 2
        assert screen.focused is screen.query_one("#q-candidates", DataTable)


async def test_the_row_the_cursor_rests_on_is_read_ahead_and_opens_with_it(ro_store: Store) -> None:
    app = ToolexApp(ro_store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("down")  # G1_instruction:608 (ids sort naturally: 588, 608, 1073)
        await pilot.pause(READ_AHEAD_AFTER + 0.3)
        ahead = app.browser.query_page_later("G1_instruction:608")
        assert ahead is app.browser.query_page_later("G1_instruction:608")  # read once, ahead
        other = app.browser.query_page_later("G1_instruction:588")
        assert other is not app.browser.query_page_later("G1_instruction:588")
        await pilot.press("enter")
        assert isinstance(app.screen, QueryDetailScreen)
        assert app.screen.query_id == "G1_instruction:608"
        assert app.screen.query_one("#q-combos", DataTable).row_count == 1  # filled at once


async def test_a_footer_rebuild_due_after_its_screen_closed_does_nothing(ro_store: Store) -> None:
    """The rebuild bindings_changed schedules can come after the next key closed the screen
    (`/` on a detail screen pops two): the footer, off every screen, must not look for one."""
    app = ToolexApp(ro_store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        footer = app.screen.query_one(KeyFooter)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, QueriesScreen) and not footer.is_attached
        await footer.recompose()  # raised textual.dom.NoScreen
        assert footer_keys(app)  # the list's own footer is untouched
