"""The JSON paths of `load plain --map`: what each form finds, and what it refuses."""

from __future__ import annotations

import pytest

from toolex.loaders.jsonpath import MISSING, PathError, locate, parse, parse_path, resolve

TOOL = {
    "tool_name": "Weather Pro",
    "function": {"name": "current", "args": ["city", "units"]},
    "a.b": 1,
    "relevant APIs": [["Weather Pro", "current"], ["Mailer", "send"]],
    "steps": [{"task": "get", "dep": [-1]}, {"task": "send", "dep": [0]}],
    "empty": None,
}


@pytest.mark.parametrize(
    ("path", "found"),
    [
        ("tool_name", "Weather Pro"),
        ("function.name", "current"),
        ("$.function.name", "current"),
        ("function.args[1]", "units"),
        ("function.args[-1]", "units"),
        ('["a.b"]', 1),
        ("relevant APIs[1][0]", "Mailer"),
        ("steps[*].task", ["get", "send"]),
        ("steps[*].dep[0]", [-1, 0]),
        ("relevant APIs[*][1]", ["current", "send"]),
        ("{tool_name}::{function.name}", "Weather Pro::current"),
        ("{{{tool_name}}}", "{Weather Pro}"),
        ("missing", MISSING),
        ("function.missing", MISSING),
        ("empty", MISSING),
        ("empty.deeper", MISSING),
        ("function.args[5]", MISSING),
        ("{tool_name}::{missing}", MISSING),
    ],
)
def test_a_path_finds_what_it_names(path: str, found: object) -> None:
    assert resolve(parse(path), TOOL) == found


def test_the_record_itself_and_its_enclosing_records() -> None:
    api = {"name": "current"}
    assert resolve(parse("$"), api) is api
    assert resolve(parse("^.tool_name"), api, (TOOL,)) == "Weather Pro"
    assert resolve(parse("^tool_name"), api, (TOOL,)) == "Weather Pro"
    assert resolve(parse("^^.x"), api, ({"x": 1}, TOOL)) == 1
    assert resolve(parse("{^.tool_name}::{name}"), api, (TOOL,)) == "Weather Pro::current"
    with pytest.raises(PathError, match="climbs 2 level"):
        resolve(parse("^^.x"), api, (TOOL,))


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("tool_name[*]", "[*] needs a list at tool_name, found a string"),
        ("function[0]", "[0] needs a list at function, found an object"),
        ("tool_name.x", "'x' needs an object at tool_name, found a string"),
        ("steps[*].missing", "steps[0] has no 'missing'"),
        ("{function}", "{function} is an object, not a string or a number"),
    ],
)
def test_a_path_that_does_not_fit_the_record_says_where(path: str, message: str) -> None:
    with pytest.raises(PathError) as info:
        resolve(parse(path), TOOL)
    assert str(info.value) == message


@pytest.mark.parametrize("text", ["", "  ", "a[", "a[x]", "a]b", "a[0]b", "{a", "a}", "{x[*]}"])
def test_unreadable_paths_are_refused(text: str) -> None:
    with pytest.raises(PathError):
        parse(text)


def test_locate_gives_each_nested_record_its_position_and_enclosing_records() -> None:
    top = {"tools": [{"tool_name": "A", "apis": [{"n": 1}, {"n": 2}]},
                     {"tool_name": "B", "apis": [{"n": 3}]}]}  # fmt: skip
    found = locate(parse_path("tools[*].apis"), top)
    names = [[a.get("tool_name") for a in chain if isinstance(a, dict)] for _, _, chain in found]
    records = [rec for rec, _, _ in found if isinstance(rec, dict)]
    assert [
        (rec["n"], at, n) for rec, (_, at, _), n in zip(records, found, names, strict=True)
    ] == [
        (1, "tools[0].apis[0]", [None, "A"]),
        (2, "tools[0].apis[1]", [None, "A"]),
        (3, "tools[1].apis[0]", [None, "B"]),
    ]
    assert locate(parse_path("tools[*].apis[*]"), top)[2][1] == "tools[1].apis[0]"
    nodes = locate(parse_path("nodes"), {"nodes": [{"id": "x"}]})
    assert nodes == [({"id": "x"}, "nodes[0]", ({"nodes": [{"id": "x"}]},))]
    function = locate(parse_path("function"), TOOL)[0][0]
    assert isinstance(function, dict) and function["name"] == "current"
    assert locate(parse_path("absent"), TOOL) == []
