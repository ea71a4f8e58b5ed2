"""The review screen: one sampled combination at a time, labelled by one role.

Reviewers see the query, instruction, each slot's sub-query with the candidate tool, the
reference tool and the judge's reason, and the audit's reason, plus their OWN label only. The
adjudicator sees only disagreements, with both reviewers' labels and notes. Labels are written
through toolex.review (one short transaction per save).
"""

from __future__ import annotations

from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Static

from toolex.errors import ToolexError
from toolex.review import BUCKETS, Label, items_for, members, save_label
from toolex.review.labels import check_role
from toolex.store import Store

BUCKET_KEYS = list(BUCKETS)  # keys 1..4 in this order


class ReviewScreen(Screen):
    AUTO_FOCUS = "#review"  # not the note box, or v/i/n/p would be typed into it
    BINDINGS = [
        Binding("escape", "focus_body", "Leave note", show=False),
        Binding("v", "mark('valid')", "Valid"),
        Binding("i", "mark('invalid')", "Invalid"),
        Binding("1", "bucket(0)", "Ambiguity", show=False),
        Binding("2", "bucket(1)", "Near-synonym", show=False),
        Binding("3", "bucket(2)", "Coverage", show=False),
        Binding("4", "bucket(3)", "Platform", show=False),
        Binding("e", "edit_note", "Note"),
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("n", "move(1)", "Next"),
        Binding("p", "move(-1)", "Prev"),
    ]

    def __init__(self, store: Store, sample_id: str, role: str, reviewer: str) -> None:
        super().__init__()
        check_role(store, sample_id, role, reviewer)
        self.store = store
        self.sample_id = sample_id
        self.role = role
        self.reviewer = reviewer
        self.items = items_for(store, sample_id, role)
        self.index = 0
        self.pending: Label | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="r-status")
        with VerticalScroll(id="review"):
            yield Static(id="r-context")
            yield Static(id="r-members")
            yield Static(id="r-others")
        yield Static(id="r-label")
        yield Input(placeholder="note (e to edit, enter to save)", id="r-note", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"review {self.sample_id}"
        self.sub_title = f"{self.role}: {self.reviewer}"
        self.show()

    # -- display -----------------------------------------------------------------------------

    @property
    def item(self) -> dict | None:
        return self.items[self.index] if self.items else None

    def show(self) -> None:
        item = self.item
        if item is None:
            what = "no disagreement to adjudicate" if self.role == "adjudicator" else "no item"
            self.query_one("#r-context", Static).update(f"[b]{what}[/b] in {self.sample_id}")
            self._status()
            return
        own = Label(item["label"], item["bucket"], item["note"]) if item["label"] else None
        self.pending = own
        ctx = [
            f"[b]{escape(item['query_id'])}[/b] combo {item['combo_id']} · stratum "
            f"{escape(item['stratum'])} · RRF rank {item['rrf_rank']}",
            escape(item["query"]),
        ]
        if item["instruction"]:
            ctx.append(f"[i]instruction:[/i] {escape(item['instruction'])}")
        ctx.append(f"[i]audit:[/i] {escape(item['audit_reason'] or '–')}")
        self.query_one("#r-context", Static).update("\n".join(ctx))
        lines = []
        for m in members(self.store, item):
            same = m["candidate"] == m["reference"]
            lines.append(f"[b]slot {m['slot']}[/b] {escape(m['subquery'] or '')}")
            lines.append(
                f"  candidate  [green]{escape(m['candidate'])}[/green]"
                + ("  (= reference)" if same else "")
            )
            if not same:
                lines.append(f"  reference  [cyan]{escape(m['reference'] or '?')}[/cyan]")
            lines.append(f"  judge      {escape(m['reason'] or '–')}")
        self.query_one("#r-members", Static).update("\n".join(lines))
        others = ""
        if self.role == "adjudicator":
            others = "\n".join(
                f"[b]{who}[/b]: {_fmt(item[f'{p}_label'], item[f'{p}_bucket'])}"
                f"  {escape(item[f'{p}_note'] or '')}"
                for who, p in (("reviewer1", "r1"), ("reviewer2", "r2"))
            )
        self.query_one("#r-others", Static).update(others)
        self.query_one("#r-note", Input).value = (own.note if own else None) or ""
        self._status()

    def _status(self) -> None:
        done = sum(1 for it in self.items if it["label"])
        pos = f"{self.index + 1}/{len(self.items)}" if self.items else "0/0"
        self.query_one("#r-status", Static).update(
            f"item {pos} · labelled {done}/{len(self.items)} · {self.role} {self.reviewer}"
        )
        p = self.pending
        self.query_one("#r-label", Static).update(
            "label: "
            + (_fmt(p.label, p.bucket) if p else "[dim]none (v valid, i invalid)[/dim]")
            + (
                ""
                if not p or p.label != "invalid" or p.bucket
                else "  [dim]bucket? 1 ambiguity 2 near-synonym 3 coverage 4 platform[/dim]"
            )
        )

    # -- actions -----------------------------------------------------------------------------

    def action_mark(self, label: str) -> None:
        if self.item is None:
            return
        bucket = self.pending.bucket if self.pending and label == "invalid" else None
        self.pending = Label(label, bucket)
        self._status()

    def action_bucket(self, index: int) -> None:
        if self.item is None:
            return
        self.pending = Label("invalid", BUCKET_KEYS[index])
        self._status()

    def action_focus_body(self) -> None:
        self.query_one("#review", VerticalScroll).focus()

    def action_edit_note(self) -> None:
        self.query_one("#r-note", Input).focus()

    @on(Input.Submitted, "#r-note")
    def _note_done(self) -> None:
        self.action_save()

    def action_save(self) -> None:
        item = self.item
        if item is None:
            return
        if self.pending is None:
            self.notify("choose a label first: v valid, i invalid", severity="warning")
            return
        note = self.query_one("#r-note", Input).value
        label = Label(self.pending.label, self.pending.bucket, note)
        try:
            save_label(
                self.store,
                self.sample_id,
                item,
                role=self.role,
                reviewer=self.reviewer,
                label=label,
            )
        except ToolexError as exc:
            self.notify(str(exc), severity="error")
            return
        checked = label.check()
        item.update(label=checked.label, bucket=checked.bucket, note=checked.note)
        self.action_focus_body()
        self.action_move(1)

    def action_move(self, step: int) -> None:
        if not self.items:
            return
        self.index = min(max(self.index + step, 0), len(self.items) - 1)
        self.show()


def _fmt(label: str | None, bucket: str | None) -> str:
    if not label:
        return "[dim]–[/dim]"
    if label == "valid":
        return "[b green]valid[/]"
    return f"[b red]invalid[/] · {escape(BUCKETS.get(bucket or '', bucket or '?'))}"
