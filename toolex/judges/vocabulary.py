"""How the verifier tells that a document says a word of the step: word forms, names of one
thing, and units of one quantity.

A word of a step is documented by a tool when one of its **keys** is a key of a word the tool's
documentation writes: its forms (``movies`` / ``movie``, ``categories`` / ``category``), the group
of words that name one thing (``film`` / ``movie``), and, for a unit, the quantity it measures
(``km`` / ``miles``: a unit variant is the same output, converted). General English and general
units only, never one library's vocabulary; each document's keys are worked out once
(``toolex.judges.base.per_tool``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from toolex.judges.lexicon import SYNONYM_OF, word_set
from toolex.tooldoc import fields as df

# Words that name one thing (a documented output or entity may use any of them).
SAME_THING: tuple[frozenset[str], ...] = tuple(
    word_set(group)
    for group in (
        "film movie",
        "photo image picture pic",
        "song track",
        "price cost",
        "lat latitude lon lng longitude coordinate coordinates geocode",
        "zip zipcode postcode postal",
        "ticker symbol",
        "lang language",
        "url link",
        "email mail",
        "phone telephone mobile",
        "author writer",
        "temperature temp",
        "definition meaning",
        "statistics stats",
        "information info",
        "identifier id",
        "num number",
        "amount quantity",
        "country nation",
        "car vehicle auto",
        "firm company business",
    )
)
# Units of one quantity: a step asking for kilometres is served by a tool documenting miles.
UNITS: tuple[frozenset[str], ...] = tuple(
    word_set(group)
    for group in (
        "km kms kilometer kilometers kilometre kilometres mile miles mi meter meters metre metres "
        "ft feet foot yard yards nautical",
        "celsius fahrenheit kelvin",
        "kg kilogram kilograms lb lbs pound pounds gram grams ounce ounces oz",
        "kph mph kmh knot knots",
        "liter liters litre litres gallon gallons ml",
        "usd eur gbp jpy dollar dollars euro euros",
    )
)
_GROUP_OF = {w: f"same:{i}" for i, group in enumerate(SAME_THING) for w in group}
_UNIT_OF = {w: f"unit:{i}" for i, group in enumerate(UNITS) for w in group}
_NUMBER = re.compile(r"^\d+$")


@lru_cache(maxsize=1 << 16)
def keys(word: str) -> frozenset[str]:
    """The keys under which ``word`` (lower case) matches a word of a document: its forms (as
    written, stemmed, singular), the group naming the same thing, the quantity of a unit."""
    forms = {word, df.stem(word)}
    if len(word) > 3 and word.endswith("s"):  # each form below ends so (most words do not)
        if word.endswith("ies") and len(word) > 4:
            forms.add(word[:-3] + "y")
            forms.add(word[:-1])  # movies -> movie
        if word.endswith("es") and len(word) > 4:
            forms.add(word[:-2])
        if not word.endswith("ss"):
            forms.add(word[:-1])
    out = set(forms)
    for form in forms:
        if form in _GROUP_OF:
            out.add(_GROUP_OF[form])
        if form in _UNIT_OF:
            out.add(_UNIT_OF[form])
    return frozenset(out)


def keys_of(words: Iterable[str]) -> frozenset[str]:
    """Every key of ``words`` (one document's: computed once per document by its caller). Keys
    are only ever looked up (``said``), never iterated, so the set's order plays no part."""
    return frozenset().union(*map(_number_or_keys, set(words)))


@lru_cache(maxsize=1 << 16)
def _number_or_keys(word: str) -> frozenset[str]:
    """``keys(word)``, none for a number."""
    return frozenset() if _NUMBER.match(word) else keys(word)


def said(word: str, have: frozenset[str]) -> bool:
    """Whether a document with keys ``have`` says ``word`` (an input synonym counting where
    ``have`` holds them: a request's or a parameter list's keys)."""
    return not keys(word).isdisjoint(have) or not _word_synonym_keys(word).isdisjoint(have)


@lru_cache(maxsize=1 << 16)
def _word_synonym_keys(word: str) -> frozenset[str]:
    # ``said`` asks it of the same few hundred step words once per pair it reads
    return synonym_keys((word,))


def synonym_keys(words: Iterable[str]) -> frozenset[str]:
    """The input synonym groups of ``words`` (toolex.judges.lexicon.SYNONYMS: lat / latitude,
    city / location): how a request's word fills a parameter named another way."""
    return frozenset(f"syn:{SYNONYM_OF[df.stem(w)]}" for w in words if df.stem(w) in SYNONYM_OF)
