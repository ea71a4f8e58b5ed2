"""The classes of the fresh round 3's false accepts (docs/labels/fresh/round3), each on documents
shaped as the library wrote them (a RapidAPI-style listing, a generated function library's
entry, a model card), with names of our own: the verifier fails the point the class is about,
with that point's reason; and the right answers next to each class stay accepted."""

from __future__ import annotations

from typing import Any

from toolex.judges.base import ToolDoc
from toolex.judges.checks import findings
from toolex.tooldoc.render import render_doc


def listing(platform: str, name: str, description: str = " ", **doc: Any) -> ToolDoc:
    """An endpoint as a RapidAPI-style library lists it."""
    d = {"api_description": description, "api_name": name, "category_name": "Tools",
         "method": "GET", "optional_parameters": [], "required_parameters": [],
         "tool_name": platform, **doc}  # fmt: skip
    return ToolDoc(f"{platform}::{name}", name, platform, d, render_doc(d, platform=platform))


def function(
    item: str, name: str, description: str, platform: str | None = None, **params: str
) -> ToolDoc:
    """A generated library's function: parameters with a description and a default each."""
    d = {"description": description, "name": name,
         "parameters": {k: {"default": "", "description": v, "type": "str"}
                        for k, v in params.items()}}  # fmt: skip
    return ToolDoc(item, name, platform, d, render_doc(d, platform=platform))


def card(item: str, checkpoint: str, description: str) -> ToolDoc:
    d = {"api_call": f"load_model_ensemble_and_task_from_hf_hub('org/{checkpoint}')",
         "description": description, "domain": "Audio Audio-to-Audio", "framework": "Fairseq",
         "functionality": "Speech-to-speech translation", "name": checkpoint}  # fmt: skip
    return ToolDoc(item, checkpoint, None, d, render_doc(d))


def req(*names: str) -> list[dict[str, str]]:
    return [{"default": "", "description": "", "name": n, "type": "STRING"} for n in names]


def first(step: str, cand: ToolDoc, ref: ToolDoc, request: str = "") -> str:
    found = findings(step, cand, ref, request or step)
    return str(found[0]) if found else ""


# -- point 6: a platform the request names ------------------------------------------------------


def test_a_long_platform_name_the_request_writes_out_stays_on_that_platform() -> None:
    ref = listing("Registro Mercantil Andino Company Lookup API", "Company By Name",
                  "Return company data", required_parameters=req("name"))  # fmt: skip
    country = [{"default": "be", "description": "ISO2 country code", "name": "countryCode",
                "type": "STRING"}]  # fmt: skip
    cand = listing("Firmbase", "Search company by Name", "Search for a company by name",
                   required_parameters=[{"default": "Tesla", "description": "Company name or "
                                         "number", "name": "q", "type": "STRING"}],
                   optional_parameters=country)  # fmt: skip
    request = ("Search for a specific company by name in the Registro Mercantil Andino Company "
               "Lookup API.")  # fmt: skip
    why = first("Search for a specific company by name", cand, ref, request)
    assert why.startswith("platform: the request names the reference's platform")
    assert "'Registro Mercantil Andino Company Lookup'" in why


def test_a_one_word_platform_named_as_the_tool_stays_on_it_and_one_brand_travels() -> None:
    ref = listing("Polyglot", "Get Languages", "Get all supported languages")
    cand = listing("Contoso Polyglot Text", "Languages", "Gets the languages supported")
    request = "I want the languages supported by the Polyglot tool."
    assert first("List the languages supported", cand, ref, request).startswith(
        "platform: the request names the reference's platform 'Polyglot'"
    )
    # one brand's two publications ("Search Hub" / "Search Hub Web") are not another platform
    web = listing("Searchly Web", "Web Search", "Search the web", required_parameters=req("q"))
    own = listing("Searchly", "Web Search API", "Search the web", required_parameters=req("q"))
    assert not first("Search the web for studies", web, own, "Use the Searchly API to search")


def test_autocomplete_of_one_providers_catalogue_read_off_the_description_does_not_travel() -> None:
    ref = function("fn_23", "auto_complete",
                   "Fetch auto-complete suggestions for a given query using the Homestore API.",
                   "Homestore", query="The term for which suggestions are needed.")  # fmt: skip
    cand = function("fn_685", "v3_auto_complete",
                    "Fetches auto-suggestions for a symbol using the Brokerline Investments "
                    "endpoint.", q="Symbol or company name.")  # fmt: skip
    why = first("Get auto-complete suggestions for 'dress'", cand, ref)
    assert why.startswith("platform: the reference reads Homestore's own records ('autocomplete')")
    assert "brokerline investments" in why


def test_an_id_is_tied_to_the_provider_its_description_names() -> None:
    ref = function("fn_1481", "match",
                   "Fetch the information of a tennis match by its ID from the Courtside Live "
                   "API.", "Courtside Live",
                   match_id="The unique identifier of the match.")  # fmt: skip
    cand = function("fn_901", "provider3_live_match_id",
                    "Fetches live match details for a given match ID from Feedhouse using the "
                    "hub service.", is_id="The unique identifier for the match.")  # fmt: skip
    why = first("Provide the full report of the match with ID 13579", cand, ref,
                "Please provide the full report of the match with ID 13579.")  # fmt: skip
    assert why.startswith("platform: ids do not travel between platforms")
    assert "feedhouse" in why
    # a description naming only the marketplace that hosts it ("the hub service") names no one
    hosted = function("fn_48", "video_comments", "Fetches comments for a video using the Hub "
                      "service.", is_id="The video id.")  # fmt: skip
    assert not first("Fetch the comments of the video with ID 998877", hosted, ref)


