"""Messages the screens and components exchange (one module, as in harlequin)."""

from __future__ import annotations

from textual.message import Message


class OpenQuery(Message):
    """Show the detail of one query."""

    def __init__(self, query_id: str) -> None:
        super().__init__()
        self.query_id = query_id


class OpenTool(Message):
    """Show the detail of one tool (item)."""

    def __init__(self, item_id: str) -> None:
        super().__init__()
        self.item_id = item_id


class LabelSaved(Message):
    """A reviewer's label was written to the store."""

    def __init__(self, position: int) -> None:
        super().__init__()
        self.position = position
