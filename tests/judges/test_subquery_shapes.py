"""Issue 32: offline sub-queries follow Stage 1 on every library shape. On the three shapes
nobody here had seen (tests/judges/library_shapes.py and plain_shapes.py), no sub-query of a
multi-tool query is the whole request, none reads a response's field names, none holds another
step's values, and each keeps its own step's values; the three counts are those
benchmarks/subquery_quality.py prints (toolex/judges/step_faults.py), and each is shown to fire
on the faults the issue measured."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from judges.docs import required, tool
from judges.library_shapes import decomposed, rapidapi_beir
from judges.plain_shapes import generated, plugins
from toolex.judges.base import DecomposeTask, SubQuery
from toolex.judges.step_faults import faults
from toolex.judges.step_text import leak
from toolex.store import Store


@pytest.fixture(scope="module")
def libraries(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, dict[str, tuple[DecomposeTask, list[SubQuery]]]]]:
    root = tmp_path_factory.mktemp("shapes")
    with Store.open(str(root / "shapes.duckdb")) as store:
        out = {}
        for make in (rapidapi_beir, generated, plugins):
            bench = make(root / make.__name__, store)
            out[bench.name] = decomposed(store, bench)
        yield out


@pytest.mark.parametrize("library", ["rapidapi", "generated", "plugins"])
def test_no_whole_request_no_response_keys_no_other_steps_values(
    libraries: dict[str, dict[str, tuple[DecomposeTask, list[SubQuery]]]], library: str
) -> None:
    decomposed = libraries[library]
    assert decomposed  # every query of the library was decomposed
    for task, subs in decomposed.values():
        assert len(subs) == len(task.tools)
        for s, f in zip(subs, faults(task.query, subs, task.tools), strict=True):
            where = f"{task.key} slot {s.slot}: {s.text!r}"
            assert not f.whole_request, where
            assert not f.response_keys, where
            assert not f.other_values, where
            assert s.text.strip() and s.entity, where
            assert leak(s.text, task.tools, task.query) is None, where
        assert len({s.text for s in subs}) == len(subs), task.key  # one step each


def texts(
    libraries: dict[str, dict[str, tuple[DecomposeTask, list[SubQuery]]]], library: str, key: str
) -> list[Any]:
    return [s.text for s in libraries[library][key][1]]


def test_each_step_keeps_its_own_values_and_only_those(
    libraries: dict[str, dict[str, tuple[DecomposeTask, list[SubQuery]]]],
) -> None:
    speech, sms, parcel, vitals = texts(libraries, "generated", "g3")
    assert "'Good morning, team'" in speech and "5550001234" not in speech
    assert "'5550001234'" in sms and "'Running late'" in sms and "XY789" not in sms
    assert "'XY789'" in parcel and "'DHL'" in parcel and "English" in parcel
    assert "'P4471'" in vitals and "DHL" not in vitals
    checkout, film, image = texts(libraries, "generated", "g1")
    assert "Emily Johnson" in checkout and "December 31, 2022" in checkout
    assert "Titanic" in film and "Emily" not in film and "Emily" not in image


def test_a_lower_case_request_is_cut_into_its_sentences(
    libraries: dict[str, dict[str, tuple[DecomposeTask, list[SubQuery]]]],
) -> None:
    team, schedule, box = texts(libraries, "rapidapi", "q3")
    assert team == "Give the team info for the team with the id 18"
    assert schedule == "Get the schedule for may 5, 2022"
    assert box == "Get the box score of the game 401244185"


def test_an_ask_that_points_back_is_split_by_the_list_it_points_to(
    libraries: dict[str, dict[str, tuple[DecomposeTask, list[SubQuery]]]],
) -> None:
    assert texts(libraries, "rapidapi", "q5") == [
        "Get the historical performance of the AUD/NZD pair",
        "Get options for the QQQ ETF",
    ]


def test_a_list_s_shared_tail_stays_with_every_item(
    libraries: dict[str, dict[str, tuple[DecomposeTask, list[SubQuery]]]],
) -> None:
    assert texts(libraries, "rapidapi", "q6") == [
        "What is the ZIP code of the IP address 8.8.8.8",
        "What is the latitude and longitude coordinates of the IP address 8.8.8.8",
    ]


def test_a_step_the_request_never_names_is_the_tools_own_step(
    libraries: dict[str, dict[str, tuple[DecomposeTask, list[SubQuery]]]],
) -> None:
    locations, hotels, weather = texts(libraries, "rapidapi", "q1")
    assert locations.startswith("Search") and "dest" not in locations  # no response keys
    assert "Paris" in locations and "Eiffel Tower" not in locations  # context, not a step's
    file, link = texts(libraries, "rapidapi", "q2")
    assert "'design.vsdx'" in file and "request" not in file and "error" not in file
    assert "download link" in link and "design.vsdx" not in link


def test_a_plugin_request_is_its_one_step_with_its_values(
    libraries: dict[str, dict[str, tuple[DecomposeTask, list[SubQuery]]]],
) -> None:
    (rain,) = texts(libraries, "plugins", "m1")
    assert rain == "Will it rain in Tokyo this weekend"
    (flight,) = texts(libraries, "plugins", "m3")
    assert "BA 283" in flight and "London" in flight


# -- the three counts fire on the faults the issue measured ---------------------------------

STATUS = tool(
    "wnba::box",
    "WNBA Box Score",
    "",
    "WNBA API",
    required_parameters=required("id"),
    template_response={"success": "bool", "messsage": "str"},
)
TEAM = tool("wnba::team", "WNBA Team Info", "Get the team info", "WNBA API")
FLEET = tool("air::count", "Aircraft Database Stats", "Total number of known aircraft", "Air")
LIVE = tool("air::live", "Live Aircraft by ICAO", "Live position of an aircraft", "Air")


def subs(*texts: str) -> list[SubQuery]:
    return [SubQuery(i, t, None, t, f"t{i}") for i, t in enumerate(texts)]


def test_the_counts_fire_on_a_doc_phrase_before_the_whole_request() -> None:
    request = "Can you give me the team info for the team 18? Also the box score of game 401244185."
    (team, box) = faults(
        request,
        subs("Give the team info for the team 18", f"Get the success and messsage, for: {request}"),
        (TEAM, STATUS),
    )
    assert not team.whole_request and not team.response_keys
    assert box.whole_request and box.response_keys == ("success", "messsage")


def test_the_counts_fire_on_another_step_s_values_but_not_on_context() -> None:
    request = (
        "I'm a flight enthusiast from Paris. I want to know the live position of the aircraft "
        "with the ICAO code 'ABCD'. Can you fetch this information? Also, give me the total "
        "number of known aircraft."
    )
    live, fleet = faults(
        request,
        subs(
            "Fetch the live position of the aircraft with the ICAO code 'ABCD'",
            "Give the total number of known aircraft (about: 'ABCD', Paris)",
        ),
        (LIVE, FLEET),
    )
    assert live.other_values == ()
    assert fleet.other_values == ("'ABCD'",)  # Paris is the request's context: every step's
