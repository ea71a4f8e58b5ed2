"""A request read as a person reads it: clauses, asks, the asking removed, constraint words."""

from __future__ import annotations

from toolex.judges.clauses import clauses, cleaned, constraints, list_items


def test_a_request_is_cut_into_clauses_where_a_new_ask_opens() -> None:
    request = (
        "I'm a football enthusiast. Can you give me Messi's clubs, managers, and referees? "
        "Also, fetch the latest transfers, and then list his trophies."
    )
    parts = clauses(request)
    assert [p.text for p in parts] == [
        "I'm a football enthusiast.",
        "Can you give me Messi's clubs, managers, and referees?",
        "Also, fetch the latest transfers",  # its opening connector stays with it
        "list his trophies.",
    ]
    assert [p.ask for p in parts] == [False, True, True, True]


def test_a_wish_asks_weakly_and_an_and_before_it_opens_a_new_clause() -> None:
    parts = clauses("I am designing a website, and I want a program to generate images.")
    assert [p.text for p in parts] == [
        "I am designing a website",
        "I want a program to generate images.",
    ]
    assert parts[1].ask and not parts[1].strong


def test_the_asking_is_removed_and_the_step_is_left_in_the_requests_words() -> None:
    assert (
        cleaned("Can you please provide me with the channel clips?") == "provide the channel clips"
    )
    assert cleaned("Additionally, I would like to fetch a message") == "fetch a message"
    assert cleaned("My company is interested in retrieving the list of variables") == (
        "retrieve the list of variables"
    )
    assert cleaned("I want a program to generate images from text.") == "generate images from text"


def test_constraint_words_are_quoted_values_codes_and_names() -> None:
    found = constraints("I'm a fan of the streamer 'gmhikaru' on Kick.com and Buenos Aires")
    assert "'gmhikaru'" in found and "Kick.com" in found and "Buenos Aires" in found
    assert constraints("Track package CA107308006SI please") == ["CA107308006SI"]


def test_a_list_splits_outside_brackets_and_quotes_only() -> None:
    assert list_items("the clips, the details and the emotes") == [
        "the clips",
        "the details",
        "the emotes",
    ]
    assert list_items("a matrix of shape (2, 3) and 'salt, pepper'") == [
        "a matrix of shape (2, 3)",
        "'salt, pepper'",
    ]


def test_a_lower_case_request_a_relative_clause_and_a_sequence_word() -> None:
    """Issue 32: a request written all in lower case is still cut into its sentences; ", who
    ..." goes on the same clause; "Finally, deploy ..." asks though "deploy" is no API verb."""
    assert [
        c.text for c in clauses("i follow the wnba. can you get the team 18? also get may 5.")
    ] == [
        "i follow the wnba.",
        "can you get the team 18?",
        "also get may 5.",
    ]
    (checkout,) = clauses("Please check out Emily Johnson, who is departing on December 31.")
    assert checkout.text.endswith("who is departing on December 31.")
    (deploy,) = clauses("Finally, deploy the latest version with the pipeline ID IRDK6wwc.")
    assert deploy.ask and deploy.strong
    (wish,) = clauses("Then, I want the schedule.")
    assert wish.ask and not wish.strong


def test_a_sentence_s_first_word_before_i_is_no_name() -> None:
    assert constraints("Once I have the station names, search trips to Munich.") == ["Munich"]
