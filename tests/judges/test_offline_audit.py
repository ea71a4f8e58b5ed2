"""The offline audit checks what only a whole combination can get wrong: the request's named
requirements and the loaded hand-offs; an unchanged slot is never the reason to reject."""

from __future__ import annotations

from judges.docs import required, tool
from toolex.judges.base import AuditTask, Handoff, ToolDoc
from toolex.judges.offline_audit import audit

LOGIN = tool(
    "Shop::login",
    "login",
    "Log in a shop user.",
    "Shop",
    required_parameters=required("username", "password"),
    template_response={"token": "str"},
)
ORDERS = tool(
    "Shop::orders",
    "orders",
    "List the orders of the logged-in user.",
    "Shop",
    required_parameters=required("token"),
    template_response={"orders": "list"},
)
ORDERS_ELSEWHERE = tool(
    "Mall::orders",
    "orders",
    "List the orders of the logged-in user.",
    "Mall",
    required_parameters=required("token"),
    template_response={"orders": "list"},
)
LOGIN_ELSEWHERE = tool(
    "Mall::login",
    "login",
    "Log in a mall user.",
    "Mall",
    required_parameters=required("username", "password"),
    template_response={"token": "str"},
)
LOGIN_NO_TOKEN = tool(
    "Hub::login",
    "login",
    "Log in a user.",
    "Hub",
    required_parameters=required("username"),
    template_response={"status": "str"},
)
WEATHER_PARIS = tool(
    "Meteo::forecast", "forecast", "Weather forecast for cities in France, Paris included.", "Meteo"
)
WEATHER_ANY = tool("Wx::forecast", "forecast", "Weather forecast for a city.", "Wx")
SUBS = ("Log in the user", "List my orders")
CHAIN = (Handoff(0, 1, "token"),)


def task(
    tools: tuple[ToolDoc, ToolDoc] | tuple[ToolDoc],
    reference: tuple[ToolDoc, ToolDoc] | tuple[ToolDoc],
    handoffs: tuple[Handoff, ...] = (),
    query: str = "Log in and list my orders",
    subs: tuple[str] | tuple[str, str] = SUBS,
) -> AuditTask:
    return AuditTask("q/1", query, None, subs, tuple(tools), tuple(reference), tuple(handoffs))


def test_the_original_combination_is_valid_as_it_stands() -> None:
    v = audit(task((LOGIN, ORDERS), (LOGIN, ORDERS), CHAIN))
    assert v.accepted and v.reason == "the original combination: nothing replaced"


def test_a_hand_off_split_across_platforms_is_rejected_with_the_value_named() -> None:
    v = audit(task((LOGIN, ORDERS_ELSEWHERE), (LOGIN, ORDERS), CHAIN))
    assert not v.accepted
    assert v.reason == "step 2 takes the token from step 1, but they now run on 'Shop' and 'Mall'"


def test_replacing_both_ends_on_one_other_platform_holds_and_says_it_was_checked() -> None:
    v = audit(task((LOGIN_ELSEWHERE, ORDERS_ELSEWHERE), (LOGIN, ORDERS), CHAIN))
    assert v.accepted
    assert v.reason == (
        "replaced step(s) 1, 2; the request's named requirements stay covered; "
        "1 explicit hand-off(s) of replaced steps hold"
    )


def test_a_producer_that_documents_no_value_to_hand_over_breaks_the_chain() -> None:
    v = audit(task((LOGIN_NO_TOKEN, ORDERS), (LOGIN, ORDERS), CHAIN))
    assert not v.accepted
    assert v.reason == "step 1 (Hub::login) documents no 'token' to hand to step 2"


def test_without_loaded_hand_offs_nothing_is_claimed_about_them() -> None:
    v = audit(task((LOGIN, ORDERS_ELSEWHERE), (LOGIN, ORDERS)))
    assert v.accepted and v.reason.endswith("no explicit hand-off touches a replaced step")


