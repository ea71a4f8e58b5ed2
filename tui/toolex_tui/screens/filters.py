"""The filter dialog: task, category, number of GT tools, valid combinations, and the two
run-based filters. Options come from SQL facets, so they always match the store."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Label, Select

from toolex.printable import printable
from toolex_tui.data import Browser, QueryFilter

MIN_VALID = (2, 3, 5, 10)


def _choice(
    label: str, options: Sequence[tuple[str, object]], wid: str, value: object, prompt: str = "any"
) -> ComposeResult:
    """A grid row: the label, then a compact Select showing ``value`` (``prompt`` when NULL).
    The options' text comes from data (a category, a run name): shown as itself, never read as
    markup (a run named ``[/r]`` raised MarkupError)."""
    yield Label(label)
    shown = [(Content(printable(text)), v) for text, v in options]
    yield Select(shown, id=wid, value=value, compact=True, prompt=prompt)


class FilterScreen(ModalScreen[QueryFilter | None]):
    """Returns the new filter, or None when cancelled."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "apply", "Apply"),
        Binding("c", "clear", "Clear all"),
    ]

    def __init__(self, browser: Browser, current: QueryFilter) -> None:
        super().__init__()
        self.browser = browser
        self.current = current

    def compose(self) -> ComposeResult:
        facets = self.browser.facets()
        runs = [(r, r) for r in self.browser.runs()]
        cur = self.current
        with Vertical(id="filter-box"):
            yield Label("[b]Filters[/b]  (tab moves, enter opens a list, ctrl+s applies)")
            with Grid(id="filter-grid"):
                yield from _choice(
                    "task",
                    [(f"{v} ({n})", v) for v, n in facets["task"]],
                    "f-task",
                    cur.task or Select.NULL,
                )
                yield from _choice(
                    "category",
                    [(f"{v} ({n})", v) for v, n in facets["category"]],
                    "f-category",
                    cur.category or Select.NULL,
                )
                yield from _choice(
                    "# GT tools",
                    [(f"{v} ({n})", int(v)) for v, n in facets["n_gt"]],
                    "f-ngt",
                    cur.n_gt if cur.n_gt is not None else Select.NULL,
                )
                yield from _choice(
                    "# valid ≥",
                    [(str(v), v) for v in MIN_VALID],
                    "f-valid",
                    cur.min_valid if cur.min_valid in MIN_VALID else Select.NULL,
                )
                yield from _choice(
                    "scores of run", runs, "f-score", cur.score_run or Select.NULL, "none"
                )
                yield Label("")
                yield Checkbox("new R@10 beats old", cur.beats, id="f-beats", compact=True)
                yield from _choice(
                    "GT out/equiv in top10", runs, "f-equiv", cur.equiv_run or Select.NULL, "off"
                )
            with Horizontal(id="filter-buttons"):
                yield Button("Apply", id="apply", variant="primary", compact=True)
                yield Button("Clear", id="clear", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def _value(self, wid: str) -> Any:
        value = self.query_one(wid, Select).value
        return None if value is Select.NULL else value

    def collect(self) -> QueryFilter:
        score = self._value("#f-score")
        return QueryFilter(
            search=self.current.search,
            task=self._value("#f-task"),
            category=self._value("#f-category"),
            n_gt=self._value("#f-ngt"),
            min_valid=self._value("#f-valid"),
            score_run=score,
            beats=bool(score) and self.query_one("#f-beats", Checkbox).value,
            equiv_run=self._value("#f-equiv"),
        )

    @on(Button.Pressed, "#apply")
    def action_apply(self) -> None:
        self.dismiss(self.collect())

    @on(Button.Pressed, "#clear")
    def action_clear(self) -> None:
        self.dismiss(QueryFilter(search=self.current.search))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
