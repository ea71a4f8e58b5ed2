"""One query: text, GT combination and sub-queries, candidates with verdicts, combinations by
RRF with their audit fate, and per run where the GT and the equivalents ranked."""

from __future__ import annotations

import asyncio

from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Header, Static

from toolex_tui.components.cells import (
    accented,
    clip,
    clip_id,
    escaped,
    gain,
    item_label,
    num,
    shown,
    status,
    verdict,
)
from toolex_tui.components.focus import DETAIL_KEYS, TableFocus
from toolex_tui.components.footer import KeyFooter
from toolex_tui.components.section import SectionTitle
from toolex_tui.components.table import RowTable
from toolex_tui.components.widths import (
    DETAIL_MARGIN,
    PADDING,
    SCROLLBAR,
    Column,
    add_columns,
)
from toolex_tui.data import Browser, QueryPage
from toolex_tui.messages import OpenTool
from toolex_tui.rows import Member, RankedEquivalent, RunRanks

RUN_WIDTH = 24  # a run's name is shown whole up to this width, then on the line under the table
EQUIVALENTS_WIDTH = 16  # the least room worth a column of the equivalents' ranks


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
        self.run_lines: dict[str, str] = {}  # run id -> its line under the runs table
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
            yield Static(id="q-run-line", classes="row-detail")
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
            self.query_one("#q-header", Static).update(f"[red]no query {escaped(qid)}[/red]")
            return
        lines = [
            f"[b]{escaped(qid)}[/b]  task {escaped(shown(head.task))} · "
            f"category {escaped(shown(head.category))}",
            escaped(head.text),
        ]
        if head.instruction:
            lines.append(f"[i]instruction:[/i] {escaped(head.instruction)}")
        self.query_one("#q-header", Static).update("\n".join(lines))

        room = self.app.size.width - DETAIL_MARGIN
        self._slots(page, room)
        self._candidates(page, room)
        self._combinations(page, room)
        self._runs(page, room)

    # Each table fits the terminal's width (components.widths): the short columns at their
    # width, the long ones (tools, reasons, sub-queries) sharing the rest; what a cell cannot
    # hold, the line under the table shows whole for the highlighted row.

    def _slots(self, page: QueryPage, room: int) -> None:
        labels = [item_label(r.gt_item, r.gt_name) for r in page.slots]
        subqueries = [r.subquery or "–" for r in page.slots]
        table = self.query_one("#q-slots", RowTable)
        _, tool_w, sub_w = add_columns(
            table,
            room,
            [
                Column.of("slot", [str(r.slot) for r in page.slots]),
                Column.of("ground-truth tool", labels, minimum=16),
                Column.of("sub-query", subqueries, minimum=20),
            ],
            scrollbar=RowTable.scrolls(len(page.slots)),
        )
        for r, sub in zip(page.slots, subqueries, strict=True):
            table.add_row(
                r.slot,
                item_label(r.gt_item, r.gt_name, tool_w),
                clip(sub, sub_w),
                key=r.gt_item,
            )

    def _candidates(self, page: QueryPage, room: int) -> None:
        rows = page.candidates
        table = self.query_one("#q-candidates", RowTable)
        _, _, _, cand_w, reason_w = add_columns(
            table,
            room,
            [
                Column.of("slot", [str(r.slot) for r in rows]),
                Column.of("rank", [shown(r.rank) for r in rows]),
                Column.of("ok", ["REF"]),
                # an opaque id needs its name beside it (ToolRet's apigen_tool_509): the tool
                # is served first; the reason is whole on the line under the table
                Column.of("candidate", [item_label(r.item_id, r.name) for r in rows], 30),
                Column.of("reason", [r.reason or "" for r in rows], minimum=20),
            ],
            scrollbar=RowTable.scrolls(len(rows)),
        )
        for r in rows:
            key = f"{r.slot}|{r.item_id}"
            self.reasons[key] = (
                f"[b]{escaped(item_label(r.item_id, r.name))}[/b] "
                f"({escaped(shown(r.platform))}), judge "
                f"{escaped(shown(r.judge))}: {escaped(r.reason or '–')}"
            )
            table.add_row(
                r.slot,
                num(r.rank),
                verdict(r.accepted, bool(r.is_reference)),
                accented(item_label(r.item_id, r.name, cand_w), bool(r.accepted)),
                clip(r.reason, reason_w),
                key=key,
            )
        if self.reasons:  # the cursor starts on the first candidate
            self._reason(next(iter(self.reasons.values())))

    def _combinations(self, page: QueryPage, room: int) -> None:
        rows = page.combinations
        listed = [_members(r.members or [], every=r.is_original) for r in rows]
        table = self.query_one("#q-combos", RowTable)
        *_, members_w, reason_w = add_columns(
            table,
            room,
            [
                Column.of("rrf#", [shown(r.rrf_rank) for r in rows]),
                Column.of("id", [str(r.combo_id) for r in rows]),
                Column.of("status", [r.status or "" for r in rows]),
                Column.of("members (= the slot's GT)", listed, minimum=16),
                Column.of("reason", [r.reason or "" for r in rows], minimum=12),
            ],
            scrollbar=RowTable.scrolls(len(rows)),
        )
        for r, members in zip(rows, listed, strict=True):
            table.add_row(
                num(r.rrf_rank),
                r.combo_id,
                status(r.status),
                accented(clip(members, members_w), r.status == "valid"),
                clip(r.reason, reason_w),
                key=str(r.combo_id),
            )

    def _runs(self, page: QueryPage, room: int) -> None:
        rows = page.ranks
        equivalents = [_equivalents(r.equivalents or []) for r in rows]
        columns = [
            # run names whole up to RUN_WIDTH (issue 25.9), cut in the middle past it
            Column("run", min(RUN_WIDTH, max([3, *(len(r.run_id) for r in rows)]))),
            *(Column(name, 9) for name in ("nDCG", "Recall", "Comp")),
            Column.of("GT ranks", [r.gt_ranks or "" for r in rows], minimum=8),
        ]
        scrollbar = RowTable.scrolls(len(rows))
        # the equivalents get a column where the terminal has room for one (they are always
        # on the line under the table, with their names)
        left = room - sum(c.natural + PADDING for c in columns) - (SCROLLBAR if scrollbar else 0)
        if left >= EQUIVALENTS_WIDTH + PADDING:
            columns.append(Column.of("equivalents@rank", equivalents, minimum=EQUIVALENTS_WIDTH))
        table = self.query_one("#q-runs", RowTable)
        widths = add_columns(table, room, columns, scrollbar=scrollbar)
        for r, equiv in zip(rows, equivalents, strict=True):
            sc = page.scores.get(r.run_id, {})
            self.run_lines[r.run_id] = (
                f"[b]{escaped(r.run_id)}[/b]: GT ranks by slot {escaped(r.gt_ranks or '–')}"
                f"; accepted equivalents@rank {escaped(equiv or '–')}"
            )
            cells: list[object] = [
                clip_id(r.run_id, widths[0]),
                gain(sc.get("ndcg")),
                gain(sc.get("recall", _recall_at_10(r))),
                gain(sc.get("comp")),
                r.gt_ranks or "",
            ]
            if len(widths) > len(cells):
                cells.append(clip(equiv, widths[-1]))
            table.add_row(*cells, key=r.run_id)
        if rows:
            self.query_one("#q-run-line", Static).update(self.run_lines[rows[0].run_id])

    @on(DataTable.RowHighlighted, "#q-candidates")
    def _show_reason(self, event: DataTable.RowHighlighted) -> None:
        """The highlighted candidate's full reason, wrapped (the table clips it)."""
        self._reason(self.reasons.get(str(event.row_key.value), ""))

    @on(DataTable.RowHighlighted, "#q-runs")
    def _show_run(self, event: DataTable.RowHighlighted) -> None:
        """The highlighted run's whole name, GT ranks and equivalents with their names."""
        self.query_one("#q-run-line", Static).update(
            self.run_lines.get(str(event.row_key.value), "")
        )

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


def _recall_at_10(run: RunRanks) -> tuple[float, float] | tuple[None, None]:
    """The run's (old, new) Recall@10 of this query from the store, where the metrics gave none."""
    if run.r10_old is None or run.r10_new is None:
        return (None, None)
    return (run.r10_old, run.r10_new)


def _members(members: list[Member], *, every: bool) -> str:
    """A combination's members in slot order, each with its name; "=" for a member that is its
    slot's ground-truth tool, unless ``every`` (the original combination) lists them all."""
    return " + ".join(
        "=" if m.is_gt and not every else item_label(m.item_id, m.name) for m in members
    )


def _equivalents(equivalents: list[RankedEquivalent]) -> str:
    """A run's ranks of the accepted equivalents, best first: ``id · name@rank, ...``."""
    return ", ".join(f"{item_label(e.item_id, e.name)}@{e.rank}" for e in equivalents)
