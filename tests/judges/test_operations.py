"""Opposite operations and conversions the other way round are never equivalents."""

from __future__ import annotations

from judges.docs import tool
from toolex.judges.operations import (
    conversion,
    direction_conflict,
    language_pair,
    output_conflict,
    sibling_operation_conflict,
    verbs,
)


def test_verbs_come_from_the_name_and_the_description_gerunds_included() -> None:
    closing = tool("a", "get_closing_parenthesis", "Returns the closing parenthesis.")
    assert verbs(closing) == {"close"}
    assert verbs(tool("b", "Weather", "Fetches the weather of a city.")) == {"fetch"}


def test_inverse_operations_conflict_whichever_side_is_which() -> None:
    create = tool("c", "createUser", "Create a user account.")
    delete = tool("d", "deleteUser", "Delete a user account.")
    assert "opposite operations" in (direction_conflict(create, delete) or "")
    assert "opposite operations" in (direction_conflict(delete, create) or "")
    add = tool("e", "add_time", "Adds days to a date.")
    subtract = tool("f", "subtract_time", "Subtracts days from a date.")
    assert direction_conflict(add, subtract)
    # the same operation from another provider is no conflict
    other = tool("g", "remove_account", "Delete an account of a user.")
    assert direction_conflict(other, delete) is None


def test_a_conversion_the_other_way_round_or_to_another_target_conflicts() -> None:
    assert conversion(tool("a", "date_to_time", "")) == ("date", "time")
    assert conversion(tool("b", "get_city_from_zipcode", "")) == ("zipcode", "city")
    reverse = direction_conflict(tool("b", "time_to_date", ""), tool("a", "date_to_time", ""))
    assert reverse and "another conversion" in reverse
    celsius_f = tool("c", "Temperature", "Converts celsius to fahrenheit.")
    celsius_k = tool("d", "Temperature", "Converts celsius to kelvin.")
    assert direction_conflict(celsius_k, celsius_f)
    # two ways to identify one target (weather by city / by coordinates) are no conflict
    by_city = tool("e", "weather_by_city", "")
    by_coordinates = tool("f", "weather_by_coordinates", "")
    assert direction_conflict(by_city, by_coordinates) is None


def test_a_translation_model_the_other_way_round_conflicts() -> None:
    fr_en = tool("a", "Helsinki-NLP/opus-mt-fr-en", "Translation model.")
    en_fr = tool("b", "Helsinki-NLP/opus-mt-en-fr", "Translation model.")
    assert language_pair(fr_en) == ("fr", "en")
    assert "language pair" in (direction_conflict(en_fr, fr_en) or "")
    assert direction_conflict(fr_en, tool("c", "opus-mt-fr-en-big", "Translation.")) is None


def test_two_endpoints_of_one_provider_naming_two_operations_conflict() -> None:
    gen, count = tool("g", "generate_primes", "Primes in a range."), tool("c", "count_primes")
    assert "'generate'" in (sibling_operation_conflict(count, gen) or "")
    bank = "API-Bank"
    opened = tool("o", "OpenBankAccount", "Opens an account.", bank)
    assert sibling_operation_conflict(tool("m", "ModifyBankAccount", "", bank), opened)
    # reading verbs are one operation; so are "calculate" and "find" of one object
    assert (
        sibling_operation_conflict(
            tool("f", "Fetch Orders", "", "Shop"), tool("r", "Get Orders", "", "Shop")
        )
        is None
    )
    assert (
        sibling_operation_conflict(tool("f", "find_median"), tool("c", "calculate_median")) is None
    )
    # across providers, and between model checkpoints, names are not read this way
    assert sibling_operation_conflict(tool("m", "ModifyBankAccount", "", "Other"), opened) is None
    assert (
        sibling_operation_conflict(tool("a", "org/count-model"), tool("b", "org/generate-model"))
        is None
    )


def test_a_classifier_never_stands_in_for_a_regression_model() -> None:
    card = {"api_call": "joblib.load('model.joblib')"}
    clf = tool(
        "c",
        "a/clf",
        "Multi-class Classification Model",
        domain="Tabular Tabular Classification",
        **card,
    )
    reg = tool(
        "r", "b/reg", "Single column regression", domain="Tabular Tabular Regression", **card
    )
    assert "regression" in (output_conflict(clf, reg) or "")
    assert (
        output_conflict(
            tool(
                "c2",
                "c/clf",
                "Binary Classification",
                domain="Tabular Tabular Classification",
                **card,
            ),
            clf,
        )
        is None
    )
