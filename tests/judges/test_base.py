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


def test_a_tool_keeps_its_values_and_a_pickle_or_copy_leaves_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """per_tool keeps each value in the ToolDoc too (one lookup a hit); a pickled or copied
    ToolDoc is the document alone, equal to the original; no more than the limit of tools keep
    values at once."""
    import copy
    import pickle

    calls = []

    @per_tool
    def words(tool: ToolDoc) -> frozenset[str]:
        calls.append(tool.item_id)
        return frozenset(tool.text.split())

    tool = _tool("k", "get weather")
    a = words(tool)
    assert words(tool) is a and calls == ["k"]
    kept = [k for k in tool.__dict__ if k.startswith(base._MEMO)]
    assert len(kept) == 2  # the value, and the mark that the tool holds some
    for other in (pickle.loads(pickle.dumps(tool)), copy.copy(tool)):
        assert other == tool and other.__dict__.keys() == tool.__getstate__().keys()
        assert not any(k.startswith(base._MEMO) for k in other.__dict__)
    monkeypatch.setattr(base, "_PER_TOOL_LIMIT", 2)
    base.forget_kept()
    tools = [_tool(f"t{i}", "x y") for i in range(5)]
    for t in tools:
        words(t)
    holding = [t for t in tools if base._MEMO in t.__dict__]
    assert 1 <= len(holding) <= 2 and len(base._HOLDERS) == len(holding)
    assert words(tools[0]) == {"x", "y"}
