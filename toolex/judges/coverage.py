"""Point 4 of the verifier (toolex.judges.checks), what a tool covers: the country or region it
serves, and the variant of a subject its platform names.

- A tool that says it serves one country ("lookup locations in Uganda", "Egypt API") covers that
  country only: it stands in for another tool only where the step, the request or the reference
  is about that country too, or it takes the country as an input.
- A platform is named for its subject ("Movie and TV shows Quotes", ``RugbyAPI2``): a step that
  says a word of the reference's platform ("a quote for a film buff who loves movies") is about
  that subject, and a candidate that never says it serves something else ("Anime Quotes").

Countries are general knowledge (``COUNTRIES``), never one library's names.
"""

from __future__ import annotations

import re

from toolex.judges.base import ToolDoc, per_step_tool, per_tool
from toolex.judges.lexicon import (
    GENERIC_ACRONYMS,
    GENERIC_NAME_WORDS,
    VARIANT_WORDS,
    base_verb,
    word_set,
    words_of,
)
from toolex.judges.outputs import documented_keys, unsaid
from toolex.judges.scope import named_terms, objects, scope_param
from toolex.judges.step import Step, written
from toolex.judges.vocabulary import said
from toolex.tooldoc import fields as df

COUNTRIES = word_set(
    """
    afghanistan albania algeria andorra angola argentina armenia australia austria azerbaijan
    bahamas bahrain bangladesh barbados belarus belgium belize benin bhutan bolivia bosnia
    botswana brazil brunei bulgaria burundi cambodia cameroon canada chad chile china colombia
    comoros congo croatia cuba cyprus czechia denmark djibouti dominica ecuador egypt eritrea
    estonia eswatini ethiopia fiji finland france gabon gambia georgia germany ghana greece
    grenada guatemala guinea guyana haiti honduras hungary iceland india indonesia iran iraq
    ireland israel italy jamaica japan jordan kazakhstan kenya kiribati kosovo kuwait kyrgyzstan
    laos latvia lebanon lesotho liberia libya liechtenstein lithuania luxembourg madagascar
    malawi malaysia maldives mali malta mauritania mauritius mexico micronesia moldova monaco
    mongolia montenegro morocco mozambique myanmar namibia nauru nepal netherlands nicaragua
    niger nigeria norway oman pakistan palau palestine panama paraguay peru philippines poland
    portugal qatar romania russia rwanda samoa senegal serbia seychelles singapore slovakia
    slovenia somalia spain sudan suriname sweden switzerland syria taiwan tajikistan tanzania
    thailand togo tonga tunisia turkey turkmenistan tuvalu uganda ukraine uruguay uzbekistan
    vanuatu venezuela vietnam yemen zambia zimbabwe
    """
)
# Languages a model or a service may be limited to.
LANGUAGES = word_set(
    """
    english chinese mandarin cantonese french german spanish italian portuguese russian
    japanese korean arabic hindi bengali urdu dutch swedish norwegian danish finnish polish
    czech greek turkish hebrew persian thai vietnamese indonesian malay tagalog swahili
    ukrainian romanian hungarian catalan
    """
)
# How a description says a tool serves a place: "locations in Uganda", "holidays of Kenya".
_SERVES_IN = re.compile(r"\b(?:in|of|for|across|within)\s+([a-z]+)")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
# A provider's re-upload suffix ("Twitter Data_v2") and a trailing "API", said of every platform.
_UPLOAD = re.compile(r"(?:_v\d+|api\d*)$", re.IGNORECASE)


@per_tool
def countries(tool: ToolDoc) -> frozenset[str]:
    """The countries a tool says it serves: named in its platform or name, or after "in", "of",
    "for" in its description."""
    named = words_of(tool.platform or "", df.name(tool.doc) or tool.name or "")
    found = {w for w in named if w in COUNTRIES}
    found |= {w for w in _SERVES_IN.findall(df.description(tool.doc).lower()) if w in COUNTRIES}
    return frozenset(found)


