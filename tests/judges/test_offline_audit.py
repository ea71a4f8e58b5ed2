"""The offline audit checks what only a whole combination can get wrong: the request's named
requirements and the loaded hand-offs; an unchanged slot is never the reason to reject."""

from __future__ import annotations

from docs import required, tool
from toolex.judges.base import AuditTask, Handoff
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


def task(tools, reference, handoffs=(), query="Log in and list my orders", subs=SUBS):
    return AuditTask("q/1", query, None, subs, tuple(tools), tuple(reference), tuple(handoffs))


def test_the_original_combination_is_valid_as_it_stands():
    v = audit(task((LOGIN, ORDERS), (LOGIN, ORDERS), CHAIN))
    assert v.accepted and v.reason == "the original combination: nothing replaced"


def test_a_hand_off_split_across_platforms_is_rejected_with_the_value_named():
    v = audit(task((LOGIN, ORDERS_ELSEWHERE), (LOGIN, ORDERS), CHAIN))
    assert not v.accepted
    assert v.reason == "step 2 takes the token from step 1, but they now run on 'Shop' and 'Mall'"


def test_replacing_both_ends_on_one_other_platform_holds_and_says_it_was_checked():
    v = audit(task((LOGIN_ELSEWHERE, ORDERS_ELSEWHERE), (LOGIN, ORDERS), CHAIN))
    assert v.accepted
    assert v.reason == (
        "replaced step(s) 1, 2; the request's named requirements stay covered; "
        "1 explicit hand-off(s) of replaced steps hold"
    )


def test_a_producer_that_documents_no_value_to_hand_over_breaks_the_chain():
    v = audit(task((LOGIN_NO_TOKEN, ORDERS), (LOGIN, ORDERS), CHAIN))
    assert not v.accepted
    assert v.reason == "step 1 (Hub::login) documents no 'token' to hand to step 2"


def test_without_loaded_hand_offs_nothing_is_claimed_about_them():
    v = audit(task((LOGIN, ORDERS_ELSEWHERE), (LOGIN, ORDERS)))
    assert v.accepted and v.reason.endswith("no explicit hand-off touches a replaced step")


def test_a_named_requirement_only_the_original_covers_is_lost():
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
