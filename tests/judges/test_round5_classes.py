"""The classes of the fresh round 5's false accepts (docs/labels/fresh/round5), on documents shaped
as the libraries wrote them (a generated function library's entry, a model card), with names of
our own: the verifier fails the point the class is about with that point's reason, and the right
answers beside each class pass.

The one method-level class is constraint coverage by parameter role (toolex.judges.roles): a
value the step gives whose role the reference takes must have a parameter of that role in the
candidate, or a behaviour its documentation states."""

from __future__ import annotations

from collections.abc import Sequence

from judges.test_round4_classes import card, first, function, passes
from toolex.judges import roles, specifics
from toolex.judges.step import step_of

# -- a value with nowhere to go ----------------------------------------------------------------

BADGE = function("b1", "make_badge", "Generate a badge image with the Badgery API.",
                 data="Text to encode in the badge.",
                 fgcolor="Badge colour in HTML hex, e.g. '000000' for black.",
                 caption="Caption printed under the badge.")  # fmt: skip


def test_a_colour_the_step_asks_needs_a_colour_parameter() -> None:
    cand = function("b2", "badge_image", "Generates a badge image of a given size for a link.",
                    size="The size of the image. Default is 5.",
                    link="The link to encode.")  # fmt: skip
    step = "Make a badge for 'Welcome' with a green badge"
    assert first(step, cand, BADGE) == (
        "constraints: the step gives a colour ('green'), which the reference takes as 'fgcolor' "
        "and the candidate has nowhere to put"
    )
    kept = function("b3", "badge_image", "Generates a badge image for a link.",
                    link="The link to encode.", color="Foreground colour.")  # fmt: skip
    assert not first(step, kept, BADGE)
    # no colour asked: the smaller generator does the step
    assert passes(roles.uncovered_role, "Make a badge for 'Welcome'", cand, BADGE)


TOWNS = function("t1", "get_towns", "Fetches the towns within a region of a country.",
                 country_code="The code of the country which holds the region.",
                 region_code="The code of the region whose towns to list.")  # fmt: skip


def test_a_region_the_step_names_needs_a_region_parameter() -> None:
    cand = function("t2", "town_data", "Fetches a list of towns.",
                    count="The number of towns to return.")  # fmt: skip
    step = "Which towns are in the region of Upper Valley in Nordland"
    assert first(step, cand, TOWNS) == (
        "constraints: the step gives a region ('region of Upper Valley'), which the reference "
        "takes as 'region_code' and the candidate has nowhere to put"
    )
    kept = function("t3", "towns_by_state", "Lists the towns of a state or region.",
                    state="The state or region to list towns of.")  # fmt: skip
    assert passes(roles.uncovered_role, step, kept, TOWNS)


RIDDLES = function("r1", "v1_riddles", "Fetches a set number of riddles from the Riddlers API.",
                   limit="How many riddles to return, 1 to 30.")  # fmt: skip


def test_a_count_the_step_asks_needs_a_count_parameter() -> None:
    cand = function("r2", "riddles", "Fetches riddles, optionally filtered by category.",
                    category="Category to filter riddles by.")  # fmt: skip
    assert first("Get 7 riddles from the API", cand, RIDDLES) == (
        "constraints: the step gives a count ('7 riddles'), which the reference takes as 'limit' "
        "and the candidate has nowhere to put"
    )
    # a paged feed reaches any count; a count of units is no count of results
    paged = function("r3", "riddles", "Fetches riddles.", cursor="Cursor of the next page.")
    assert passes(roles.uncovered_role, "Get 7 riddles from the API", paged, RIDDLES)
    assert passes(roles.uncovered_role, "Get riddles within 7 miles", cand, RIDDLES)


def test_the_references_own_default_is_no_constraint() -> None:
    ref = function("s1", "balance_statement", "Retrieves the balance statement of a company.",
                   symbol="Ticker of the company.",
                   language="Results' language, an ISO 639-1 code. Default is 'en'.")  # fmt: skip
    cand = function("s2", "balance", "Retrieves the balance statements of a company.",
                    symbol="Ticker of the company.")  # fmt: skip
    assert passes(roles.uncovered_role, "Get the balance statement of ACME in English", cand, ref)
    assert not passes(
        roles.uncovered_role, "Get the balance statement of ACME in German", cand, ref
    )