def country(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The two tools serve two countries; or the candidate serves a country the step, the
    request and the reference never name while the request gives a place (a name, a postcode)
    that may lie outside it. Neither may take the country as an input (then it is a setting)."""
    if scope_param(cand, within=False):
        return None
    asked = written(step) & COUNTRIES
    theirs, own = countries(cand), countries(ref)
    if not theirs or theirs & (own | asked):
        return None
    if own:
        return (
            f"the reference serves {sorted(own)[0].title()}, the candidate "
            f"{sorted(theirs)[0].title()}"
        )
    if gives_place(step):
        return (
            f"the candidate serves {sorted(theirs)[0].title()} only, and the request's place is "
            "not said to be there"
        )
    return None


def gives_place(step: Step) -> bool:
    """Whether the request gives a place the way people write one: a capitalised name that is
    not a tool's ("Cairo", not "the JobSearch API"), or a postcode-like code ("CF103NP")."""
    for text in step.texts:
        if _POSTCODE.search(text):
            return True
        for term in named_terms(text):
            words = {w.lower() for w in term.split()}
            if not words & _KIND_WORDS and term.lower() not in GENERIC_ACRONYMS:
                return True
    return False


_POSTCODE = re.compile(r"\b(?=[A-Z0-9]{5,8}\b)(?=[A-Z0-9]*\d)[A-Z]{1,2}\d[A-Z0-9]*\b")
_ARTICLES = word_set("a an the each every this that one")
_KIND_WORDS = word_set("api apis tool tools service app application website site endpoint")


@per_tool
def platform_terms(tool: ToolDoc) -> tuple[str, ...]:
    """The words of a tool's platform, lower case: split at punctuation and at capitals
    ("LightningRoulletteAPI" -> lightning, roullette), a re-upload suffix and a trailing "API"
    dropped, words of the trade (api, data, free, pro) left out."""
    out = []
    for token in re.findall(r"[A-Za-z0-9]+", _UPLOAD.sub("", (tool.platform or "").strip())):
        token = _UPLOAD.sub("", token)
        for part in _CAMEL.findall(token) or [token]:
            word = part.lower()
            if (
                (len(word) > 2 or word.isdigit())
                and word not in df.STOPWORDS
                and word not in GENERIC_NAME_WORDS
                and word not in VARIANT_WORDS
                and word not in GENERIC_ACRONYMS
                and word not in _KIND_WORDS
            ):
                out.append(word)
    return tuple(dict.fromkeys(out))


def platform_subject(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """A word of the reference's platform that the step or the request says, and that the
    candidate's documentation never says (nor a parameter of it chooses)."""
    if scope_param(cand):
        return None
    words = _platform_said(step, ref)
    if not words:
        return None
    missing = unsaid(words, cand)
    if not missing:
        return None
    return (
        f"the step is about {missing[0]!r}, which the reference's platform names and the "
        "candidate never says"
    )


@per_step_tool
def _platform_said(step: Step, ref: ToolDoc) -> tuple[str, ...]:
    """The words of the reference's platform the step or the request says, in order."""
    return tuple(
        word
        for word in platform_terms(ref)
        if not (word.isdigit() or len(word) < 4) and said(word, step.keys)
    )


@per_tool
def languages(tool: ToolDoc) -> frozenset[str]:
    """The natural languages a tool's name or description names."""
    name = df.name(tool.doc) or tool.name or ""
    return frozenset(w for w in words_of(name, df.description(tool.doc)) if w in LANGUAGES)


def language(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The candidate names only languages that the step, the request and the reference never
    name (a Chinese speech model for a step in English): it serves another language. English is
    what a step is written in, so a tool naming it serves the step's language."""
    theirs = languages(cand)
    if not theirs or "english" in theirs or scope_param(cand, within=False):
        return None
    asked = written(step) & LANGUAGES
    if theirs & (languages(ref) | asked):
        return None
    return f"the candidate serves {sorted(theirs)[0].title()}, which the step never asks for"


def narrower_path(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The candidate's path is the reference's with more segments that the step and the request
    never say (``/us`` -> ``/us/ca``: the national figure -> one state's)."""
    own, theirs = _segments(ref), _segments(cand)
    if not own or len(theirs) <= len(own) or theirs[: len(own)] != own:
        return None
    extra = [seg for seg in theirs[len(own) :] if not _said_segment(seg, step)]
    if not extra:
        return None
    return (
        f"the candidate narrows the reference's {'/'.join(own)!r} to "
        f"{'/'.join(theirs)!r}, which the step never asks"
    )


@per_tool
def _segments(tool: ToolDoc) -> tuple[str, ...]:
    """A path-like name's segments, lower case, parameters in braces left out."""
    name = df.name(tool.doc) or tool.name or ""
    if "/" not in name or " " in name.strip():
        return ()
    return tuple(seg.lower() for seg in name.strip().split("/") if seg and not seg.startswith("{"))


def _said_segment(segment: str, step: Step) -> bool:
    words = df.split_words(segment)
    return bool(words) and all(said(w, step.keys) for w in words)


def modifier(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The object both names share is qualified by two words in the two descriptions, each
    never said by the other tool nor by the step ("a road vehicle" / "a launch vehicle",
    "men's marks" / "women's marks"): two kinds of one thing."""
    shared = objects(ref) & objects(cand)
    for obj in sorted(shared):
        a, b = _modifier(ref, obj), _modifier(cand, obj)
        if not a or not b or a == b:
            continue
        if said(a, documented_keys(cand)) or said(b, documented_keys(ref)):
            continue
        if said(b, step.keys):
            continue
        return f"the reference is about a {a} {obj}, the candidate about a {b} {obj}"
    return None


def _modifier(tool: ToolDoc, obj: str) -> str | None:
    """The word right before ``obj`` where the tool's description first says it, when it
    qualifies it (not a function word, a verb or a number)."""
    return _modifiers(tool).get(obj)


@per_tool
def _modifiers(tool: ToolDoc) -> dict[str, str | None]:
    """``_modifier`` of every stem the description says after its first word, read in one pass
    (a rule asks it of each object two names share, for every pair). Nobody changes it."""
    words = df.split_words(df.description(tool.doc))
    out: dict[str, str | None] = {}
    for i, word in enumerate(words[1:], 1):
        obj = df.stem(word)
        if obj not in out:  # the first mention decides
            out[obj] = _qualifying(words, i)
    return out


def _qualifying(words: list[str], i: int) -> str | None:
    before = words[i - 1]
    after_article = i > 1 and words[i - 2] in _ARTICLES  # "a launch vehicle"
    if before in df.STOPWORDS or before.isdigit() or len(before) < 3:
        return None
    if base_verb(before) and not after_article:
        return None
    return before if before not in GENERIC_NAME_WORDS else None


RULES = (country, language, platform_subject, narrower_path, modifier)