# -- point 1: the same act, the same way round ---------------------------------------------------


def test_a_reversed_language_pair_with_a_dialect_code_is_another_direction() -> None:
    ref = card(
        "hf_782", "xm_transformer_unity_en-hk", "Speech-to-speech translation: English-Hokkien."
    )
    cand = card(
        "hf_784", "xm_transformer_unity_hk-en", "Speech-to-speech translation: Hokkien-English."
    )
    assert first("Translate spoken English to spoken Hokkien", cand, ref).startswith(
        "operation: another language pair: the reference goes en->hk, the candidate hk->en"
    )


# -- point 2: the outputs the step asks for -----------------------------------------------------


def test_a_yes_no_check_is_not_a_fetch_of_details() -> None:
    ref = listing("Chat Validator", "Is a business?",
                  "Returns `true` if the number is a business account, or `false` if it's not.",
                  required_parameters=req("phone"),
                  template_response={"message": "str"})  # fmt: skip
    cand = listing("Chat Scraper", "Fetch business info",
                   "Provides description, website and address if the number is a business "
                   "account.", required_parameters=req("phone"))  # fmt: skip
    assert first("Tell if any of them are business accounts", cand, ref) == (
        "outputs: the reference answers yes or no; the candidate fetches details and checks nothing"
    )
    asks_too = listing("Chat Scraper", "Is chat for business?", "Checks a business account.",
                       required_parameters=req("phone"))  # fmt: skip
    assert not first("Tell if any of them are business accounts", asks_too, ref).startswith(
        "outputs"
    )


def test_a_candidate_given_what_the_step_asks_for_returns_something_else() -> None:
    ref = listing("IP Echo", "Get IP", "Get user's IP")
    cand = listing("Placefinder", "Get place by my IP", "Returns the place related to the IP.")
    assert first("Retrieve their IP address", cand, ref) == (
        "outputs: the step asks for the ip; the candidate is given a ip and returns place"
    )


def test_a_thin_description_does_not_show_the_output_the_reference_says_it_gives() -> None:
    ref = function("fn_2639", "ip_address_lookup",
                   "Retrieves geolocation data for a given IP address using the hub service.",
                   ip="The IP address to look up.")  # fmt: skip
    cand = function("fn_968", "ip_address",
                    "Fetch information related to an IP address using the Phone and Email "
                    "Checker API.", ip="The IP address to be queried.")  # fmt: skip
    assert first("What is the geolocation of IP address 208.67.222.222", cand, ref) == (
        "outputs: the step asks for geolocation; the candidate only says only 'ip_address' and "
        "its description"
    )


# -- point 4: the same granularity --------------------------------------------------------------


def test_listing_every_record_is_not_reading_one_by_its_id() -> None:
    ref = listing("Coderun", "Get Languages", "Get active languages.",
                  template_response={"id": "int", "name": "str"})  # fmt: skip
    cand = listing("Coderun", "Get a Language", "Get a language.", required_parameters=req("id"))
    assert first("Provide the compile and run commands for language ID 52", cand, ref) == (
        "scope: the reference lists every language; the candidate reads one language by its id"
    )


# -- point 5: the request's constraints survive -------------------------------------------------


def test_siblings_a_number_apart_both_asked_are_not_one_another() -> None:
    response = {"bet": "str", "betQuote": "float", "countryName": "str", "leagueName": "str"}
    ref = listing("Tipster", "Best Sign 1", "Today's best 1 sign", template_response=response)
    cand = listing("Tipster", "Best Sign 2", "Today's best 2 sign", template_response=response)
    request = "Give me the best 2 sign prediction and the best 1 sign prediction."
    assert first("Get the country name, league name, bet", cand, ref, request) == (
        "constraints: the request asks 'Best Sign 1' and 'Best Sign 2' apart: siblings a number "
        "apart"
    )
    assert not first("Get the country name, league name, bet", cand, ref, "Best tips today")


def test_a_free_text_search_is_not_a_category_filter() -> None:
    ref = function("fn_3021", "jokes_search", "Conducts a free text search for jokes.",
                   query="The search term used to filter jokes.")  # fmt: skip
    cand = function("fn_1547", "jokes", "Fetches jokes, optionally filtered by category.",
                    category="Category to filter jokes by.")  # fmt: skip
    assert first("Find jokes related to 'music'", cand, ref) == (
        "constraints: the step gives words to search for, which the reference takes as 'query'; "
        "the candidate takes only a category"
    )
    word = function("fn_9", "define", "Fetches the definition of a word.", word="The word.")
    dictionary = function("fn_8", "dictionary", "Retrieves the definition of a word.",
                          query="The word to search the definition for.")  # fmt: skip
    assert not first('Search the definition of the word "plethora"', word, dictionary)


def test_a_currency_the_step_gives_needs_a_parameter_of_the_candidate() -> None:
    ref = function("fn_2477", "item_detail_2", "Fetch detailed information for a shop item.",
                   itemid="The product ID.", currency="The currency to display the price in.",
                   locale="The language of the content.")  # fmt: skip
    cand = function("fn_582", "item_description", "Fetches the description of a shop item.",
                    itemid="The ID of the item.",
                    locale="The language of the content.")  # fmt: skip
    assert first("Get the details for item 456123789, the price in Japanese Yen", cand, ref) == (
        "constraints: the step gives a currency (yen), which the reference takes and the "
        "candidate cannot"
    )