def test_a_precision_the_reference_documents_needs_the_same_behaviour() -> None:
    ref = function("p1", "round_to_three", "Takes a float and rounds it to three decimal places.")
    cand = function("p2", "number_to_text", "Writes a number out as text.")
    why = roles.uncovered_role(
        step_of("Round it to three decimal places", "A pipe is 2.71828 m long."), cand, ref
    )
    assert why == (
        "the step gives a precision ('three decimal places'), which the reference documents and "
        "the candidate has nowhere to put"
    )
    kept = function("p3", "round_number", "Rounds a number to the given decimal places.")
    assert passes(roles.uncovered_role, "Round it to three decimal places", kept, ref)


# -- another act on the same object ------------------------------------------------------------


def test_detecting_the_language_is_not_translating() -> None:
    ref = function("l1", "translate", "Translates input text from one language to another.",
                   text="The text to translate.", tolang="The target language code.")  # fmt: skip
    cand = function("l2", "language_detection", "Detects the language of a given text.",
                    text="The text whose language to detect.")  # fmt: skip
    assert first("Translate it to Dutch", cand, ref) == (
        "operation: another act on the same object: the reference does translate, the candidate "
        "check"
    )
    kept = function("l3", "text_translate", "Translates text into another language.",
                    text="Text to translate.", target_lang="Target language.")  # fmt: skip
    assert not first("Translate it to Dutch", kept, ref)


# -- a checkpoint's fine-tune ------------------------------------------------------------------


def test_the_pretrained_base_is_not_the_task_fine_tune_the_step_asks() -> None:
    ref = card("c1", "pixparse-chartqa-base", "Image-to-text model fine-tuned to answer "
               "questions about charts.", "Visual question answering")  # fmt: skip
    cand = card("c2", "pixparse-base", "Image-to-text model pretrained on screenshots.",
                "Visual question answering")  # fmt: skip
    step = "Answer questions about the bar charts in a report"
    assert specifics.fine_tune(step_of(step, step), cand, ref) == (
        "the reference is fine-tuned for 'chartqa', which the step asks; the candidate is the "
        "checkpoint it was fine-tuned from"
    )
    # another size of the same fine-tune, and a step that never asks the task, stay equivalent
    larger = card("c3", "pixparse-chartqa-large", "Image-to-text model fine-tuned on charts.",
                  "Visual question answering")  # fmt: skip
    assert passes(specifics.fine_tune, step, larger, ref)
    assert passes(specifics.fine_tune, "Describe a screenshot in words", cand, ref)


def test_the_bulk_reader_agrees_with_the_per_pair_reader_on_every_class() -> None:
    """The bulk path (toolex.judges.evidence_bulk) reads the same points off the same pairs,
    right answers and false accepts alike (a fixed embedding: only the points are compared)."""
    import numpy as np

    from toolex.judges.base import VerifyTask
    from toolex.judges.evidence import EvidenceReader
    from toolex.judges.evidence_bulk import read_many

    def embed(texts: Sequence[str]) -> np.ndarray:  # a deterministic unit vector per text
        rows = [np.random.default_rng(sum(map(ord, t))).normal(size=8) for t in texts]
        return np.array([r / np.linalg.norm(r) for r in rows])

    translate = function("l1", "translate", "Translates input text from one language to another.",
                         text="The text to translate.", tolang="The target language.")  # fmt: skip
    detect = function("l2", "language_detection", "Detects the language of a given text.",
                      text="The text whose language to detect.")  # fmt: skip
    towns = function("t2", "town_data", "Fetches a list of towns.", count="How many towns.")
    riddles = function("r2", "riddles", "Fetches riddles.", category="Category of riddles.")
    tasks = [
        VerifyTask("q/0/l2", "Translate it to Dutch", detect, translate, "Translate it to Dutch"),
        VerifyTask("q/1/t2", "Towns in the region of Upper Valley", towns, TOWNS, "Towns?"),
        VerifyTask("q/2/r2", "Get 7 riddles", riddles, RIDDLES, "Get 7 riddles"),
        VerifyTask("q/3/b1", "Make a badge for 'Hi'", BADGE, BADGE, "Make a badge"),
    ]
    reader = EvidenceReader({}, 1.0, embed)
    bulk = read_many(reader, tasks)
    one = [reader.read(t.subquery, t.candidate, t.reference, t.request) for t in tasks]
    assert bulk == one
    assert [e.vetoes[0].split(":")[0] if e.vetoes else "" for e in one] == [
        "operation", "constraints", "constraints", ""
    ]  # fmt: skip
