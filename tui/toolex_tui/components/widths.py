"""Column widths that fit the terminal (issue 25.9: at 80x24 the candidates' reason column was 3
characters wide and run names were cut, the tables scrolling sideways past the screen's edge).

A table's columns are described by what their cells need (:class:`Column`); :func:`fit` gives
every fixed column its width and shares the rest of the room among the flexible ones, the
narrowest need served first (water-filling), so a short column is never starved by a long one
and no column is wider than its widest cell. :func:`add_columns` puts the result on a DataTable.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from textual.widgets import DataTable

PADDING = 2  # a DataTable cell's padding, one character each side (cell_padding = 1)
# Beside a detail screen's tables: its padding (1 each side) and its vertical scroll bar (2).
DETAIL_MARGIN = 4
SCROLLBAR = 2  # a RowTable's own bar, when its rows outgrow its height


@dataclass(frozen=True)
class Column:
    """A column: its label, the width of its widest cell (``natural``), and for a flexible
    column the least it may be given (cells are then clipped with "…"); ``minimum`` None: fixed
    at its natural width."""

    label: str
    natural: int
    minimum: int | None = None
    key: str | None = None  # the DataTable's column key (default: the label)

    @classmethod
    def of(
        cls, label: str, cells: Iterable[str], minimum: int | None = None, key: str | None = None
    ) -> Column:
        """A column as wide as the widest of ``cells`` and ``label``, in terminal cells (a CJK
        letter or an emoji takes two)."""
        return cls(label, max([cell_len(label), *(cell_len(c) for c in cells)]), minimum, key)


def fit(room: int, columns: Sequence[Column]) -> list[int]:
    """Each column's width so that the columns with their padding fit in ``room`` characters
    (when the minimums allow): fixed columns at their natural width, flexible ones at least at
    their minimum, then the rest shared out, the smallest need first, never past a column's
    natural width."""
    widths = [c.natural if c.minimum is None else min(c.minimum, c.natural) for c in columns]
    spare = room - PADDING * len(columns) - sum(widths)
    wants = sorted(
        (c.natural - w, i)
        for i, (c, w) in enumerate(zip(columns, widths, strict=True))
        if c.minimum is not None and c.natural > w
    )
    for served, (need, i) in enumerate(wants):
        give = max(min(need, spare // (len(wants) - served)), 0)
        widths[i] += give
        spare -= give
    return widths


def add_columns(
    table: DataTable[object], room: int, columns: Sequence[Column], *, scrollbar: bool = False
) -> list[int]:
    """Add ``columns`` to ``table`` at the widths :func:`fit` gives in ``room`` (less the
    table's own vertical scroll bar when it has one); the widths, for clipping the cells."""
    widths = fit(room - (SCROLLBAR if scrollbar else 0), columns)
    for column, width in zip(columns, widths, strict=True):
        table.add_column(column.label, width=width, key=column.key or column.label)
    return widths
