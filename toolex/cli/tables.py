"""The aligned table every command prints rows as (toolex.cli.options.emit_rows, `toolex sql`),
and how it keeps to the terminal: 80 columns when stdout is not one, as rich and psql assume.

The values are toolex.cli.output's (``cell``, ``shown``: never markup, unshown characters
escaped). When the table is wider than the terminal, it is fitted in this order, each step only
if the one before was not enough:

1. the title and the footer wrap at words to the terminal (a title wider than the table takes
   its own lines above it);
2. long text (a document, a reason, a path: past :data:`SHORT_TEXT` cells) wraps, and folds
   where a word is longer than the column;
3. a header wider than its column's values breaks at an underscore onto a second line
   (``queries_with_`` over ``alternative``), and a header longer still (a judge's spec, a URL)
   folds over lines at its separators (``/``, ``:``, ``#``, ``-``), every character kept;
4. a table of one row (an outcome, a summary) turns on its side: a line per column, its name
   and its value (psql's expanded display), so nothing is left out;
5. the last columns are left out, and a footer says how many and how to see them (``--wide``
   where the command has it, ``--format csv|json`` always), as duckdb's table does.

Numbers, ids and short names are never cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from toolex.cli.output import cell, numeric, shown, width

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

SHORT_TEXT = 32  # cells of the widest value of a text column that is never wrapped
FOLDED = 16  # the least a wrapped text column is given when the table must be narrow
GAP = 2  # between two columns: one cell of padding and the box's blank separator
SEPARATORS = "_/:#-.@ "  # where a folded header prefers to break


def _header(name: str, split: bool, room: int = FOLDED) -> str:
    """``name`` as a header: whole, or (``split``) broken after the underscore that makes its
    widest line the narrowest, onto two lines; when even that is wider than ``room``, folded
    over as many lines of at most ``room`` cells as it takes, after a separator where it can."""
    if not split:
        return name
    if "_" in name.strip("_"):
        cuts = [i + 1 for i, c in enumerate(name[:-1]) if c == "_" and i > 0]
        best = min(cuts, key=lambda i: max(width(name[:i]), width(name[i:])))
        if max(width(name[:best]), width(name[best:])) <= room:
            return f"{name[:best]}\n{name[best:]}"
    if width(name) <= room:
        return name
    return "\n".join(_fold(name, room))


def _fold(text: str, room: int) -> list[str]:
    """``text`` in lines of at most ``room`` cells, each ending after a separator where one
    falls in the line's second half, else cut where the line is full."""
    lines: list[str] = []
    while width(text) > room:
        line = ""
        for ch in text:
            if width(line + ch) > room:
                break
            line += ch
        breaks = [i + 1 for i, c in enumerate(line) if c in SEPARATORS and i + 1 > len(line) // 2]
        line = line[: breaks[-1]] if breaks else line
        lines.append(line)
        text = text[len(line) :]
    return [*lines, text] if text else lines


class _Column:
    """One column's needs: its values' widest cell, whether it is numeric or may wrap."""

    def __init__(self, name: str, values: Sequence[object]) -> None:
        self.name = name
        self.numeric = numeric(values)
        # With no rows the header is all there is to read: it is never broken.
        self.widest = max((width(v) for v in values), default=width(name))
        # Never shorten a number or a short text (an id, a name, a label); long text cells
        # (documentation, a query, a path) may wrap.
        self.whole = self.numeric or self.widest <= SHORT_TEXT

    def header(self, split: bool) -> str:
        # A header is split only where it is wider than the values under it.
        room = max(self.widest, FOLDED)
        return _header(self.name, split and width(self.name) > self.widest, room)

    def least(self, split: bool) -> int:
        """The fewest cells this column can take."""
        head = max(width(line) for line in self.header(split).split("\n"))
        body = self.widest if self.whole else min(self.widest, FOLDED)
        return max(head, body)


def _table(
    columns: Sequence[_Column], rows: Sequence[Sequence[object]], keep: Sequence[int], split: bool
) -> Table:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    # No vertical rules and no outer margin (psql's look): a cell pads one space on its right,
    # and with the box's blank separator columns stand two spaces apart.
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0), pad_edge=False, show_edge=False)
    for i in keep:
        col = columns[i]
        head = col.header(split)
        table.add_column(
            Text("\n").join(shown(part) for part in head.split("\n")),
            justify="right" if col.numeric else "left",
            min_width=max(col.widest if col.whole else 0, *(width(p) for p in head.split("\n"))),
            no_wrap=col.whole,
            overflow="fold",
        )
    for row in rows:
        table.add_row(*(shown(row[i]) for i in keep))
    return table


def _least(columns: Sequence[_Column], keep: Sequence[int], split: bool) -> int:
    return sum(columns[i].least(split) for i in keep) + GAP * max(len(keep) - 1, 0)


def fits(columns: Sequence[str], rows: Sequence[Sequence[object]]) -> bool:
    """Whether :func:`print_table` shows every column of this table on the terminal (headers
    broken and long text wrapped as it would)."""
    rows = [[cell_value(v) for v in row] for row in rows]
    cols = [_Column(c, [r[i] for r in rows]) for i, c in enumerate(columns)]
    return _least(cols, range(len(cols)), True) <= terminal_width()


