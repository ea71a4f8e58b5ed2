"""DataTable presets for the TUI: the keys of less and harlequin, and a row-cursor table sized to
its rows for the detail screens."""

from __future__ import annotations

from rich.text import Text, TextType
from textual.binding import Binding, BindingType
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

from toolex.printable import printable

# less / vi keys on every table: j/k a row, g/G the first/last row, ctrl+d/u half a page.
LESS_KEYS: list[BindingType] = [
    Binding("j", "cursor_down", "Down", show=False),
    Binding("k", "cursor_up", "Up", show=False),
    Binding("g", "scroll_top", "First row", show=False),
    Binding("G", "scroll_bottom", "Last row", show=False),
    Binding("ctrl+d", "page_down", "Page down", show=False),
    Binding("ctrl+u", "page_up", "Page up", show=False),
]


class ListTable(DataTable[object]):
    """A row-cursor table with the less keys (the query list)."""

    BINDINGS = LESS_KEYS

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)

    def add_row(
        self,
        *cells: object,
        height: int | None = 1,
        key: str | None = None,
        label: TextType | None = None,
    ) -> RowKey:
        """A row whose text cells are shown as themselves: DataTable reads a ``str`` cell as
        Rich markup (``[/INST]`` in a tool's text raised MarkupError, ``tool[v2]`` lost its
        ``[v2]``), so each becomes ``rich.text.Text``, its unshown characters escaped."""
        return super().add_row(
            *(Text(printable(c)) if isinstance(c, str) else c for c in cells),
            height=height,
            key=key,
            label=label,
        )


class RowTable(ListTable):
    """Row-cursor table whose height follows its rows (detail screens stack several); at most
    16 lines, so a focused table fits whole on an 80x24 terminal (the screens scroll it to the
    top when tab reaches it)."""

    HEIGHT = 16  # lines, the header's included
    DEFAULT_CSS = f"""
    RowTable {{ height: auto; max-height: {HEIGHT}; }}
    """

    @classmethod
    def scrolls(cls, rows: int) -> bool:
        """Whether ``rows`` rows overflow the table, which then shows a scroll bar."""
        return rows + 1 > cls.HEIGHT
