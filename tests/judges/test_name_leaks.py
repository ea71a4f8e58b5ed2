"""Issue 15: the name-leak check judges names as a person would. Identifiers and multi-word
names leak; a dictionary word that happens to be an item id does not, nor does a name the
request itself uses (another slot's platform named in the query, say)."""

from __future__ import annotations

from toolex.judges.base import DecomposeTask, SubQuery, ToolDoc
from toolex.judges.parse import leaked_names
from toolex.pipeline.decompose import check
from toolex.tooldoc.fields import name_leak

SEARCH = ToolDoc("search", "search", None, {"name": "search"}, "")
SOCCER = ToolDoc(
    "Soccer Sports Open Data::match list", "match list", "Soccer Sports Open Data", {}, ""
)
WEATHER = ToolDoc("weather_api::get_forecast", "get_forecast", "weather_api", {}, "")


def test_an_item_id_that_is_a_dictionary_word_is_not_a_leak() -> None:
    assert name_leak("search the web for cheap flights", "search", ["search"]) is None
    assert leaked_names("search the web for cheap flights", [SEARCH]) == []


def test_identifiers_and_long_names_still_leak() -> None:
    assert name_leak("call get_forecast for Lyon", WEATHER.item_id, ["get_forecast"]) == (
        "get_forecast"
    )
    assert name_leak("use weather_api::get_forecast", WEATHER.item_id, []) is not None
    phrase = "list matches from soccer sports open data"
    assert name_leak(phrase, SOCCER.item_id, [], [SOCCER.platform]) == SOCCER.platform
    assert leaked_names("use the get forecast endpoint", [WEATHER]) == ["get_forecast"]


def test_a_name_the_request_uses_is_not_a_leak() -> None:
    request = "With Soccer Sports Open Data, list today's matches and the weather in Lyon"
    phrase = "list matches from soccer sports open data"
    assert name_leak(phrase, SOCCER.item_id, [], [SOCCER.platform], request=request) is None
    assert leaked_names(phrase, [SOCCER], request) == []


def test_the_decompose_stage_passes_another_slots_platform_the_query_names() -> None:
    task = DecomposeTask(
        "q",
        "Find matches on Soccer Sports Open Data, then the forecast for the stadium's city",
        None,
        (SOCCER, WEATHER),
    )
    subs = [
        SubQuery(0, "List today's matches on soccer sports open data", "list", "matches",
                 SOCCER.item_id),
        SubQuery(1, "Get the weather forecast for a city", "get", "forecast", WEATHER.item_id),
    ]  # fmt: skip
    assert check(task, subs) is None
    leaky = [subs[0], SubQuery(1, "call get_forecast for the city", "get", "x", WEATHER.item_id)]
    assert "get_forecast" in (check(task, leaky) or "")
