"""One query: text, GT combination and sub-queries, candidates with verdicts, combinations by
RRF with their audit fate, and per run where the GT and the equivalents ranked."""

from __future__ import annotations

import asyncio

from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Header, Static

from toolex_tui.components.cells import accented, clip, gain, num, shown, status, verdict
from toolex_tui.components.focus import DETAIL_KEYS, TableFocus
from toolex_tui.components.footer import KeyFooter
from toolex_tui.components.section import SectionTitle
from toolex_tui.components.table import RowTable
from toolex_tui.data import Browser, QueryPage
from toolex_tui.messages import OpenTool


class QueryDetailScreen(TableFocus):
    BINDINGS = DETAIL_KEYS
    # No focus on the first focusable widget (the scroll container) as the page mounts: moving
    # it to the first table afterwards restyled the whole page twice. on_mount focuses that table.
    AUTO_FOCUS = ""

    def __init__(self, browser: Browser, query_id: str) -> None:
        super().__init__()
        self.browser = browser
        self.query_id = query_id
        self.reasons: dict[str, str] = {}
        self._reason_shown = ""
        # the reads start now, on reader threads, and run while Textual mounts the page
        self._page = browser.query_page_later(query_id)

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="detail"):
            yield Static(id="q-header")
            yield SectionTitle("Ground truth and sub-queries  (enter: tool)")
            yield RowTable(id="q-slots")
            yield SectionTitle("Candidates per sub-query: rank, verdict, judge's reason")
            yield RowTable(id="q-candidates")
            yield Static(id="q-reason", classes="row-detail")
            yield SectionTitle("Combinations by RRF: valid, then rejected or cut (id 0: original)")
            yield RowTable(id="q-combos")
            yield SectionTitle("Runs @10, old→new: nDCG, Recall, Comp; GT ranks; equivalents")
            yield RowTable(id="q-runs")
        yield KeyFooter()

    async def on_mount(self) -> None:
        self.title = self.query_id
        self.sub_title = "query detail"
        # Focus now, not through the app's queue (Widget.focus), which waits for this mount: the
        # footer then draws its keys while the reads run. No scrolling into view: focus given
        # before the first layout opened the page scrolled down to centre the table.
        self.set_focus(self.query_one("#q-slots", DataTable), scroll_visible=False)
        # Waiting here holds the screen's messages, and the app's while it waits for the mount:
        # keys pressed meanwhile act on the filled page, and Pilot (tests, benchmark) sees it.
        self.show(await asyncio.wrap_future(self._page))

    def show(self, page: QueryPage) -> None:
        qid, head = self.query_id, page.header
        if head is None:
            self.query_one("#q-header", Static).update(f"[red]no query {escape(qid)}[/red]")
            return
        lines = [
            f"[b]{escape(qid)}[/b]  task {escape(shown(head['task']))} · "
            f"category {escape(shown(head['category']))}",
            escape(head["text"]),
        ]
        if head["instruction"]:
            lines.append(f"[i]instruction:[/i] {escape(head['instruction'])}")
        self.query_one("#q-header", Static).update("\n".join(lines))

        slots = self.query_one("#q-slots", DataTable)
        slots.add_columns("slot", "ground-truth tool", "sub-query")
        for r in page.slots:
            slots.add_row(
                r["slot"], clip(r["gt_item"], 34), clip(r["subquery"] or "–", 60), key=r["gt_item"]
            )

        cands = self.query_one("#q-candidates", DataTable)
        cands.add_columns("slot", "rank", "ok", "candidate", "reason")
        for r in page.candidates:
            self.reasons[f"{r['slot']}|{r['item_id']}"] = (
                f"[b]{escape(r['item_id'])}[/b] ({escape(shown(r['platform']))}), judge "
                f"{escape(shown(r['judge']))}: {escape(r['reason'] or '–')}"
            )
            ok = bool(r["accepted"])
            cands.add_row(
                r["slot"],
                num(r["rank"]),
                verdict(r["accepted"], r["is_reference"]),
                accented(clip(r["item_id"], 30), ok),
                clip(r["reason"], 60),
                key=f"{r['slot']}|{r['item_id']}",
            )
        if self.reasons:  # the cursor starts on the first candidate
            self._reason(next(iter(self.reasons.values())))

        combos = self.query_one("#q-combos", DataTable)
        combos.add_columns("rrf#", "id", "status", "members (= the slot's GT)", "reason")
        for r in page.combinations:
            listed = r["members"] if r["is_original"] else r["changed"]
            combos.add_row(
                num(r["rrf_rank"]),
                r["combo_id"],
                status(r["status"]),
                accented(clip(listed, 50), r["status"] == "valid"),
                clip(r["reason"], 50),
                key=str(r["combo_id"]),
            )

        runs = self.query_one("#q-runs", DataTable)
        runs.add_columns("run", "nDCG", "Recall", "Comp", "GT ranks", "equivalents@rank")
        for r in page.ranks:
            sc = page.scores.get(r["run_id"], {})
            runs.add_row(
                clip(r["run_id"], 12),
                gain(sc.get("ndcg")),
                gain(sc.get("recall", (r["r10_old"], r["r10_new"]))),
                gain(sc.get("comp")),
                r["gt_ranks"] or "",
                clip(r["equiv_ranks"] or "–", 60),
                key=r["run_id"],
            )

    @on(DataTable.RowHighlighted, "#q-candidates")
    def _show_reason(self, event: DataTable.RowHighlighted) -> None:
        """The highlighted candidate's full reason, wrapped (the table clips it)."""
        self._reason(self.reasons.get(str(event.row_key.value), ""))

    def _reason(self, text: str) -> None:
        # the same text again would still lay the page out again (the first row's reason is
        # shown by `show`, before the table reports its cursor there)
        if text != self._reason_shown:
            self._reason_shown = text
            self.query_one("#q-reason", Static).update(text)

    @on(DataTable.RowSelected, "#q-slots")
    def _open_gt(self, event: DataTable.RowSelected) -> None:
        self.post_message(OpenTool(str(event.row_key.value)))

    @on(DataTable.RowSelected, "#q-candidates")
    def _open_candidate(self, event: DataTable.RowSelected) -> None:
        self.post_message(OpenTool(str(event.row_key.value).split("|", 1)[1]))
