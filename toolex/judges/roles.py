"""Point 5 of the verifier (toolex.judges.constraints), by parameter role: every value the step
gives has somewhere to go in the candidate.

A value the step gives is of a role: a count ("5 jokes"), a colour, a size, a format, a region, a
language, a precision ("two decimal places"). Where the reference takes that role (a parameter
whose name or description says it, or, for a behaviour, its own documentation states it) the
candidate must too: a parameter of the same role, or its documentation stating the behaviour.
Otherwise the value has nowhere to go ("a red QR code" for a generator without a colour, "cities
in the region of X" for a lister without a region). A value that is the reference's own default
("in English", default 'en') asks nothing any such tool does not do; a paged feed reaches any
count. Read off parameter names, descriptions and general value shapes, never a library's names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from toolex.judges.base import ToolDoc, per_tool
from toolex.judges.lexicon import words_of
from toolex.judges.step import Step
from toolex.judges.tool_facts import model_card, params
from toolex.tooldoc import fields as df


@dataclass(frozen=True)
class Role:
    name: str
    given: re.Pattern[str]  # how a step writes a value of the role
    carried: re.Pattern[str]  # what a parameter (name, description) of the role says
    stated: bool = False


def _words(text: str) -> str:
    return "|".join(text.split())


_NUMBER_WORDS = (
    "one two three four five six seven eight nine ten twelve fifteen twenty fifty hundred"
)
_COLOURS = (
    "red blue green black white yellow orange purple pink brown gray grey violet cyan magenta "
    "navy teal maroon gold silver"
)
_LANGUAGE_NAMES = (
    "english french german spanish italian portuguese chinese mandarin japanese korean russian "
    "arabic hindi dutch swedish polish turkish greek hebrew vietnamese thai indonesian"
)
ROLES = (
    Role(
        "colour",
        re.compile(rf"\b(?:{_words(_COLOURS)})\b", re.IGNORECASE),
        re.compile(r"colou?r", re.IGNORECASE),
    ),
    Role(
        "size",
        re.compile(r"\b\d+\s*(?:px|pixels?)\b|\bsize of \w+|\b\d+\s*x\s*\d+\b", re.IGNORECASE),
        re.compile(r"size|width|height|pixel|dimension|resolution", re.IGNORECASE),
    ),
    Role(
        "format",
        re.compile(r"\b(?:json|xml|csv|tsv|yaml|html|pdf|png|jpe?g|svg|gif|xlsx)\s+format\b", re.I),
        re.compile(r"format", re.IGNORECASE),
        stated=True,
    ),
    Role(
        "region",
        re.compile(
            r"\b(?:region|province|county|prefecture|district)\s+of\s+[A-Z][\w-]+(?:\s+[A-Z][\w-]+)*"
            r"|\b[A-Z][\w-]+\s+(?:region|province|county|prefecture|district)\b"
            r"|\b(?:region|province|county|prefecture|district)s?\b"
        ),
        re.compile(r"region|province|county|prefecture|district|state\b", re.IGNORECASE),
    ),
    Role(
        "language",
        re.compile(rf"\b(?:to|into|in)\s+(?:{_words(_LANGUAGE_NAMES)})\b", re.IGNORECASE),
        re.compile(r"lang|locale", re.IGNORECASE),
    ),
    Role(
        "precision",
        re.compile(
            rf"\b(?:\d+|{_words(_NUMBER_WORDS)})\s+(?:decimal\s+places?|decimals|digits)\b",
            re.IGNORECASE,
        ),  # fmt: skip
        re.compile(r"precision|digits|decimal places|decimals\b|\bround", re.IGNORECASE),
        stated=True,
    ),
)
# How many of what: "5 jokes", "top 10 songs"; a number of units ("3 miles", "7 days") is not a
# count of results.
_COUNT = re.compile(
    rf"\b(?:top\s+)?(?:\d{{1,3}}|{_words(_NUMBER_WORDS)})\s+(?:[a-z]+\s+)?([a-z]{{3,}}s)\b",
    re.IGNORECASE,
)
_NUMBER_OF = re.compile(r"\bnumber of\b", re.IGNORECASE)
_COUNTED = re.compile(r"^(?:limit|count|num|n|number|quantity|max|top|amount|results?)$")


def _role_param(tool: ToolDoc, role: Role) -> str | None:
    """The parameter of the role: by its name first, else by what its description says."""
    for p in params(tool):
        if role.carried.search(p.name):
            return p.name
    for p in params(tool):
        if role.carried.search(p.description):
            return p.name
    return None


def _states(tool: ToolDoc, pattern: re.Pattern[str]) -> bool:
    return bool(
        pattern.search(f"{df.name(tool.doc) or tool.name or ''} {df.description(tool.doc)}")
    )


@lru_cache(maxsize=1 << 12)
def _given(text: str) -> tuple[tuple[Role, re.Match[str]], ...]:
    """The roles a step gives a value of, in order, with where: read once per step, not once
    per pair."""
    out = []
    for role in ROLES:
        found = role.given.search(text)
        if found:
            out.append((role, found))
    return tuple(out)


def uncovered_role(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """A value the step gives whose role the reference takes (a parameter of that role, or its
    documentation states it) and the candidate neither takes nor states: "a red QR code" for a
    generator without a colour, "cities in the region of X" for a lister without a region, "to
    French" for a tool with no target language, "5 jokes" for one without a count."""
    if model_card(ref) or model_card(cand):
        return None
    text = step.subquery
    for role, found in _given(text):
        theirs = _role_param(ref, role)
        if not theirs and not (role.stated and _states(ref, role.carried)):
            continue
        if theirs and _default_of(ref, theirs, found.group()):
            continue  # the reference's own default ("in English", 'en'): any such tool's answer
        if _role_param(cand, role) or (role.stated and _states(cand, role.carried)):
            continue
        where = f"takes as {theirs!r}" if theirs else "documents"
        return (
            f"the step gives a {role.name} ({found.group().strip()!r}), which the reference "
            f"{where} and the candidate has nowhere to put"
        )
    return _uncounted(text, cand, ref)


