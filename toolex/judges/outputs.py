"""Point 2 of the verifier (toolex.judges.checks): what the step asks to get is documented in
the candidate's output or description.

The reference is known to do the step, so the words of the step its documentation says (its
name, description and documented response) are what the step gets from it: "actors" and "plot"
of a film. The candidate must say each of them somewhere in its documentation (a word form, a
name of the same thing, a unit of the same quantity: toolex.judges.vocabulary); a film-details
endpoint documenting genre, director and rating does not give actors and plot. And it must say
at least one word of the step where it says what it does or returns: positive evidence, not only
the absence of a contradiction. A classifier never stands in for a regression model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from toolex.judges.base import ToolDoc, per_step_tool, per_tool
from toolex.judges.inputs import param_name_keys, param_words
from toolex.judges.lexicon import GENERIC_NAME_WORDS, base_verb, regex, word_set, words_of
from toolex.judges.operations import output_conflict
from toolex.judges.step import Step
from toolex.judges.tool_facts import named_provider, returned
from toolex.judges.vocabulary import keys_of, said
from toolex.tooldoc import fields as df

# How many of the candidate's documented outputs a reason names.
SHOWN = 4


@per_tool
def output_keys(tool: ToolDoc) -> frozenset[str]:
    """Keys of what a tool says it does and returns: its name, description, documented
    response (toolex.judges.vocabulary.keys)."""
    name = df.name(tool.doc) or tool.name or ""
    words = words_of(name, df.description(tool.doc))
    return keys_of([*words, *_response_words(tool)])


@per_tool
def field_keys(tool: ToolDoc) -> frozenset[str]:
    """Keys of what a tool names as its object and fields: its name and documented response."""
    name = df.name(tool.doc) or tool.name or ""
    return keys_of([*df.split_words(name), *_response_words(tool)])


@per_tool
def documented_keys(tool: ToolDoc) -> frozenset[str]:
    """Keys of every word of a tool's documentation, its platform and parameters included."""
    # the words of "platform text" are the platform's then the text's (no word crosses the
    # space): the text's words are split once and shared with the evidence's word sets
    return output_keys(tool) | keys_of(
        [*df.split_words(tool.platform or ""), *df.split_words(tool.text)]
    )


@per_tool
def _response_words(tool: ToolDoc) -> tuple[str, ...]:
    return tuple(w for key in sorted(returned(tool)) for w in df.split_words(key))


_RESPONSES = ("template_response", "responses", "response", "output_parameters", "returns")


@per_tool
def response_fields(tool: ToolDoc) -> tuple[str, ...]:
    """The field names of a tool's documented response, as written, sorted (for reasons)."""
    found: set[str] = set()
    for key in _RESPONSES:
        _fields(tool.doc.get(key), found, 0)
    return tuple(sorted(found))


def _fields(value: object, found: set[str], depth: int) -> None:
    if depth > 3:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str) and not k.startswith("_") and not k.isdigit():
                found.add(k)
            _fields(v, found, depth + 1)
    elif isinstance(value, list):
        for v in value[:3]:
            _fields(v, found, depth + 1)


