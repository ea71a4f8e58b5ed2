"""Two documentations side by side: the reference and the candidate of a verdict, or the
ground-truth and the proposed combination slot by slot (toolex.review.views.Side).

Each side is a focusable pane (tab moves between them) that scrolls on its own with the arrow
keys, j/k, g/G, page up/down, so a long document can be read next to a short one.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from toolex.review.views import Side


class DocPane(VerticalScroll):
    """One side: its title on the border, then each (heading, document) pair."""

    BINDINGS = [
        Binding("j", "scroll_down", "Down", show=False),
        Binding("k", "scroll_up", "Up", show=False),
        Binding("g", "scroll_home", "Top", show=False),
        Binding("G", "scroll_end", "Bottom", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Static(classes="doc-body")

    def show(self, side: Side) -> None:
        self.border_title = side.title
        body = Text()
        for n, (heading, doc) in enumerate(side.docs):
            if n:
                body.append("\n\n")
            body.append(heading, style="bold")
            body.append("\n")
            body.append(doc)
        self.query_one(".doc-body", Static).update(body)
        self.scroll_home(animate=False)

    @property
    def text(self) -> str:
        """What the pane shows, as plain text (for tests and copy)."""
        return str(self.query_one(".doc-body", Static).render())


class DocPair(Horizontal):
    """The left and right panes; ``show`` fills both at once."""

    def compose(self) -> ComposeResult:
        yield DocPane(id="r-doc-left", classes="doc-pane")
        yield DocPane(id="r-doc-right", classes="doc-pane")

    def show(self, left: Side, right: Side) -> None:
        self.query_one("#r-doc-left", DocPane).show(left)
        self.query_one("#r-doc-right", DocPane).show(right)
