"""The classes of the fresh round 4's false accepts (docs/labels/fresh/round4), each on documents
shaped as the library wrote them (a RapidAPI-style listing, a generated function library's
entry, a model card), with names of our own: the verifier fails the point the class is about,
with that point's reason; and the right answers next to each class pass that rule."""

from __future__ import annotations

from typing import Any

from toolex.judges import specifics
from toolex.judges.base import ToolDoc
from toolex.judges.checks import findings
from toolex.judges.step import step_of
from toolex.tooldoc.render import render_doc


def listing(platform: str, name: str, description: str = " ", **doc: Any) -> ToolDoc:
    d = {"api_description": description, "api_name": name, "category_name": "Tools",
         "method": "GET", "optional_parameters": [], "required_parameters": [],
         "tool_name": platform, **doc}  # fmt: skip
    return ToolDoc(f"{platform}::{name}", name, platform, d, render_doc(d, platform=platform))


def function(item: str, name: str, description: str, **params: str) -> ToolDoc:
    d = {"description": description, "name": name,
         "parameters": {k: {"default": "", "description": v, "type": "str"}
                        for k, v in params.items()}}  # fmt: skip
    return ToolDoc(item, name, None, d, render_doc(d))


def card(item: str, checkpoint: str, description: str, functionality: str, **doc: Any) -> ToolDoc:
    d = {"api_call": f"AutoModel.from_pretrained('org/{checkpoint}')", "description": description,
         "domain": "Models", "framework": "Transformers", "functionality": functionality,
         "name": checkpoint, **doc}  # fmt: skip
    return ToolDoc(item, checkpoint, None, d, render_doc(d))


def first(step: str, cand: ToolDoc, ref: ToolDoc, request: str = "") -> str:
    found = findings(step, cand, ref, request or step)
    return str(found[0]) if found else ""


def passes(rule: Any, step: str, cand: ToolDoc, ref: ToolDoc, request: str = "") -> bool:
    return rule(step_of(step, request or step), cand, ref) is None


# -- another value of the same slot --------------------------------------------------------------


def test_a_policy_for_another_environment_is_another_model() -> None:
    ref = card("m1", "dt-walker-medium", "Decision model trained on trajectories sampled from the "
               "Gym Walker environment.", "Reinforcement learning")  # fmt: skip
    cand = card("m2", "lab/dt-crawler-expert", "Decision model trained on trajectories sampled "
                "from the Gym Crawler environment", "Reinforcement learning")  # fmt: skip
    step = "Train a walking robot with a decision model"
    assert first(step, cand, ref) == (
        "scope: another environment: the reference is trained in 'Walker', the candidate in "
        "'Crawler'"
    )
    # the same environment, another size of training run: the family's normal equivalents
    kept = card("m3", "lab/dt-walker-expert", "Decision model trained on expert trajectories of "
                "the Gym Walker environment.", "Reinforcement learning")  # fmt: skip
    assert passes(specifics.environment, step, kept, ref)


def test_another_language_pair_of_one_translation_family_is_not_the_pair_asked() -> None:
    ref = card("s1", "speechmt_ro_en", "Speech translation from Romanian to English.",
               "speech-to-speech-translation")  # fmt: skip
    cand = card("s2", "speechmt_en_fr", "Speech translation from English to French.",
                "speech-to-speech-translation")  # fmt: skip
    why = first("Translate Romanian speech for an English-speaking friend", cand, ref)
    assert (
        why == "operation: another language pair: the reference goes ro->en, the candidate en->fr"
    )
    kept = card("s3", "speechmt-large_ro_en", "Romanian to English speech translation.",
                "speech-to-speech-translation")  # fmt: skip
    assert not first("Translate Romanian speech for an English-speaking friend", kept, ref)


