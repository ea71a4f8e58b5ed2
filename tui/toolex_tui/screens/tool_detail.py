"""One tool: its raw documentation pretty-printed, its platform, the queries where it is
ground truth or was accepted as an equivalent (enter opens the query), and its equivalents across
all queries (enter opens that tool)."""

from __future__ import annotations

import json

from rich.syntax import Syntax
from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Header, Static

from toolex_tui.components.cells import clip, clip_id, escaped, item_label, num, shown
from toolex_tui.components.focus import DETAIL_KEYS, TableFocus
from toolex_tui.components.footer import KeyFooter
from toolex_tui.components.section import SectionTitle
from toolex_tui.components.table import RowTable
from toolex_tui.components.widths import DETAIL_MARGIN, Column, add_columns
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
            self.query_one("#t-header", Static).update(f"[red]no tool {escaped(self.item_id)}[/]")
            return
        self.query_one("#t-header", Static).update(
            f"[b]{escaped(item_label(tool.item_id, tool.name))}[/b]\n"
            f"platform [b]{escaped(shown(tool.platform))}[/b]"
            f" · category {escaped(shown(tool.category))} · kind {escaped(shown(tool.kind))}"
        )
        doc = tool.doc
        try:
            pretty = json.dumps(json.loads(doc or ""), indent=2, ensure_ascii=False)
        except (TypeError, ValueError):
            pretty = str(doc)
        self.query_one("#t-doc", Static).update(
            Syntax(pretty, "json", word_wrap=True, theme="ansi_dark")
        )
        self._fill_queries()
        self._fill_equivalents()
        self.query_one("#t-queries", DataTable).focus()

    # Both tables fit the terminal's width (components.widths): the short columns at their
    # width, ids, tools and texts sharing the rest.

    def _fill_queries(self) -> None:
        rows = self.browser.tool_queries(self.item_id)
        instead = [item_label(r.reference, r.reference_name) for r in rows if r.reference]
        table = self.query_one("#t-queries", RowTable)
        _, query_w, _, instead_w, text_w = add_columns(
            table,
            self.app.size.width - DETAIL_MARGIN,
            [
                Column.of("as", [r.role for r in rows]),
                Column.of("query", [r.query_id for r in rows], minimum=12),
                Column.of("slot", [shown(r.slot) for r in rows]),
                Column.of("instead of", instead, minimum=12),
                Column.of("text", [r.text for r in rows], minimum=16),
            ],
            scrollbar=RowTable.scrolls(len(rows)),
        )
        for r in rows:
            ref = r.reference
            table.add_row(
                r.role,
                clip_id(r.query_id, query_w),
                num(r.slot),
                item_label(ref, r.reference_name, instead_w) if ref else "",
                clip(r.text, text_w),
                key=f"{r.role}|{r.query_id}|{r.slot}",
            )

    def _fill_equivalents(self) -> None:
        rows = self.browser.tool_equivalents(self.item_id)
        table = self.query_one("#t-equivalents", RowTable)
        _, tool_w, platform_w, *_, sub_w = add_columns(
            table,
            self.app.size.width - DETAIL_MARGIN,
            [
                Column.of("relation", [r.relation for r in rows]),
                Column.of("tool", [item_label(r.item_id, r.name) for r in rows], 16),
                Column.of("platform", [shown(r.platform) for r in rows], minimum=8),
                Column.of("steps", [str(r.steps) for r in rows]),
                Column.of("queries", [str(r.queries) for r in rows]),
                Column.of("e.g. sub-query", [r.subquery or "" for r in rows], minimum=12),
            ],
            scrollbar=RowTable.scrolls(len(rows)),
        )
        for r in rows:
            table.add_row(
                r.relation,
                item_label(r.item_id, r.name, tool_w),
                clip(shown(r.platform), platform_w),
                num(r.steps),
                num(r.queries),
                clip(r.subquery or "", sub_w),
                key=f"{r.relation}|{r.item_id}",
            )

    @on(DataTable.RowSelected, "#t-queries")
    def _open(self, event: DataTable.RowSelected) -> None:
        self.post_message(OpenQuery(str(event.row_key.value).split("|")[1]))

    @on(DataTable.RowSelected, "#t-equivalents")
    def _open_equivalent(self, event: DataTable.RowSelected) -> None:
        self.post_message(OpenTool(str(event.row_key.value).split("|", 1)[1]))
