"""Keyboard focus on the detail screens: tab and shift+tab move between the screen's tables (and
bring the one focused into view), `/` goes back to the query list's search box."""

from __future__ import annotations

from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable

DETAIL_KEYS: list[BindingType] = [
    Binding("escape,backspace", "app.pop_screen", "Back"),
    Binding("tab", "next_table", "Next table"),
    Binding("shift+tab", "previous_table", "Prev table", show=False),
    Binding("slash", "search", "Search", show=False),
]


class TableFocus(Screen[object]):
    """A screen whose tables take turns at the keyboard (Textual's own focus chain would also
    stop on the scroll container and on empty tables)."""

    def tables(self) -> list[DataTable[object]]:
        return [t for t in self.query(DataTable) if t.display and t.row_count]

    def action_next_table(self) -> None:
        self._move(1)

    def action_previous_table(self) -> None:
        self._move(-1)

    def _move(self, step: int) -> None:
        tables = self.tables()
        if not tables:
            return
        current = self.focused
        index = tables.index(current) if current in tables else (-1 if step > 0 else 0)
        target = tables[(index + step) % len(tables)]
        target.focus()
        target.scroll_visible(top=True, animate=False)

    def action_search(self) -> None:
        """Back to the query list, with the cursor in its search box (as `/` does there)."""
        app = self.app
        while len(app.screen_stack) > 2:
            app.pop_screen()
        action = getattr(app.screen, "action_focus_search", None)
        if action is not None:
            action()