_DEFAULT = re.compile(r"default(?:s| value)?(?:\s+(?:is|to|of))?\s*[:=]?\s*['\"]?([\w-]+)", re.I)
# ISO 639-1 codes of the named languages: a parameter's default is written as a code.
_LANGUAGE_CODES = dict(
    zip(
        _LANGUAGE_NAMES.split()[:9],
        ("en", "fr", "de", "es", "it", "pt", "zh", "zh", "ja"),
        strict=True,
    )
)


def _default_of(tool: ToolDoc, param: str, value: str) -> bool:
    """The step's value is what the parameter takes by default, by its description."""
    said_words = {w.lower() for w in df.split_words(value)}
    said_words |= {_LANGUAGE_CODES[w] for w in said_words if w in _LANGUAGE_CODES}
    for p in params(tool):
        if p.name == param:
            return any(m.group(1).lower() in said_words for m in _DEFAULT.finditer(p.description))
    return False


def _uncounted(text: str, cand: ToolDoc, ref: ToolDoc) -> str | None:
    theirs = _count_param(ref)
    if not theirs or _count_param(cand) or _pages(cand):
        return None  # a paged feed reaches any count by paging on
    about = {df.stem(w) for w in words_of(df.name(ref.doc) or "", df.description(ref.doc))}
    for m in _COUNT.finditer(text):
        if df.stem(m.group(1).lower()) in about:
            return (
                f"the step gives a count ({m.group().strip()!r}), which the reference takes as "
                f"{theirs!r} and the candidate has nowhere to put"
            )
    return None


@per_tool
def _count_param(tool: ToolDoc) -> str | None:
    for p in params(tool):
        words = [w.lower() for w in df.split_words(p.name)]
        if any(_COUNTED.match(w) for w in words) and not any(
            w in ("page", "phone", "id") for w in words
        ):
            return p.name
        if _NUMBER_OF.search(p.description) and "page" not in words:
            return p.name
    return None


_PAGING = frozenset({"cursor", "page", "offset", "next", "continuation", "skip"})


@per_tool
def _pages(tool: ToolDoc) -> bool:
    return any(w.lower() in _PAGING for p in params(tool) for w in df.split_words(p.name))