def test_a_model_limited_to_a_field_the_step_never_names_is_narrower() -> None:
    ref = card("n1", "bert-ner-uncased", "A model for named entity recognition: person names, "
               "locations and organizations.", "Named Entity Recognition")  # fmt: skip
    cand = card("n2", "lab/clinical-ner-all", "A named entity recognition model trained to "
                "recognize bio-medical entities in case reports.",
                "Named Entity Recognition")  # fmt: skip
    step, request = "Predict the named entities", "For our news platform, predict the entities."
    assert first(step, cand, ref, request) == (
        "scope: the candidate is only for biomedical, which neither the step nor the reference "
        "names"
    )
    # a step that asks the field keeps the field's model
    assert passes(specifics.field, "Predict the medical entities of case reports", cand, ref)
    tennis = function("f1", "match", "Fetch an individual tennis match by its id.", match_id="id")
    live = function("f2", "live_match", "Fetch the live match data for the given match id.",
                    is_id="The match id.")  # fmt: skip
    why = specifics.field(step_of("Fetch the live match data", ""), tennis, live)
    assert why == "the candidate is only for tennis, which neither the step nor the reference names"
    assert passes(specifics.field, "Fetch the tennis match data", tennis, live)


# -- another property of the same object, an inverse lookup ---------------------------------------


def test_a_check_of_one_property_is_not_a_check_or_fetch_of_another() -> None:
    ref = function("d1", "domain", "Checks if a given domain is disposable using the Maildesk API.",
                   domain="The domain to check for disposability.")  # fmt: skip
    cand = function("d2", "domain_check", "Checks the availability status of domains.",
                    domains="Comma-separated list of domains to check.")  # fmt: skip
    assert first("Fetch the domain information for 'example.com'", cand, ref) == (
        "operation: the reference checks whether it is disposable; the candidate never says "
        "'disposable'"
    )
    kept = function("d3", "is_disposable", "Tells whether an email domain is a disposable one.",
                    domain="The domain.")  # fmt: skip
    assert passes(specifics.checked_property, "Is 'example.com' disposable?", kept, ref)


def test_the_id_the_reference_is_given_is_not_what_it_opens() -> None:
    ref = function("u1", "get_user_info_by_user_id", "Fetch a user's information by user ID.",
                   is_id="The user ID.")  # fmt: skip
    cand = function("u2", "get_user_id_by_username", "Fetch the user ID of a username.",
                    username="The username.")  # fmt: skip
    assert first("Fetch the user information for the user with ID 987654321", cand, ref) == (
        "operation: the reference is given the user id; the candidate returns it from a username"
    )
    kept = function("u3", "user_info_by_id", "Get a user's profile information by its ID.",
                    user_id="The user ID.")  # fmt: skip
    assert passes(specifics.inverse_lookup, "Fetch the user with ID 987654321", kept, ref)


# -- fewer outputs ---------------------------------------------------------------------------------


def test_a_conversion_into_one_of_the_forms_asked_gives_fewer_outputs() -> None:
    ref = function("c1", "convert_hsl", "Converts an HSL color code to other codes such as Hex, "
                   "RGB and CMYK.", h="Hue.", s="Saturation.", l="Lightness.")  # fmt: skip
    cand = function("c2", "hsl_to_hex", "Converts an HSL color code to its HEX code.",
                    h="Hue.", s="Saturation.", l="Lightness.")  # fmt: skip
    step = "Convert an HSL color with a hue of 240 to RGB and Hex"
    assert (
        first(step, cand, ref)
        == "outputs: the step asks for RGB and Hex; the candidate never gives RGB"
    )
    kept = function("c3", "hsl_convert", "Converts HSL to RGB, Hex and HSV.",
                    h="Hue.", s="Saturation.", l="Lightness.")  # fmt: skip
    assert passes(specifics.listed_targets, step, kept, ref)


