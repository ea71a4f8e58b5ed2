"""Point 5 of the verifier (toolex.judges.checks): a value the request gives for the step has a
parameter of the candidate to go into.

The reference is known to do the step, so the request gives a value for each of its required
inputs: the block number, the quote's id, the airport. A candidate with no parameter to take one
of them cannot honour it ("the latest block" for "block 1234", "all quotes of a driver" for "quote
59"). Likewise a setting the step asks for that the reference takes as a parameter ("routes by
airline", "a word of length 7"): the candidate must take it too. A parameter takes a value when
its name says the same thing (a word form, an input synonym: lat / latitude, city / location;
toolex.judges.vocabulary), or both are payloads, or both identify a place. Model cards are left
alone: their arguments load the model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from toolex.judges import roles
from toolex.judges.base import ToolDoc, per_tool
from toolex.judges.inputs import (
    is_payload,
    name_words,
    param_description_keys,
    param_name_keys,
    plumbing,
    required_params,
    step_param_missing,
)
from toolex.judges.lexicon import word_set
from toolex.judges.step import Step, written
from toolex.judges.tool_facts import model_card, params
from toolex.judges.vocabulary import said
from toolex.tooldoc import fields as df

# Inputs that say where: a place given one way fills a parameter asking it another way.
PLACE_WORDS = frozenset(
    df.stem(w)
    for w in word_set(
        """
        city location place address area region zip zipcode postcode postal lat lng lon
        latitude longitude coordinate coordinates geo point
        """
    )
)


def setting(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    return step_param_missing(step.texts, cand, ref)


def unhomed_values(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """A required input of the reference (a value the request gives) that no parameter of the
    candidate takes."""
    if model_card(ref) or model_card(cand):
        return None
    theirs = param_name_keys(cand)
    for p in required_params(ref):
        if plumbing(p.name) or _homed(p.name, cand, theirs):
            continue
        return (
            f"the request gives the reference's {p.name!r}; no parameter of the candidate takes it"
        )
    return None


def _homed(name: str, cand: ToolDoc, theirs: frozenset[str]) -> bool:
    if is_payload(name) and _takes_payload(cand):
        return True
    words = name_words(name)
    if not words:
        return True  # "x", "q": a bare value, whatever the candidate calls it
    if any(df.stem(w) in PLACE_WORDS for w in words) and _takes_place(cand):
        return True
    described = param_description_keys(cand)
    return all(said(w, theirs) for w in words) or all(said(w, described) for w in words)


@per_tool
def _takes_payload(tool: ToolDoc) -> bool:
    return any(is_payload(p.name) for p in params(tool))


@per_tool
def _takes_place(tool: ToolDoc) -> bool:
    return any(df.stem(w) in PLACE_WORDS for p in params(tool) for w in df.split_words(p.name))


_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])|(?<=[-_])\d+(?:\.\d+)?")


def named_number(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """A number the step writes that the reference's name carries ("under-54", "over 2.5
    goals") and the candidate's name and description never write: the candidate serves
    another value ("under-58", "over 1.5")."""
    said_numbers = _numbers(step.subquery)
    for number in sorted(said_numbers & _name_numbers(ref)):
        if number not in _name_numbers(cand) and number not in _described_numbers(cand):
            return (
                f"the step asks for {number}, which the reference's name says and the candidate "
                "never does"
            )
    return None


@lru_cache(maxsize=1 << 12)  # a step's numbers, once per step rather than per pair
def _numbers(text: str) -> frozenset[str]:
    return frozenset(_NUMBER.findall(text))


@per_tool
def _name_numbers(tool: ToolDoc) -> frozenset[str]:
    return frozenset(_NUMBER.findall(df.name(tool.doc) or tool.name or ""))


@per_tool
def _described_numbers(tool: ToolDoc) -> frozenset[str]:
    return frozenset(_NUMBER.findall(df.description(tool.doc)))


@per_tool
def _unnumbered(tool: ToolDoc) -> str:
    """The tool's name, lower case, each number in it written ``#``."""
    return _NUMBER.sub("#", df.name(tool.doc) or tool.name or "").lower()


def sibling_number(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The two names are one name but for a number ("Best Sign 1" / "Best Sign 2"), and the
    request writes the candidate's number too: it asks for each sibling apart, so one does not
    stand in for the other."""
    if _unnumbered(ref) != _unnumbered(cand):
        return None
    rn, cn = df.name(ref.doc) or ref.name or "", df.name(cand.doc) or cand.name or ""
    if rn == cn:
        return None
    said_numbers = _numbers(step.subquery) | _numbers(step.request)
    theirs = set(_NUMBER.findall(cn)) - set(_NUMBER.findall(rn))
    if not theirs & said_numbers:
        return None
    return f"the request asks {rn!r} and {cn!r} apart: siblings a number apart"


# Parameters that take free text; a filter by category, type or genre takes one of a few
# values the provider defines, not the user's words.
_FREE_TEXT = frozenset(
    df.stem(w) for w in word_set("query q search term terms keyword keywords text phrase string")
)
_QUOTED = re.compile(r"'[^']+'|\"[^\"]+\"")


@per_tool
def _free_text(tool: ToolDoc) -> str | None:
    for p in params(tool):
        if any(df.stem(w) in _FREE_TEXT for w in df.split_words(p.name)) or p.name.lower() == "q":
            return p.name
    return None


_FILTERS = frozenset(
    df.stem(w) for w in word_set("category categories type types genre tag tags topic kind")
)


@per_tool
def _filters_only(tool: ToolDoc) -> bool:
    """The tool takes a category-like filter and nothing else a user's words could go into
    (paging and format aside)."""
    words = [[df.stem(w) for w in df.split_words(p.name)] for p in params(tool)]
    filters = [ws for ws in words if ws and ws[-1] in _FILTERS]
    rest = [p for p, ws in zip(params(tool), words, strict=True) if not (ws and ws[-1] in _FILTERS)]
    return bool(filters) and all(plumbing(p.name) for p in rest)


def free_text(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The step gives words to look for ('music') and the reference searches free text for
    them; the candidate takes no free text (at most a category it defines): it cannot search
    for the user's words."""
    ref_param = _free_text(ref)
    if not ref_param or not _QUOTED.search(step.subquery) or not _filters_only(cand):
        return None
    return (
        f"the step gives words to search for, which the reference takes as {ref_param!r}; the "
        "candidate takes only a category"
    )


# Values of a kind a parameter of that kind takes: a currency named by code or name.
_KINDS = {
    "currency": word_set(
        """
        currency currencies usd eur jpy gbp cny rmb inr aud cad chf krw rub brl mxn yen euro
        euros dollar dollars pound pounds sterling yuan rupee rupees franc francs won ruble
        rubles peso pesos real reais
        """
    ),
}


def value_kind(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The step gives a value of a kind (a currency: "in Japanese Yen") that the reference
    takes as a parameter of that kind and the candidate has no parameter for."""
    said_words = written(step)
    for kind, values in _KINDS.items():
        given = sorted(said_words & values - {kind})
        if not given:
            continue
        if _takes_kind(ref, kind) and not _takes_kind(cand, kind):
            return (
                f"the step gives a {kind} ({given[0]}), which the reference takes and the "
                "candidate cannot"
            )
    return None


def _takes_kind(tool: ToolDoc, kind: str) -> bool:
    return any(kind in df.split_words(p.name) for p in params(tool))


RULES = (
    setting,
    named_number,
    sibling_number,
    value_kind,
    free_text,
    unhomed_values,
    roles.uncovered_role,
)
