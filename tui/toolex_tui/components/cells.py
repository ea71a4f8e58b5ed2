"""Cell formatting shared by the tables: short, aligned, styled by meaning."""

from __future__ import annotations

from typing import Any

from rich.text import Text

STATUS_STYLE = {
    "valid": "bold green",
    "rejected_audit": "red",
    "rejected_platform": "magenta",
    "cut": "dim",
    "pending": "yellow",
}


def clip(value: Any, width: int) -> str:
    """One line of at most ``width`` characters (tables never wrap)."""
    text = "" if value is None else " ".join(str(value).split())
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def clip_id(value: Any, width: int) -> str:
    """An id in at most ``width`` characters, cut in the middle: ids of one benchmark share their
    start (``G1_instruction:1…``) and differ at the end, which must stay visible."""
    text = shown(value)
    if len(text) <= width:
        return text
    head = max((width - 1) // 3, 1)
    return text[:head] + "…" + text[len(text) - (width - 1 - head) :]


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
    in at most ``width`` characters: the name is clipped first, and the id is cut (in the
    middle, :func:`clip_id`) only when it alone does not fit."""
    extra = item_name(item_id, name)
    text = item_id if extra is None else f"{item_id} · {extra}"
    if width is None or len(text) <= width:
        return text
    room = width - len(item_id) - 3
    if extra is not None and room >= 4:  # a few letters of the name tell more than none
        return f"{item_id} · {clip(extra, room)}"
    return clip_id(item_id, width)


def shown(value: Any, empty: str = "–") -> str:
    """A value as the UI writes it: never Python's ``None``."""
    return empty if value is None else str(value)


def num(value: Any, digits: int = 2) -> Text:
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