def asked_outputs(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """A word of the step the reference's name or response says (not one of its inputs: those
    are point 5's), that the candidate never says."""
    want = _asked_of(step, ref)
    missing = unsaid(want, cand) if want else None
    if not missing:
        return None
    return f"the step asks for {_listed(missing)}; the candidate documents {_shown(cand)}"


def unsaid(words: Sequence[str], tool: ToolDoc) -> list[str]:
    """The words the tool's documentation never says (``documented_keys``), in order. Its name,
    description and response (``output_keys``, a part of those keys) are read first: a tool
    that says them all there never has its whole text's keys worked out."""
    out = output_keys(tool)  # once, not once per word (a memo, but a call and a text compare)
    rest = [w for w in words if not said(w, out)]
    if not rest:
        return rest
    have = documented_keys(tool)
    return [w for w in rest if not said(w, have)]


@per_step_tool
def _asked_of(step: Step, ref: ToolDoc) -> tuple[str, ...]:
    """The step's asked words the reference's name or response says, its inputs aside."""
    inputs = param_name_keys(ref)
    return tuple(w for w in step.asked if said(w, field_keys(ref)) and not said(w, inputs))


def output_kind(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    return output_conflict(cand, ref)


# A name opening as a yes/no question asks one ("Is a business?", "has_permission").
_ASKS = word_set("is are has have does do can exists")
# Words saying a tool checks something rather than fetches it.
_CHECKS = word_set(
    """
    check checks checker verify verifies verification validate validates validation validator
    valid validity available availability exist exists existence detect detects whether
    """
)
_YES_NO = re.compile(r"(?i)\btrue\b[^.]*\bfalse\b|\bboolean\b")


@per_tool
def yes_no(tool: ToolDoc) -> bool:
    """The tool answers a yes/no question: its name asks one, or it says it returns true or
    false."""
    name = df.name(tool.doc) or tool.name or ""
    words = df.split_words(name)
    return (
        bool(words and words[0] in _ASKS)
        or "?" in name
        or bool(_YES_NO.search(df.description(tool.doc)))
    )


@per_tool
def checks_something(tool: ToolDoc) -> bool:
    name = df.name(tool.doc) or tool.name or ""
    return yes_no(tool) or bool(set(words_of(name, df.description(tool.doc))) & _CHECKS)


def answer_kind(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """One tool answers whether something holds (true or false), the other fetches its details
    and says nothing of checking: a check is not a fetch ("is it a business account?" /
    "the business's profile"), nor the other way round."""
    if yes_no(ref) and not checks_something(cand):
        return "the reference answers yes or no; the candidate fetches details and checks nothing"
    if yes_no(cand) and not checks_something(ref):
        return "the candidate answers only yes or no; the reference fetches details"
    return None


# "place by IP", "country from a phone number": what comes after is what the tool is given ("for"
# and "with" too often qualify the object instead: "WhatsApp for Business").
_KEYED = word_set("by from using via given")


@per_tool
def name_object_and_key(tool: ToolDoc) -> tuple[frozenset[str], frozenset[str]]:
    """The stems a tool's name says it returns, and those it says it is given: the words before
    and after its first "by"/"from"/"for" ("Get place by my IP": place; ip)."""
    words = df.split_words(df.name(tool.doc) or tool.name or "")
    for i, word in enumerate(words):
        if word in _KEYED and i:
            before, after = words[:i], words[i + 1 :]
            return _stems(before), _stems(after)
    return _stems(words), frozenset()


def _stems(words: list[str]) -> frozenset[str]:
    return frozenset(
        df.stem(w)
        for w in words
        if w not in df.STOPWORDS and w not in GENERIC_NAME_WORDS and len(w) > 1
    )


def given_not_returned(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """What the step asks for is what the reference's name returns, and the candidate's name
    takes it as its input and returns something else ("Get IP" / "Get place by my IP")."""
    obj_ref, _ = name_object_and_key(ref)
    obj_cand, key_cand = name_object_and_key(cand)
    if not key_cand or obj_cand <= obj_ref:
        return None
    given = sorted(step.words & obj_ref & key_cand - obj_cand - set(returned(cand)))
    if not given:
        return None
    return (
        f"the step asks for the {given[0]}; the candidate is given a {given[0]} and returns "
        f"{' '.join(sorted(obj_cand - obj_ref))}"
    )


def described_outputs(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """A word of the step the reference's description says it gives (not an input), that the
    candidate, documenting no response, never says: "information related to an IP" does not
    show the "geolocation" the step asks for."""
    if response_fields(cand) or not _thin(cand):
        return None  # its documented fields are what it gives: asked_outputs reads them
    want = _given_of(step, ref)
    missing = unsaid(want, cand) if want else None
    if not missing:
        return None
    return f"the step asks for {_listed(missing)}; the candidate only says {_shown(cand)}"


@per_step_tool
def _given_of(step: Step, ref: ToolDoc) -> tuple[str, ...]:
    """The step's asked words the reference's description says it gives, its inputs aside."""
    inputs = param_name_keys(ref)
    gives = _gives(ref)
    return tuple(w for w in step.asked if said(w, gives) and not said(w, inputs))


# Words that say a description is about something without saying what it gives.
_VAGUE = word_set(
    """
    related regarding about associated relevant relating concerning various given provided
    specified specific certain corresponding
    """
)


@per_tool
def _thin(tool: ToolDoc) -> bool:
    """The description names nothing but the tool's own name and inputs, its provider, and
    words of no content ("Fetch information related to an IP address using the X API")."""
    own = keys_of([*df.split_words(df.name(tool.doc) or tool.name or ""), *param_words(tool)])
    text = df.description(tool.doc)
    for provider_name in (named_provider(tool), tool.platform or ""):
        if provider_name:
            text = _blanked(text, provider_name)
    for word in df.split_words(text):
        if word in df.STOPWORDS or word in GENERIC_NAME_WORDS or word in _VAGUE:
            continue
        if base_verb(word) or said(word, own) or word in ("api", "endpoint", "using"):
            continue
        return False
    return True


def _blanked(text: str, name: str) -> str:
    """``re.sub(f"(?i){re.escape(name)}", " ", text)``: every occurrence of ``name``, any case,
    left to right, replaced by a space. In ASCII text by a search in the lower-cased copy (the
    same length, so the same positions), without compiling a pattern per provider."""
    if not (name and text.isascii() and name.isascii()):
        return regex(rf"(?i){re.escape(name)}").sub(" ", text)
    low, needle = text.lower(), name.lower()
    parts, start = [], 0
    at = low.find(needle)
    while at >= 0:
        parts += [text[start:at], " "]
        start = at + len(needle)
        at = low.find(needle, start)
    return "".join(parts) + text[start:] if parts else text


_GIVEN_AS = word_set("data information info details detail results records report")


@per_tool
def _gives(tool: ToolDoc) -> frozenset[str]:
    """Keys of what a description says the tool gives: the word before "data", "information",
    "details" ("Retrieves geolocation data for ...": geolocation)."""
    words = df.split_words(df.description(tool.doc))
    found = [
        a
        for a, b in zip(words, words[1:], strict=False)
        if b in _GIVEN_AS
        and a not in df.STOPWORDS
        and a not in GENERIC_NAME_WORDS
        and not base_verb(a)
    ]
    return keys_of(found)


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


@per_tool  # a reason names it for each pair the candidate fails this point on
def _shown(tool: ToolDoc) -> str:
    fields = [w for w in response_fields(tool) if len(w) > 2][:SHOWN]
    if fields:
        return ", ".join(fields)
    name = df.name(tool.doc) or tool.name or tool.item_id
    return f"only {name!r}" + (" and its description" if df.description(tool.doc) else "")


RULES = (output_kind, answer_kind, asked_outputs, given_not_returned, described_outputs)