def table_width(columns: Sequence[str], rows: Sequence[Sequence[object]]) -> int:
    """Cells the table takes with no cell shortened."""
    from rich.console import Console

    cols = [_Column(c, [r[i] for r in rows]) for i, c in enumerate(columns)]
    return Console(width=100_000).measure(_table(cols, rows, range(len(cols)), False)).maximum


def _stdout(width: int | None = None) -> Console:
    """A console on stdout whose broken pipe is Python's BrokenPipeError (the CLI ends it with
    exit 0: toolex.cli.LazyGroup), not rich's SystemExit(1)."""
    from rich.console import Console

    class Piped(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    return Piped(width=width)


def terminal_width() -> int:
    """The terminal's width (80 when stdout is not a terminal, as rich and psql assume)."""
    from toolex.cli.plain_table import plain_width

    room = plain_width()  # the same number, where it can be told without loading rich
    if room is not None:
        return room
    from rich.console import Console

    return Console().width


def has_wide() -> bool:
    """Whether the running command takes --wide (the footer then names it)."""
    import click

    ctx = click.get_current_context(silent=True)
    return ctx is not None and any(p.name == "wide" for p in ctx.command.params)


def print_table(
    columns: Sequence[str],
    rows: Sequence[Sequence[object]],
    title: str | None = None,
    footer: str | None = None,
    *,
    fit: bool = True,
) -> None:
    """An aligned table on stdout: the header, a rule, the rows (``(0 rows)`` for none), then
    ``footer``; fitted to the terminal as the module says, unless not ``fit`` (``--wide``:
    every column, whole, the terminal wrapping the lines)."""
    rows = [[cell_value(v) for v in row] for row in rows]
    if fit and _printed_plain(columns, rows, title, footer):
        return
    console = _stdout()
    room = console.width
    cols = [_Column(c, [r[i] for r in rows]) for i, c in enumerate(columns)]
    keep = list(range(len(cols)))
    split = fit and _least(cols, keep, False) > room
    if not fit:
        # --wide: every column whole, as wide as it takes (the terminal wraps the lines).
        table = _table(cols, rows, keep, False)
        console = _stdout(width=max(room, table_natural(table)))
    elif len(rows) == 1 and len(cols) > 2 and _least(cols, keep, split) > room:
        # One row too wide: a line per column instead, every value shown.
        print_table(["column", "value"], list(zip(columns, rows[0], strict=True)), title, footer)
        return
    else:
        while len(keep) > 1 and _least(cols, keep, split) > room:
            keep.pop()
        if len(keep) < len(cols):
            more = "--wide shows all, " if has_wide() else ""
            left = (
                f"({len(cols)} columns, {len(keep)} shown: {more}--format csv|json prints "
                "every column)"
            )
            footer = f"{footer}\n{left}" if footer else left
        table = _table(cols, rows, keep, split)
        if _least(cols, keep, split) > room:
            # One column alone wider than the terminal: print it whole (the terminal wraps, as
            # psql does) rather than let rich crop it.
            console = _stdout(width=_least(cols, keep, split))
    natural = min(table_natural(table), console.width)
    if columns and title and width(title) <= natural:
        table.title = shown(title)  # centred over the table, as psql's
    elif title:
        console.print(shown(title), highlight=False)  # wrapped at words, above the table
    if columns:
        console.print(table)
    if not rows:
        console.print("(0 rows)")
    if footer:
        console.print(shown(footer), highlight=False)


def _printed_plain(
    columns: Sequence[str],
    rows: Sequence[Sequence[object]],
    title: str | None,
    footer: str | None,
) -> bool:
    """Print the table without rich where toolex.cli.plain_table can write what rich would
    (stdout not a terminal, printable ASCII, a table that fits); whether it did."""
    import sys

    from toolex.cli.plain_table import framed, plain_table, plain_width

    room = plain_width()
    if room is None:
        return False
    cells = [[v if isinstance(v, str) else cell(v) for v in row] for row in rows]
    right = [numeric([row[i] for row in rows]) for i in range(len(columns))]
    table = plain_table(columns, cells, right, room)
    text = None if table is None else framed(table, title, footer, room)
    if text is None:
        return False
    sys.stdout.write(text)  # as rich writes: a broken pipe is a BrokenPipeError here too
    sys.stdout.flush()
    return True


def echo_note(text: str) -> None:
    """A note that goes with a table (what † means, how a layout reads), on stdout, wrapped at
    words to the terminal as the table is."""
    import textwrap

    import click

    from toolex.printable import printable

    room = terminal_width()
    for paragraph in printable(text, newlines=True).split("\n"):
        click.echo(textwrap.fill(paragraph, room, break_on_hyphens=False) if paragraph else "")


def table_natural(table: Table) -> int:
    from rich.console import Console

    return Console(width=100_000).measure(table).maximum


def cell_value(value: object) -> object:
    """A value as a table holds it: a timestamp to the second (its microseconds are noise on a
    screen; CSV and JSON carry them)."""
    import datetime as dt

    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ", timespec="seconds")
    return value


__all__ = ["SHORT_TEXT", "cell", "echo_note", "print_table", "table_width", "terminal_width"]