def test_a_named_requirement_only_the_original_covers_is_lost() -> None:
    one = ("Get the weather forecast for Paris",)
    query = "What is the weather in Paris tomorrow?"
    lost = audit(task((WEATHER_ANY,), (WEATHER_PARIS,), query=query, subs=one))
    assert not lost.accepted
    assert lost.reason == (
        "replacing step(s) 1 loses what the request names and the original covers: Paris"
    )
    # the same request kept by an unchanged slot in a two-step combination: never the reason
    both = ("Get the weather forecast for Paris", "List my orders")
    kept = audit(
        task(
            (WEATHER_PARIS, ORDERS_ELSEWHERE),
            (WEATHER_PARIS, ORDERS),
            query=query + " And list my orders.",
            subs=both,
        )
    )
    assert kept.accepted


# -- it rejects only for what it can show (issue 32) ---------------------------------------

STANDINGS = tool(
    "Soccer::standings",
    "getSoccerTeamStandings",
    "Retrieve the standings of soccer teams in a league",
    "Soccer",
    parameters={
        "league": {
            "type": "str",
            "description": "The soccer league (e.g., Premier League, Bundesliga, Ligue 1)",
        },
        "season": {"type": "str", "description": "The season", "default": "Serie A 2021"},
    },
)
TABLE = tool(
    "Football::table",
    "getLeagueTable",
    "Retrieve the current league table for a soccer league",
    "Football",
    parameters={"league_name": {"type": "str", "description": "The name of the league"}},
)
PREMIER_ONLY = tool(
    "Premier::standings",
    "premierStandings",
    "Standings of the Premier League, the top English football league",
    "Premier",
)


def one_step(query: str, tools: tuple[ToolDoc], reference: tuple[ToolDoc]) -> AuditTask:
    return AuditTask("q/1", query, None, (query,), tuple(tools), tuple(reference), ())


def test_a_name_the_reference_gives_only_as_an_example_is_no_requirement() -> None:
    query = "Show me the standings of the Premier League"
    assert audit(one_step(query, (TABLE,), (STANDINGS,))).accepted  # "e.g., Premier League"
    assert audit(one_step("Standings of Serie A", (TABLE,), (STANDINGS,))).accepted  # a default
    lost = audit(one_step(query, (TABLE,), (PREMIER_ONLY,)))  # its description names it
    assert not lost.accepted and lost.reason.endswith("covers: Premier League")


def test_an_argument_s_example_value_and_example_code_are_no_requirement() -> None:
    german = tool(
        "hf::zero-shot-de",
        "German zero-shot classification",
        "Classifies German text into the labels you give.",
        api_arguments={"sequence_to_classify": "Angela Merkel ist Politikerin in Deutschland"},
        example_code="classifier('Vorsitzende der CDU in Deutschland', labels)",
    )
    other = tool("hf::zero-shot", "Zero-shot classification", "Classifies text into labels.")
    query = "Classify the sentence 'Die Wahl in Deutschland war knapp' into news categories."
    assert audit(one_step(query, (other,), (german,))).accepted


ROUTES = tool(
    "Air::routes",
    "airportRoutes",
    "Nonstop routes from an airport, filtered by airline",
    "Air",
    parameters={
        "airport": {"type": "str", "description": "The airport IATA code"},
        "airline": {"type": "str", "description": "The airline IATA code"},
    },
)
ROUTES_ELSEWHERE = tool(
    "Flights::routes",
    "directRoutes",
    "Direct routes of an airport; filter them with the IATA code of one airline",
    "Flights",
    parameters={"iata": {"type": "str", "description": "IATA code of the airport"}},
)


def test_the_same_substitution_gets_the_same_verdict_whatever_the_case() -> None:
    verdicts = [
        audit(one_step(q, (ROUTES_ELSEWHERE,), (ROUTES,)))
        for q in (
            "List the nonstop routes from JFK for the Airline IATA Code 'BA'",
            "List the nonstop routes from JFK for the airline IATA code 'BA'",
        )
    ]
    assert [v.accepted for v in verdicts] == [True, True]
    assert verdicts[0].reason == verdicts[1].reason