def test_true_or_false_only_is_not_the_information_asked() -> None:
    says = "This endpoint returns the domain information."
    ref = listing("Domainfacts", "Check domain info", says,
                  required_parameters=[{"name": "domain", "type": "STRING"}])  # fmt: skip
    cand = listing("Bulk Domains", "/domain_check", "Returns domain availability status",
                   required_parameters=[{"name": "domains", "type": "STRING"}],
                   template_response={"": "bool"})  # fmt: skip
    assert first("Check the domain information", cand, ref) == (
        "outputs: the step asks for information; the candidate's documented response is only "
        "true/false"
    )
    assert passes(specifics.booleans_only, "Is the domain available?", cand, ref)


def test_a_thin_endpoint_of_another_category_shows_nothing_of_the_act() -> None:
    ref = listing("Searchfront", "Web Search", "This endpoint is used for web searches",
                  category_name="Search", template_response={"items": "list"},
                  required_parameters=[{"name": "q", "type": "STRING"}])  # fmt: skip
    cand = listing("Webpinger", "SearchWebRequest", "We need to get the response from the web "
                   "after specifying a keyword", category_name="Monitoring",
                   required_parameters=[{"name": "Keyword", "type": "STRING"}])  # fmt: skip
    assert first("Search for the web", cand, ref).startswith(
        "outputs: the candidate says only that it gets 'the response', documents none, and is "
        "listed under 'Monitoring', not 'Search'"
    )
    same = listing("Webpinger", "SearchWebRequest", cand.doc["api_description"],
                   category_name="Search")  # fmt: skip
    assert passes(specifics.thin_elsewhere, "Search for the web", same, ref)


# -- narrower scope written in the candidate -----------------------------------------------------


def test_a_kind_outside_the_candidates_enumerated_kinds_is_not_served() -> None:
    ref = function("h1", "by_location", "Searches for homeless shelters near coordinates.",
                   lat="Latitude.", lng="Longitude.", radius="Radius in miles.")  # fmt: skip
    cand = function("h2", "get_locations", "Fetches locations within a radius of coordinates.",
                    lat="Latitude.", lon="Longitude.",
                    type="Type of locations; one of ['bus_stops', 'rail_stations'].")  # fmt: skip
    step = "What homeless shelters are within 3 miles of (34.05, -118.24)"
    assert first(step, cand, ref).startswith(
        "scope: the step asks for homeless; the candidate's kinds are bus_stops, rail_stations"
    )
    stops = "Which bus stops are within 3 miles of (34.05, -118.24)"
    assert passes(specifics.enumerated_kinds, stops, cand, ref)


def test_a_tier_sibling_without_what_the_step_asks_is_another_endpoint() -> None:
    ref = listing(
        "Mailharvest",
        "dashboard_pro_access",
        "Call this endpoint to get access to the dashboard with all features.",
    )
    cand = listing(
        "Mailharvest", "dashboard_free_access", "Call this endpoint to get access to the dashboard."
    )
    step = "Provide access to the Mailharvest dashboard with all the features"
    assert first(step, cand, ref) == (
        "scope: the step asks for features, which the reference says and its sibling does not"
    )
    assert passes(specifics.sibling_features, "Provide access to the dashboard", cand, ref)


# -- a provider the request names ------------------------------------------------------------------


def test_a_provider_the_request_names_must_be_the_candidates() -> None:
    ref = function("a1", "auto_complete", "Fetch auto-complete suggestions for a query using the "
                   "Homestore API.", query="The term.")  # fmt: skip
    cand = function("a2", "auto_complete_deprecating", "Fetch auto-complete suggestions for a "
                    "query from the specified API.", query="The term.")  # fmt: skip
    step = "Provide auto-complete suggestions for 'Leeds' using the Flatfinder API"
    assert first(step, cand, ref) == (
        "platform: the request asks for the Flatfinder API; the candidate never names it"
    )
    # a provider written as ordinary words the candidate says ("JobSearch": jobs, search)
    jobs = listing("Jobsboard - Norway", "SearchJobs", "Search jobs by keyword and location")
    assert passes(specifics.requested_provider, "Find jobs using the JobSearch API", jobs, ref)
