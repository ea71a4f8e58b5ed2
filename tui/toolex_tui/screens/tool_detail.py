"""One tool: its raw documentation pretty-printed, its platform, the queries where it is
ground truth or was accepted as an equivalent (enter opens the query), and its equivalents across
all queries (enter opens that tool)."""

from __future__ import annotations

import json

from rich.markup import escape
from rich.syntax import Syntax
from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Header, Static

from toolex_tui.components.cells import clip, clip_id, num, shown
from toolex_tui.components.focus import DETAIL_KEYS, TableFocus
from toolex_tui.components.footer import KeyFooter
from toolex_tui.components.section import SectionTitle
from toolex_tui.components.table import RowTable
from toolex_tui.data import Browser
from toolex_tui.messages import OpenQuery, OpenTool


class ToolDetailScreen(TableFocus):
    BINDINGS = DETAIL_KEYS

    def __init__(self, browser: Browser, item_id: str) -> None:
        super().__init__()
        self.browser = browser
        self.item_id = item_id

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="detail"):
            yield Static(id="t-header")
            yield SectionTitle("Queries: where it is ground truth, where accepted as equivalent")
            yield RowTable(id="t-queries")
            yield SectionTitle("Equivalents across all queries")
            yield RowTable(id="t-equivalents")
            yield SectionTitle("Raw documentation")
            yield Static(id="t-doc")
        yield KeyFooter()

    def on_mount(self) -> None:
        tool = self.browser.tool(self.item_id)
        self.title = self.item_id
        self.sub_title = "tool detail"
        if tool is None:
            self.query_one("#t-header", Static).update(f"[red]no tool {escape(self.item_id)}[/]")
            return
        self.query_one("#t-header", Static).update(
            f"[b]{escape(tool['item_id'])}[/b]\nplatform [b]{escape(shown(tool['platform']))}[/b]"
            f" · category {escape(shown(tool['category']))} · kind {escape(shown(tool['kind']))}"
        )
        doc = tool["doc"]
        try:
            pretty = json.dumps(json.loads(doc), indent=2, ensure_ascii=False)
        except (TypeError, ValueError):
            pretty = str(doc)
        self.query_one("#t-doc", Static).update(
            Syntax(pretty, "json", word_wrap=True, theme="ansi_dark")
        )
        table = self.query_one("#t-queries", DataTable)
        table.add_columns("as", "query", "slot", "instead of", "text")
        for r in self.browser.tool_queries(self.item_id):
            table.add_row(
                r["role"],
                clip_id(r["query_id"], 22),
                num(r["slot"]),
                clip(r["reference"] or "", 24),
                clip(r["text"], 50),
                key=f"{r['role']}|{r['query_id']}|{r['slot']}",
            )
        self._fill_equivalents()
        table.focus()

    def _fill_equivalents(self) -> None:
        table = self.query_one("#t-equivalents", DataTable)
        table.add_columns("relation", "tool", "platform", "steps", "queries", "e.g. sub-query")
        for r in self.browser.tool_equivalents(self.item_id):
            table.add_row(
                r["relation"],
                clip_id(r["item_id"], 34),
                clip(shown(r["platform"]), 18),
                num(r["steps"]),
                num(r["queries"]),
                clip(r["subquery"] or "", 40),
                key=f"{r['relation']}|{r['item_id']}",
            )

    @on(DataTable.RowSelected, "#t-queries")
    def _open(self, event: DataTable.RowSelected) -> None:
        self.post_message(OpenQuery(str(event.row_key.value).split("|")[1]))

    @on(DataTable.RowSelected, "#t-equivalents")
    def _open_equivalent(self, event: DataTable.RowSelected) -> None:
        self.post_message(OpenTool(str(event.row_key.value).split("|", 1)[1]))
