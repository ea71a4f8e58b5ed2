"""The review screen: one sampled item at a time, labelled by one role, at either level.

What is shown is toolex.review.views' ItemView, the same as in the sheets: on top the request
(query, instruction) and the sub-query (verdict level) or the checklist (combination level);
below, both documentations side by side (reference | candidate, or ground truth | proposed),
each pane scrollable on its own. Reviewers see their OWN label only; the adjudicator sees only
disagreements, with both reviewers' labels and notes. Nobody sees the judge's verdict, reason or
confidence, unless the sample was drawn with the judge's rationale shown (`review sample
--show-rationale`: then it follows the sub-query or the checklist), nor the retriever's rank or
the RRF rank.

A label is stored the moment it is given (issue 25: labels were kept in memory until ctrl+s, and
quitting lost them): a positive label, or a negative one with its failure bucket, is written at
once through toolex.review.save_label (one short transaction; at the verdict level the final
label is published to ``labels`` in it), and the note as it is typed. Quitting by any key, a
crash or a kill -9 then loses nothing already given. What cannot be stored yet (a negative
label still without its bucket, a note on an item without a label) is never dropped silently:
moving on or quitting warns first, and only the same key again leaves it.

Keys differ by level only where the labels do: combinations v valid / i invalid (n/p next and
previous), verdicts y yes / n no (]/[ next and previous); failure buckets 1-4 or 1-6.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Input, Static

from toolex.errors import ToolexError
from toolex.review import Label, Level, item_view, items_for, sample_level, save_label
from toolex.review.items import ReviewItem
from toolex.review.labels import check_role
from toolex.review.protocol import shows_rationale
from toolex.store import Store
from toolex_tui.components.cells import escaped
from toolex_tui.components.docpair import DocPair
from toolex_tui.components.footer import KeyFooter


class ReviewScreen(Screen[object]):
    CSS_PATH = "../styles/review.tcss"
    AUTO_FOCUS = "#r-head"  # not the note box, or the label keys would be typed into it
    BINDINGS = [
        Binding("escape", "focus_body", "Leave note", show=False),
        Binding("v", "mark('valid')", "Valid"),
        Binding("i", "mark('invalid')", "Invalid"),
        Binding("y", "mark('yes')", "Yes"),
        Binding("n", "mark('no')", "No"),
        # n/p move at the combination level; at the verdict level n is "no", so ] / [ move
        Binding("n", "move(1)", "Next"),
        Binding("p", "move(-1)", "Prev"),
        Binding("right_square_bracket", "step(1)", "Next"),
        Binding("left_square_bracket", "step(-1)", "Prev"),
        Binding("e", "edit_note", "Note"),
        # labels are stored as they are given: ctrl+s (and enter in the note) only moves on
        Binding("ctrl+s", "save", "Next", show=False, priority=True),
        *(Binding(str(k + 1), f"bucket({k})", f"Bucket {k + 1}", show=False) for k in range(6)),
    ]

    def __init__(self, store: Store, sample_id: str, role: str, reviewer: str) -> None:
        super().__init__()
        self.level: Level = sample_level(store, sample_id)
        check_role(store, sample_id, role, reviewer, self.level)
        self.store = store
        self.sample_id = sample_id
        self.role = role
        self.reviewer = reviewer
        self.items = items_for(store, sample_id, role)
        self.show_rationale = shows_rationale(store, sample_id)
        self.index = 0
        self.pending: Label | None = None  # the label given on this item (its note: #r-note)
        # (item, "move on" | "quit"): the leave key that warned of an unstored label there
        self._warned: tuple[int, str] | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="r-status")
        with Vertical(id="review"):
            with VerticalScroll(id="r-head"):
                yield Static(id="r-context")
                yield Static(id="r-members")
            yield DocPair(id="r-docs")
            yield Static(id="r-others")
        yield Static(id="r-label")
        yield Input(placeholder="note (e to edit, enter: next item)", id="r-note", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = f"review {self.sample_id} ({self.level.name} level)"
        self.sub_title = f"{self.role}: {self.reviewer}"
        self.show()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Bind each level's own keys only (see the module docstring)."""
        verdict = self.level.name == "verdict"
        if action == "mark":
            return parameters[0] in self.level.labels
        if action == "bucket":
            return int(str(parameters[0])) < len(self.level.buckets)
        if action == "move":
            return not verdict
        if action == "step":
            return verdict
        return True

    # -- display -----------------------------------------------------------------------------

    @property
    def item(self) -> ReviewItem | None:
        return self.items[self.index] if self.items else None

    def show(self) -> None:
        item = self.item
        if item is None:
            what = "no disagreement to adjudicate" if self.role == "adjudicator" else "no item"
            self.query_one("#r-context", Static).update(f"[b]{what}[/b] in {self.sample_id}")
            self._status()
            return
        self.pending = self._stored()
        view = item_view(self.store, self.level, item, self.role, self.show_rationale)
        ctx = [f"[b]{escaped(view.heading)}[/b]", escaped(view.request)]
        if view.instruction:
            ctx.append(f"[i]instruction:[/i] {escaped(view.instruction)}")
        self.query_one("#r-context", Static).update("\n".join(ctx))
        if self.level.name == "verdict":
            checklist = f"[b]sub-query[/b] {escaped(view.checklist[0])}"
        else:
            checklist = "[b]checklist[/b]\n" + "\n".join(f"  {escaped(c)}" for c in view.checklist)
        if view.rationale:
            checklist += f"\n[b]the judge's rationale[/b]\n{escaped(view.rationale)}"
        self.query_one("#r-members", Static).update(checklist)
        self.query_one("#r-head", VerticalScroll).scroll_home(animate=False)
        self.query_one(DocPair).show(view.left, view.right)
        others = "\n".join(
            f"[b]{who}[/b]: {self._fmt(label, bucket)}  {escaped(note or '')}"
            for who, label, bucket, note in view.others
        )
        self.query_one("#r-others", Static).update(others)
        note = self.query_one("#r-note", Input)
        with note.prevent(Input.Changed):  # the item's stored note, not one typed
            note.value = item.seen.note or ""
        self._warned = None
        self._status()

    def _status(self) -> None:
        done = sum(1 for it in self.items if it.seen.label)
        pos = f"{self.index + 1}/{len(self.items)}" if self.items else "0/0"
        self.query_one("#r-status", Static).update(
            f"item {pos} · labelled {done}/{len(self.items)} · {self.role} {self.reviewer}"
        )
        lv, p = self.level, self.pending
        keys = f"{lv.positive[0]} {lv.positive}, {lv.negative[0]} {lv.negative}"
        hint = ""
        if p and p.label == lv.negative and not p.bucket:
            hint = (
                "  [dim]bucket? "
                + " ".join(f"{k + 1} {word}" for k, word in enumerate(lv.short))
                + "[/dim]"
            )
        stored = "  [green]✓ stored[/green]" if p and p == self._stored() else ""
        self.query_one("#r-label", Static).update(
            "label: "
            + (self._fmt(p.label, p.bucket) if p else f"[dim]none ({keys})[/dim]")
            + stored
            + hint
        )

    def _fmt(self, label: str | None, bucket: str | None) -> str:
        if not label:
            return "[dim]–[/dim]"
        if label == self.level.positive:
            return f"[b green]{label}[/]"
        if not bucket:
            return f"[b red]{label}[/]"
        what = self.level.buckets.get(bucket, bucket).split(" (")[0]
        return f"[b red]{label}[/] · {escaped(what)}"

    # -- storing as given ---------------------------------------------------------------------

    def _stored(self) -> Label | None:
        """The current item's label as the store holds it (its note aside)."""
        item = self.item
        if item is None or not item.seen.label:
            return None
        return Label(item.seen.label, item.seen.bucket)

    def _complete(self, label: Label) -> bool:
        return label.label == self.level.positive or label.bucket in self.level.buckets

    def _store_given(self) -> bool:
        """Store the label given on the current item, with the note typed, unless the store
        already holds exactly that; False when there is nothing storable or the save failed."""
        item, given = self.item, self.pending
        if item is None or given is None or not self._complete(given):
            return False
        label = Label(given.label, given.bucket, self.query_one("#r-note", Input).value)
        checked = label.check(self.level)
        seen = item.seen
        if (checked.label, checked.bucket, checked.note) == (seen.label, seen.bucket, seen.note):
            return True
        try:
            save_label(
                self.store,
                self.sample_id,
                item,
                role=self.role,
                reviewer=self.reviewer,
                label=checked,
            )
        except ToolexError as exc:
            self.notify(f"not stored: {exc}", severity="error")
            return False
        self.items[self.index] = item.relabelled(checked.label, checked.bucket, checked.note)
        return True

    def unstored(self) -> str | None:
        """What was given on the current item but is not in the store, or None."""
        item, given = self.item, self.pending
        if item is None:
            return None
        lv = self.level
        if given is not None and not self._complete(given):
            return f"its {lv.negative!r} label needs a failure bucket (1-{len(lv.buckets)})"
        note = self.query_one("#r-note", Input).value.strip() or None
        if given is None and note:
            return f"a note is stored with a label ({lv.positive[0]} or {lv.negative[0]})"
        if given is None:
            return None
        seen = item.seen
        if (given.label, given.bucket, note) != (seen.label, seen.bucket, seen.note):
            return "its label could not be stored"
        return None

    def may_leave(self, what: str) -> bool:
        """True when leaving the current item (``what``: "move on", "quit") loses nothing, or
        when the user, warned once, asks again."""
        problem = self.unstored()
        if problem is None or self._warned == (self.index, what):
            self._warned = None
            return True
        self._warned = (self.index, what)
        self.notify(
            f"item {self.index + 1} is not stored: {problem}. The same key again will {what} "
            "without it",
            severity="warning",
            timeout=8,
        )
        return False

    # -- actions -----------------------------------------------------------------------------

    def action_mark(self, label: str) -> None:
        if self.item is None:
            return
        bucket = self.pending.bucket if self.pending and label == self.level.negative else None
        self._give(Label(label, bucket))

    def action_bucket(self, index: int) -> None:
        if self.item is None:
            return
        self._give(Label(self.level.negative, list(self.level.buckets)[index]))

    def _give(self, label: Label) -> None:
        self.pending = label
        self._warned = None
        self._store_given()
        self._status()

    @on(Input.Changed, "#r-note")
    def _note_typed(self) -> None:
        self._warned = None
        if self._store_given():
            self._status()

    def action_focus_body(self) -> None:
        self.query_one("#r-head", VerticalScroll).focus()

    def action_edit_note(self) -> None:
        self.query_one("#r-note", Input).focus()

    @on(Input.Submitted, "#r-note")
    def _note_done(self) -> None:
        self.action_save()

    def action_save(self) -> None:
        """ctrl+s, or enter in the note: the label is stored already (as it was given); make
        sure, then move on to the next item."""
        if self.item is None:
            return
        lv = self.level
        if self.pending is None:
            keys = f"{lv.positive[0]} {lv.positive}, {lv.negative[0]} {lv.negative}"
            self.notify(f"choose a label first: {keys}", severity="warning")
            return
        if not self._complete(self.pending):
            self.notify(f"choose a failure bucket first (1-{len(lv.buckets)})", severity="warning")
            return
        if not self._store_given():
            return
        self.action_focus_body()
        self._go(1)

    def action_move(self, step: int) -> None:
        if self.items and self.may_leave("move on"):
            self._go(step)

    def action_step(self, step: int) -> None:
        self.action_move(step)

    def _go(self, step: int) -> None:
        self.index = min(max(self.index + step, 0), len(self.items) - 1)
        self.show()
