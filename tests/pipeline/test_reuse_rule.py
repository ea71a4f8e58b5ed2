"""The same-step rule of verdict reuse (toolex/pipeline/reuse.py), on hand-made sub-queries."""

from __future__ import annotations

import pytest

from toolex.pipeline.reuse import MIN_ENTITY_OVERLAP, groups, overlap, same_step, step_of


def test_a_step_is_the_first_verbs_class_and_the_other_content_words() -> None:
    step = step_of("Fetch the weather forecast for a city")
    assert step.operation == "retrieve"  # fetch, get, list ... are one class
    assert step.entity == frozenset({"weather", "forecast", "city"})
    assert step_of("Drop the users table").operation == "drop"  # a verb of its own class
    assert step_of("weather of Paris").operation is None  # no verb: never reused


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Get the weather forecast for a city", "Fetch the city weather forecast", True),
        ("Get weather forecast city", "Get weather forecast", True),  # 2/3 >= 0.5
        ("Get the weather forecast", "Delete the weather forecast", False),  # other operation
        ("Get the weather forecast", "Get the stock price", False),  # other entity
        ("Get weather", "Get weather forecast city", False),  # 1/3 < 0.5
        ("weather in Paris", "weather in Paris", True),  # the same text is the same step
        ("weather in Paris", "weather for Paris", False),  # no operation: nothing to compare
    ],
)
def test_same_step(a: str, b: str, same: bool) -> None:
    assert same_step(a, b) is same


def test_overlap_is_jaccard() -> None:
    assert overlap(frozenset("ab"), frozenset("bc")) == pytest.approx(1 / 3)
    assert overlap(frozenset(), frozenset()) == 0.0
    assert MIN_ENTITY_OVERLAP == 0.5


def test_groups_point_each_sub_query_at_the_first_it_may_reuse() -> None:
    subs = [
        "Get weather forecast city",
        "Get stock price",
        "Fetch city weather forecast",
        "Retrieve stock price quote",
    ]
    # leaders are judged; not transitive: each follower matches its leader itself
    assert groups(subs) == [0, 1, 0, 1]
