"""Cell formatting shared by the tables: short, aligned, styled by meaning.

Widths are terminal cells, not characters (rich.cells.cell_len): a CJK letter or an emoji takes
two, so a name clipped by characters overflowed its column and lost its last letter with no
"…" (issue 35.19). Text from data is shown as itself: control, bidi and invisible characters as
escapes (toolex.printable), and never read as markup (ListTable turns a text cell into
``rich.text.Text``)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from toolex.printable import printable

ELLIPSIS = "…"

STATUS_STYLE = {
    "valid": "bold green",
    "rejected_audit": "red",
    "rejected_platform": "magenta",
    "cut": "dim",
    "pending": "yellow",
}


def escaped(value: object) -> str:
    """Text from data inside a markup string (``f"[b]{escaped(name)}[/b]"``): its ``[`` never
    read as a tag, its unshown characters written as escapes; its line breaks stay."""
    from rich.markup import escape

    return escape(printable(str(value), newlines=True))


def one_line(value: object) -> str:
    """``value`` as one line of text shown as itself: runs of whitespace as one space, every
    character the terminal would obey or hide escaped."""
    return printable(" ".join(str(value).split())) if value is not None else ""


def _head(text: str, cells: int) -> str:
    """The longest start of ``text`` that takes at most ``cells`` cells."""
    out, used = [], 0
    for ch in text:
        used += cell_len(ch)
        if used > cells:
            break
        out.append(ch)
    return "".join(out)


def _tail(text: str, cells: int) -> str:
    """The longest end of ``text`` that takes at most ``cells`` cells."""
    return _head(text[::-1], cells)[::-1]


def clip(value: object, width: int) -> str:
    """One line of at most ``width`` cells (tables never wrap), ending in "…" when cut."""
    text = one_line(value)
    if cell_len(text) <= width:
        return text
    return _head(text, max(width - 1, 0)) + ELLIPSIS if width > 0 else ""


def clip_id(value: object, width: int) -> str:
    """An id in at most ``width`` cells, cut in the middle: ids of one benchmark share their
    start (``G1_instruction:1…``) and differ at the end, which must stay visible."""
    text = printable(shown(value))
    if cell_len(text) <= width:
        return text
    head = max((width - 1) // 3, 1)
    start = _head(text, head)
    return start + ELLIPSIS + _tail(text, max(width - 1 - cell_len(start), 0))


def item_name(item_id: str, name: str | None) -> str | None:
    """The name to show beside an item's id, or None where the id already says it: ToolRet's
    ids are opaque (``apigen_tool_509``, named ``std_deviation``; issue 25.9), while a
    StableToolBench id holds its API's name (``OTT details::New Arrivals``)."""
    name = " ".join((name or "").split())
    if not name or name.lower() in item_id.lower():
        return None
    return name


def item_label(item_id: str, name: str | None, width: int | None = None) -> str:
    """An item as the tables show it: its id, then `` · `` and its name (:func:`item_name`),
    in at most ``width`` cells: the name is clipped first, and the id is cut (in the middle,
    :func:`clip_id`) only when it alone does not fit."""
    extra = item_name(item_id, name)
    shown_id = printable(item_id)
    text = shown_id if extra is None else f"{shown_id} · {one_line(extra)}"
    if width is None or cell_len(text) <= width:
        return text
    room = width - cell_len(shown_id) - 3
    if extra is not None and room >= 4:  # a few letters of the name tell more than none
        return f"{shown_id} · {clip(extra, room)}"
    return clip_id(item_id, width)


def shown(value: object, empty: str = "–") -> str:
    """A value as the UI writes it: never Python's ``None``."""
    return empty if value is None else str(value)


def num(value: object, digits: int = 2) -> Text:
    if value is None:
        return Text("–", style="dim", justify="right")
    if isinstance(value, float):
        return Text(f"{value:.{digits}f}", justify="right")
    return Text(str(value), justify="right")


def verdict(accepted: bool | None, is_reference: bool) -> Text:
    if is_reference:
        return Text("REF", style="bold cyan")
    if accepted is None:
        return Text("?", style="yellow")
    return Text("yes", style="bold green") if accepted else Text("no", style="red")


def status(value: str | None) -> Text:
    return Text(value or "", style=STATUS_STYLE.get(value or "", ""))


def accented(text: str, on: bool) -> Text:
    """Highlight a whole row's text cell (accepted candidates, valid combinations)."""
    return Text(text, style="bold green" if on else "")


def gain(pair: tuple[float, float] | tuple[None, None] | None) -> Text:
    """'old→new', green when the expansion raised the score."""
    if not pair or pair[0] is None:
        return Text("–", style="dim")
    old, new = pair
    return Text(f"{old:.2f}→{new:.2f}", style="green" if new > old else "")
