"""The query list: search box, active-filter line with counts, one SQL page at a time."""

from __future__ import annotations

from dataclasses import replace

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, Header, Input, Static

from toolex_tui.components.cells import clip, clip_id, escaped, num
from toolex_tui.components.footer import KeyFooter
from toolex_tui.components.table import ListTable
from toolex_tui.components.widths import Column, add_columns
from toolex_tui.data import PAGE_SIZE, SORTS, Browser, Page, QueryFilter
from toolex_tui.messages import OpenQuery

# Seconds the cursor rests on a row before its query page is read ahead.
READ_AHEAD_AFTER = 0.2
# column key -> (label, least width when the terminal is narrow; None: always whole)
COLUMNS: dict[str, tuple[str, int | None]] = {
    "query_id": ("query", 12),  # cut in the middle (ids share their start)
    "task": ("task", 6),
    "category": ("cat", 3),
    "n_gt": ("#GT", None),
    "n_valid": ("#ok", None),
    "r_old": ("old", None),
    "r_new": ("new", None),
    "text": ("text", 20),
}


class QueriesScreen(Screen[object]):
    """Browse the queries. All paging, filtering and sorting happen in SQL (sql/browse/)."""

    BINDINGS = [
        Binding("slash", "focus_search", "Search"),
        Binding("f", "filters", "Filters"),
        Binding("s", "next_sort", "Sort"),
        Binding("S", "reverse_sort", "Reverse", show=False),
        Binding("right_square_bracket", "page(1)", "Next page"),
        Binding("left_square_bracket", "page(-1)", "Prev page", show=False),
        Binding("c", "clear", "Clear filters", show=False),
        Binding("escape", "focus_table", "Table", show=False),
    ]

    def __init__(self, browser: Browser) -> None:
        super().__init__()
        self.browser = browser
        self.qfilter = QueryFilter()
        self.sort_key = "query_id"
        self.descending = False
        self.row_offset = 0
        self.page_data = Page([], 0, 0)
        self.n_all = browser.total()
        self._ahead_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="search-row"):
            yield Input(placeholder="search query id or text  (/)", id="search", compact=True)
        yield Static(id="list-status")
        yield ListTable(id="queries")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = "toolex"
        self.sub_title = f"{self.browser.benchmark} · expansion {self.browser.expansion}"
        self.reload()
        self.query_one("#queries", DataTable).focus()

    # -- loading -----------------------------------------------------------------------------

    def reload(self) -> None:
        self.page_data = self.browser.page(
            self.qfilter, sort=self.sort_key, descending=self.descending, offset=self.row_offset
        )
        self.row_offset = self.page_data.offset
        table = self.query_one("#queries", DataTable)
        table.clear(columns=True)
        show_scores = self.qfilter.score_run is not None
        shown = [k for k in COLUMNS if show_scores or k not in ("r_old", "r_new")]
        rows = self.page_data.rows
        cells = {k: [_cell(r[k]) for r in rows] for k in shown}
        cells["r_old"] = cells["r_new"] = ["0.00"]  # the width of a score
        columns = [
            Column.of(
                COLUMNS[k][0] + (("▼" if self.descending else "▲") if k == self.sort_key else ""),
                cells[k],
                minimum=COLUMNS[k][1],
                key=k,
            )
            for k in shown
        ]
        # the whole width, less the table's scroll bar: a page of rows outgrows the screen
        fitted = add_columns(table, self.app.size.width, columns, scrollbar=True)
        widths = dict(zip(shown, fitted, strict=True))
        for row in rows:
            line = [
                clip_id(row["query_id"], widths["query_id"]),
                clip(row["task"], widths["task"]),
                clip(row["category"], widths["category"]),
                num(row["n_gt"]),
                num(row["n_valid"]),
            ]
            if show_scores:
                line += [num(row["r_old"]), num(row["r_new"])]
            line.append(clip(row["text"], widths["text"]))
            table.add_row(*line, key=row["query_id"])
        self._update_status()

    def _update_status(self) -> None:
        page = self.page_data
        first = page.offset + 1 if page.rows else 0
        last = page.offset + len(page.rows)
        text = (
            f"[b]{page.total:,}[/b] of {self.n_all:,} queries · rows {first}–{last} · "
            f"sort {self.sort_key}{' desc' if self.descending else ''} · "
            f"{escaped(self.qfilter.describe())}"
        )
        self.query_one("#list-status", Static).update(text)

    # -- actions -----------------------------------------------------------------------------

    @on(Input.Submitted, "#search")
    @on(Input.Changed, "#search")
    def _search(self, event: Input.Changed | Input.Submitted) -> None:
        self.qfilter = replace(self.qfilter, search=event.value.strip() or None)
        self.row_offset = 0
        self.reload()
        if isinstance(event, Input.Submitted):
            self.query_one("#queries", DataTable).focus()

    @on(DataTable.RowSelected, "#queries")
    def _open(self, event: DataTable.RowSelected) -> None:
        self.post_message(OpenQuery(str(event.row_key.value)))

    @on(DataTable.RowHighlighted, "#queries")
    def _rest_on(self, event: DataTable.RowHighlighted) -> None:
        """Once the cursor rests on a row, read its query page ahead (issue 15: the page then
        opens without waiting for its reads); a cursor running down the list reads nothing."""
        if self._ahead_timer is not None:
            self._ahead_timer.stop()
        query_id = str(event.row_key.value)
        self._ahead_timer = self.set_timer(READ_AHEAD_AFTER, lambda: self._read_ahead(query_id))

    def _read_ahead(self, query_id: str) -> None:
        if self.is_current:  # not when the page of another query was opened meanwhile
            self.browser.read_ahead(query_id)

    @on(DataTable.HeaderSelected, "#queries")
    def _header(self, event: DataTable.HeaderSelected) -> None:
        key = str(event.column_key.value)
        if key == self.sort_key:
            self.descending = not self.descending
        else:
            self.sort_key, self.descending = key, False
        self.reload()

    def action_focus_search(self) -> None:
        self.query_one("#search", Input).focus()

    def action_focus_table(self) -> None:
        self.query_one("#queries", DataTable).focus()

    def action_next_sort(self) -> None:
        visible = [
            k
            for k in SORTS
            if k in COLUMNS and (self.qfilter.score_run or k not in ("r_old", "r_new"))
        ]
        self.sort_key = (
            visible[(visible.index(self.sort_key) + 1) % len(visible)]
            if self.sort_key in visible
            else visible[0]
        )
        self.descending = self.sort_key in ("n_gt", "n_valid", "r_old", "r_new")
        self.reload()

    def action_reverse_sort(self) -> None:
        self.descending = not self.descending
        self.reload()

    def action_page(self, step: int) -> None:
        new = self.row_offset + step * PAGE_SIZE
        if 0 <= new < self.page_data.total:
            self.row_offset = new
            self.reload()

    def action_clear(self) -> None:
        self.qfilter = QueryFilter()
        self.query_one("#search", Input).value = ""
        self.row_offset = 0
        self.reload()

    def action_filters(self) -> None:
        from toolex_tui.screens.filters import FilterScreen

        def apply(result: QueryFilter | None) -> None:
            if result is not None:
                self.qfilter = replace(result, search=self.qfilter.search)
                self.row_offset = 0
                self.reload()

        self.app.push_screen(FilterScreen(self.browser, self.qfilter), apply)

    def apply_filter(self, flt: QueryFilter) -> None:
        """Set the whole filter at once (used by `toolex tui` options and tests)."""
        self.qfilter = flt
        self.row_offset = 0
        self.reload()


def _cell(value: object) -> str:
    return "" if value is None else " ".join(str(value).split())
