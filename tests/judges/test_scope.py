"""A platform the step names, and sibling objects, rule a candidate out; a superset does not."""

from __future__ import annotations

from judges.docs import tool
from toolex.judges.coverage import platform_subject
from toolex.judges.scope import (
    named_terms,
    narrower_sibling,
    objects,
    other_platform,
    qualifier_conflict,
    scope_missing,
)
from toolex.judges.step import step_of


def test_named_terms_are_names_as_users_write_them() -> None:
    text = (
        "How many followers does the 'DAILY OVRLL 0822202140642' API have on Kick.com and Twitter?"
    )
    terms = named_terms(text)
    assert "Twitter" in terms and "Kick.com" in terms
    assert "DAILY OVRLL 0822202140642" in terms
    # a sentence's first word, "I", and ordinary lower-case words are no names
    assert named_terms("Find similar movies. I like them.") == []


def test_a_platform_the_step_names_that_only_the_reference_serves_rules_out_the_candidate() -> None:
    ref = tool("r", "Followers", "Get the followers of a user.", "Twitter")
    other = tool("o", "Followers", "Get the followers of an artist.", "Spotify")
    why = scope_missing(
        ("Get the followers", "How many followers does @x have on Twitter?"), other, ref
    )
    assert why and "Twitter" in why
    # the request names no platform: no veto
    assert (
        scope_missing(("Get the followers", "How many followers does @x have?"), other, ref) is None
    )
    # ordinary words that happen to be a platform's name are no name ("find similar movies")
    similar = tool("s", "Similar", "Find movies similar to a title.", "Similar Movies")
    films = tool("f", "Recommend", "Recommend similar movies for a title.", "Film API")
    assert (
        scope_missing(("find similar movies", "find similar movies to Alien"), films, similar)
        is None
    )
    # a candidate that takes the platform as a parameter serves it
    generic = tool(
        "g",
        "Followers",
        "Followers on a social network.",
        "Social",
        parameters=[{"name": "platform"}],
    )
    assert scope_missing(("followers", "my followers on Twitter"), generic, ref) is None


def test_a_distinctive_word_of_the_references_platform_counts_when_the_step_uses_it() -> None:
    rugby = tool("r", "PreMatchForm", "Pre-match form of a match.", "RugbyAPI2")
    cricket = tool("c", "PreMatchForm", "Pre-match form of a match.", "CricketAPI2")
    step = step_of("Get the pre-match form of the rugby match", "")
    assert "'rugby'" in (platform_subject(step, cricket, rugby) or "")
    # the same word said as "films" where the platform says "movies" is one subject
    movies = tool("m", "Random quote", "A random quote.", "Movie and TV shows Quotes")
    anime = tool("a", "Random quote", "A random quote.", "Anime Quotes_v4")
    films = tool("f", "Random quote", "A random quote from a film.", "Film Lines")
    step = step_of("Fetch a random quote", "I love movies. Fetch a random quote.")
    assert "'movie'" in (platform_subject(step, anime, movies) or "")
    assert platform_subject(step, films, movies) is None


def test_siblings_differ_in_a_qualifier_the_other_never_documents() -> None:
    c = tool("a", "C Code Compiler Versions", "Versions of the C compiler.")
    csharp = tool("b", "C# Code Compiler Versions", "Versions of the C# compiler.")
    assert "siblings" in (qualifier_conflict(csharp, c) or "")
    sale = tool("c", "Search for SALE", "Search properties for sale.")
    sold = tool("d", "Search for SOLD", "Search sold properties.")
    assert qualifier_conflict(sold, sale)
    # a superset documents the reference's qualifier: no sibling
    nba = tool("e", "NBA Scores", "Scores of NBA games.")
    sports = tool("f", "Sports Scores", "Scores of NBA, NFL and NHL games.")
    assert qualifier_conflict(sports, nba) is None
    # sizes and model checkpoints are variants, not siblings
    assert qualifier_conflict(tool("g", "t5-base", "T5."), tool("h", "t5-large", "T5.")) is None
    kitti = tool("i", "glpn-kitti-finetuned-221214", "Depth.")
    nyu = tool("j", "glpn-nyu-finetuned-221121", "Depth.")
    assert qualifier_conflict(kitti, nyu) is None


def test_objects_are_what_a_name_acts_on_or_a_model_cards_task() -> None:
    assert objects(tool("a", "Generate QR Code", "")) == {"qr", "code"}
    card = tool("b", "openai/whisper-tiny", "", functionality="Automatic Speech Recognition")
    assert objects(card) == {"automatic", "speech", "recognition"}


def test_a_run_of_capitals_ends_with_its_sentence() -> None:
    terms = named_terms("Check the DAILY OVRLL 0822202130837 API. Please tell me if it works.")
    assert "DAILY OVRLL 0822202130837 API" in terms
    assert not any("Please" in t for t in terms)


def test_the_requests_country_of_the_reference_rules_out_a_copy_for_another_country() -> None:
    params = {"optional_parameters": [{"name": "region"}, {"name": "city"}]}
    ref = tool("u", "Facilities Lookup", "Facilities in Uganda.", "Uganda API", **params)
    other = tool("s", "Facilities Lookup", "Facilities in Senegal.", "Senegal API", **params)
    texts = ("List research centers in Kampala", "I am moving to Kampala, Uganda.")
    why = other_platform(texts, other, ref)
    assert why is not None and "'uganda'" in why and "Senegal API" in why
    # a request naming neither country leaves it to the other rules; a region parameter does
    assert other_platform(("List research centers", "Find research centers."), other, ref) is None


def test_a_narrower_endpoint_of_the_same_provider_is_another_tool_unless_the_step_asks_it() -> None:
    plain = tool("p", "Get Epic Free Games", "The free games now.", "Epic Free Games")
    soon = tool("s", "Get Epic Free Games Coming Soon", "Free games to come.", "Epic Free Games")
    why = narrower_sibling(("Suggest some free games", "We host a party."), soon, plain)
    assert why is not None and "'coming soon'" in why
    asked = ("Which free games are coming soon?", "We host a party.")
    assert narrower_sibling(asked, soon, plain) is None
    elsewhere = tool("e", "Get Epic Free Games Coming Soon", "Free games to come.", "Game Deals")
    assert narrower_sibling(("Suggest some free games",), elsewhere, plain) is None
    unplaced = tool("n", "get_free_games_coming_soon", "Free games to come.")
    assert (
        narrower_sibling(("Suggest some free games",), unplaced, tool("x", "get_free_games"))
        is None
    )
