"""toolex.judges.base.per_tool: one computation per documentation, keyed by item id and text."""

from __future__ import annotations

import pytest

from toolex.judges import base
from toolex.judges.base import ToolDoc, per_tool


def _tool(item_id: str, text: str) -> ToolDoc:
    return ToolDoc(item_id, item_id, None, {"name": item_id}, text)


def test_per_tool_computes_once_per_item_and_text(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    @per_tool
    def words(tool: ToolDoc) -> frozenset[str]:
        calls.append((tool.item_id, tool.text))
        return frozenset(tool.text.split())

    a = words(_tool("a", "get weather"))
    assert words(_tool("a", "get weather")) is a  # another ToolDoc, the same documentation
    assert words(_tool("a", "get the weather")) == {"get", "the", "weather"}  # re-rendered
    assert words(_tool("b", "get weather")) == a  # another item: its own entry
    assert calls == [("a", "get weather"), ("a", "get the weather"), ("b", "get weather")]
    monkeypatch.setattr(base, "_PER_TOOL_LIMIT", 3)  # full: the memo starts over, never grows
    words(_tool("c", "x"))
    assert words(_tool("a", "get weather")) == a
    assert calls[-2:] == [("c", "x"), ("a", "get weather")]
