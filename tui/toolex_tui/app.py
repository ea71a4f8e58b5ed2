"""The toolex Textual app: browse queries and tools, or run a review round.

Screens push on top of each other (list → query → tool → query ...); ``escape`` pops. The app
never writes while browsing; a review session is started with a store opened for writing.

A store that fails while the app runs (a damaged block met by a page's read) ends the app with
toolex's one-line message (:attr:`ToolexApp.failure`, which `toolex tui` prints before exiting
non-zero), never with a traceback: which failure it is, damage or lock or full disk, is
toolex.store's to say (``store_error``), the one translation every command uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from textual import on
from textual.app import App
from textual.binding import Binding

from toolex.errors import ToolexError
from toolex.store import Store, store_error
from toolex_tui.data import Browser, QueryFilter
from toolex_tui.messages import OpenQuery, OpenTool


@dataclass(frozen=True)
class Opened:
    """What `toolex tui` opened the app on: the benchmark and expansion shown first (None: the
    store's first benchmark, its own expansion), and the store a snapshot copy was taken of
    (None: the app browses the store itself)."""

    benchmark: str | None = None
    expansion: str | None = None
    snapshot_of: str | None = None


class ToolexApp(App[None]):
    CSS_PATH = "styles/app.tcss"
    TITLE = "toolex"
    ENABLE_COMMAND_PALETTE = False  # every action has a key; the footer needs the room
    BINDINGS = [
        Binding("question_mark,f1", "help", "Help"),
        Binding("q,ctrl+q", "quit", "Quit"),
    ]

    def __init__(
        self,
        store: Store,
        *,
        opened: Opened | None = None,
        review: Mapping[str, str] | None = None,
        initial_filter: QueryFilter | None = None,
    ) -> None:
        super().__init__()
        opened = opened or Opened()
        self.store = store
        self.browser = Browser(store, opened.benchmark, opened.expansion)
        self.review = review
        self.initial_filter = initial_filter
        self.snapshot_of = opened.snapshot_of
        self.failure: ToolexError | None = None  # what ended the app, worded for the user

    def _handle_exception(self, error: Exception) -> None:
        """Textual's hook for an exception no handler caught (it prints a traceback and exits
        with 1): a toolex error, or a DuckDB one (worded by ``store_error``), ends the app with
        its message kept in :attr:`failure` instead. Anything else is a bug: the traceback."""
        failure = error if isinstance(error, ToolexError) else store_error(error, self.store.path)
        if failure is None:
            super()._handle_exception(error)
            return
        if self.failure is None:  # the first says what happened; the rest follow from it
            self.failure = failure
        self.exit(return_code=2)

    def on_mount(self) -> None:
        if self.snapshot_of:
            self.notify(f"browsing a snapshot copy of {self.snapshot_of}", timeout=6)
        if self.review is not None:
            from toolex_tui.screens.review import ReviewScreen

            self.push_screen(ReviewScreen(self.store, **self.review))
            return
        from toolex_tui.screens.queries import QueriesScreen

        screen = QueriesScreen(self.browser)
        if self.initial_filter is not None:
            screen.qfilter = self.initial_filter
        self.push_screen(screen)
        # while the list is read, not when the first query is opened
        self.call_after_refresh(self.browser.start_readers)

    def on_unmount(self) -> None:
        self.browser.close()  # the reader threads of the query page; the store is the caller's

    @on(OpenQuery)
    def _open_query(self, message: OpenQuery) -> None:
        from toolex_tui.screens.query_detail import QueryDetailScreen

        self.push_screen(QueryDetailScreen(self.browser, message.query_id))

    @on(OpenTool)
    def _open_tool(self, message: OpenTool) -> None:
        from toolex_tui.screens.tool_detail import ToolDetailScreen

        self.push_screen(ToolDetailScreen(self.browser, message.item_id))

    async def action_quit(self) -> None:
        """Quit, unless a review item holds a label not stored yet (a negative label without
        its bucket): then warn, and quit on the same key again (ReviewScreen.may_leave)."""
        from toolex_tui.screens.review import ReviewScreen

        for screen in self.screen_stack:
            if isinstance(screen, ReviewScreen) and not screen.may_leave("quit"):
                return
        self.exit()

    def action_help(self) -> None:
        from toolex_tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    async def action_pop_screen(self) -> None:
        # the base screen (list or review) stays: escape there does nothing rather than blank
        if len(self.screen_stack) > 2:
            self.pop_screen()
