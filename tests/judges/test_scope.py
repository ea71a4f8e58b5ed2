"""A platform the step names, and sibling objects, rule a candidate out; a superset does not."""

from __future__ import annotations

from docs import tool
from toolex.judges.scope import named_terms, objects, qualifier_conflict, scope_missing


def test_named_terms_are_names_as_users_write_them():
    text = (
        "How many followers does the 'DAILY OVRLL 0822202140642' API have on Kick.com and Twitter?"
    )
    terms = named_terms(text)
    assert "Twitter" in terms and "Kick.com" in terms
    assert "DAILY OVRLL 0822202140642" in terms
    # a sentence's first word, "I", and ordinary lower-case words are no names
    assert named_terms("Find similar movies. I like them.") == []


def test_a_platform_the_step_names_that_only_the_reference_serves_rules_out_the_candidate():
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


def test_a_distinctive_word_of_the_references_platform_counts_when_the_step_uses_it():
    rugby = tool("r", "PreMatchForm", "Pre-match form of a match.", "RugbyAPI2")
    cricket = tool("c", "PreMatchForm", "Pre-match form of a match.", "CricketAPI2")
    assert "rugby" in scope_missing(
        ("Get the pre-match form of the rugby match", ""), cricket, rugby
    )


def test_siblings_differ_in_a_qualifier_the_other_never_documents():
    c = tool("a", "C Code Compiler Versions", "Versions of the C compiler.")
    csharp = tool("b", "C# Code Compiler Versions", "Versions of the C# compiler.")
    assert "siblings" in qualifier_conflict(csharp, c)
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


def test_objects_are_what_a_name_acts_on_or_a_model_cards_task():
    assert objects(tool("a", "Generate QR Code", "")) == {"qr", "code"}
    card = tool("b", "openai/whisper-tiny", "", functionality="Automatic Speech Recognition")
    assert objects(card) == {"automatic", "speech", "recognition"}
