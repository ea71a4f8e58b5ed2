"""The offline audit's reason claims only the checks that ran (issue 14): a hand-off between
tools without a platform is reported unchecked, never as "sharing a platform"."""

from __future__ import annotations

import pytest

from toolex.judges.base import AuditTask, ToolDoc
from toolex.judges.heuristic import HeuristicJudge

LOGIN = {"name": "login", "description": "Log in to the bank.", "template_response": {"token": "s"}}
BALANCE = {
    "name": "balance",
    "description": "Get the bank account balance.",
    "required_parameters": [{"name": "token", "type": "STRING"}],
}
WEATHER = {"name": "weather", "description": "Get the weather forecast for a city."}


def task(platforms, docs):
    tools = tuple(
        ToolDoc(f"t{i}", d["name"], p, d, d["description"])
        for i, (p, d) in enumerate(zip(platforms, docs, strict=True))
    )
    subs = tuple(d["description"] for d in docs)
    return AuditTask("q/1", "log in and get my balance", None, subs, tools)


@pytest.mark.parametrize(
    ("platforms", "docs", "accepted", "reason"),
    [
        ((None, None), (LOGIN, BALANCE), True, "1 hand-off(s) between steps not checked"),
        (("Bank", "Bank"), (LOGIN, BALANCE), True, "dependent steps share a platform"),
        (("Bank", "Other"), (LOGIN, BALANCE), False, "platforms differ"),
        ((None, None), (LOGIN, WEATHER), True, "no step's documented output feeds another"),
    ],
)
def test_the_reason_says_what_was_checked(store, platforms, docs, accepted, reason):
    (outcome,) = HeuristicJudge(store).audit([task(platforms, docs)])
    assert outcome.value.accepted is accepted
    assert reason in outcome.value.reason
