"""Dependency pairs decided from the ground-truth docs."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from toolex.pipeline.platform_rule import dependent_pairs
from toolex.tooldoc.fields import feeds, name_leak, params

LOGIN: dict[str, object] = {
    "name": "login",
    "description": "Log in.",
    "template_response": {"token": "str"},
}
BALANCE: dict[str, object] = {
    "name": "balance",
    "description": "Account balance.",
    "required_parameters": [{"name": "token", "type": "STRING"}],
}
USERS: dict[str, object] = {
    "name": "users",
    "template_response": {"user": {"id": "int", "name": "str"}},
}
ORDERS: dict[str, object] = {"name": "orders", "parameters": {"user_id": {"type": "int"}}}
WEATHER: dict[str, object] = {
    "name": "weather",
    "required_parameters": [{"name": "city", "type": "STRING"}],
}


def test_feeds_needs_a_required_id_like_parameter_the_other_returns() -> None:
    assert feeds(LOGIN, BALANCE) == "requires 'token' returned by the other step"
    assert feeds(USERS, ORDERS) == "requires 'user_id' returned by the other step"
    assert feeds(BALANCE, LOGIN) is None
    assert feeds(LOGIN, WEATHER) is None


def test_dependent_pairs_strict_and_feeds_modes() -> None:
    tools: list[tuple[str | None, Mapping[str, object]]] = [
        ("Bank", LOGIN),
        ("Wx", WEATHER),
        ("Bank2", BALANCE),
        ("Wx", WEATHER),
    ]
    assert dependent_pairs(tools, "strict") == [
        (0, 2, "slot 2 requires 'token' returned by slot 0"),
        (1, 3, "the original uses one platform for both (Wx)"),
    ]
    assert dependent_pairs(tools, "feeds") == [(0, 2, "slot 2 requires 'token' returned by slot 0")]
    with pytest.raises(ValueError):
        dependent_pairs(tools, "loose")


def test_params_read_every_documentation_shape() -> None:
    assert [(p.name, p.required) for p in params(ORDERS)] == [("user_id", True)]
    assert [(p.name, p.required) for p in params({"parameters": "(date: datetime, n: int)"})] == [
        ("date", True),
        ("n", True),
    ]
    apigen = {"parameters": {"q": {"type": "str"}, "lim": {"type": "int", "default": 5}}}
    assert [(p.name, p.required) for p in params(apigen)] == [("q", True), ("lim", False)]


def test_name_leak() -> None:
    assert name_leak("Call get_weather for Paris", "w::1", ["get_weather"]) == "get_weather"
    assert name_leak("Retrieve income for a ZIP code", "z::1", ["ZIP code"], ["US ZIP"]) is None
    rwa = "Random Word API"
    assert name_leak("use the random word api", "rw::x", ["x"], [rwa]) == rwa
    assert name_leak("see apibank_tool_3 now", "apibank_tool_3", []) == "apibank_tool_3"
    name = "Get Word by Length"
    assert name_leak("Get word by length seven", "rw::g", [name]) == name
