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
