"""Inputs a step can give: payloads always, ids only when someone holds them, settings only when
the candidate takes them."""

from __future__ import annotations

from judges.docs import required, tool
from toolex.judges.inputs import (
    handle_conflict,
    is_handle,
    is_payload,
    missing_inputs,
    step_param_missing,
)


def test_payloads_handles_and_public_identifiers_are_told_apart() -> None:
    assert is_payload("text") and is_payload("data") and is_payload("input_ids")
    assert is_handle("user_id") and is_handle("station_code") and is_handle("token")
    assert not is_handle("isbn") and not is_handle("email") and not is_handle("country_code")


def test_a_payload_is_always_supplied_and_an_unknown_handle_is_missing() -> None:
    ref = tool("r", "QR", "QR code from a URL.", required_parameters=required("url"))
    cand = tool("c", "QR", "QR code from text.", required_parameters=required("text"))
    assert missing_inputs(cand, ref, {"qr", "code"}) == []
    keyed = tool("k", "Forecast", "Forecast.", required_parameters=required("city", "station_code"))
    forecast = tool("f", "Forecast", "Forecast.", required_parameters=required("city"))
    assert missing_inputs(keyed, forecast, {"weather", "pari"}) == ["station_code"]


def test_an_id_the_request_writes_does_not_travel_to_another_platform() -> None:
    ref = tool(
        "r", "Product", "Product details.", "Amazon", required_parameters=required("product_id")
    )
    cand = tool(
        "c", "Product", "Product details.", "AliExpress", required_parameters=required("item_id")
    )
    assert handle_conflict(cand, ref, "Details of the product with ID B08N5WG761")
    # no id in the request: the dependency rule keeps a hand-off on one platform instead
    assert handle_conflict(cand, ref, "Details of a blue kettle") is None


def test_a_setting_the_step_asks_for_must_be_one_the_candidate_takes() -> None:
    ref = tool("r", "Word", "Random word.", parameters=[{"name": "length"}, {"name": "start"}])
    cand = tool("c", "Word", "Random word.", parameters=[{"name": "start"}])
    assert step_param_missing(("a random word of length 7", ""), cand, ref)
    assert step_param_missing(("a random word", ""), cand, ref) is None
    # a synonym is the same setting (lang / language)
    lang = tool("l", "Translate", "Translate.", parameters=[{"name": "lang"}])
    language = tool("m", "Translate", "Translate.", parameters=[{"name": "language"}])
    assert step_param_missing(("translate it, lang fr", ""), language, lang) is None
