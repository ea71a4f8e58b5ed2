"""A DataTable preset for the TUI: row cursor, zebra stripes, sized to its rows."""

from __future__ import annotations

from textual.widgets import DataTable


class RowTable(DataTable):
    """Row-cursor table whose height follows its rows (detail screens stack several)."""

    DEFAULT_CSS = """
    RowTable { height: auto; max-height: 16; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
