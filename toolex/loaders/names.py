"""A tool's name read off the shape of its description, for items loaded with a text and no name.

An item given only ``id`` and ``text`` has no name, and the judges then read a tool that says
what it does but not what it is called (the offline verifier compares names, the decomposer
keeps them out of sub-queries). Many such texts open with their name all the same, in one of a
few shapes, each a rule about how the text is laid out (no word list, no model):

* a signature: an identifier followed at once by ``(`` — ``get_weather(city: str) -> dict``;
* a heading: an identifier, or up to six title-case words, then ``:`` and the description —
  ``search_books: Search the catalogue``, ``Weather Forecast: Daily forecast for a city``; a
  heading that labels a field (``Description:``, ``Note:``) is no name, and ``Name: X`` (or
  ``Tool: X``, ``Function name: X``) names X;
* the first sentence's subject, when it is code-shaped (an underscore, a capital inside a word,
  a dot between words, or backquotes) — ``getWeather returns the forecast``, ``The `get_weather`
  tool returns ...``; an English word is never taken for a name.

Anything else gives no name: a wrong name would mislead the judges more than none.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# An identifier as tool names are written: words joined by _ . - / (get_weather, v1/search).
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*(?:[.\-/][A-Za-z0-9_]+)*"
_TITLE_WORD = r"[A-Z0-9][\w'&+-]*"
_SMALL_WORD = r"(?:a|an|and|by|for|from|in|of|on|or|the|to|with)"
_TITLE = rf"{_TITLE_WORD}(?:\s+(?:{_SMALL_WORD}\s+)*{_TITLE_WORD}){{0,5}}"
_SIGNATURE = re.compile(rf"\s*`?({_IDENT})`?\(")
_HEADING = re.compile(rf"\s*(?:`({_IDENT})`|({_IDENT})|({_TITLE}))\s*:\s+(\S.*)", re.S)
_SUBJECT = re.compile(rf"\s*(?:(?:the|this|a|an)\s+)?(`{_IDENT}`|{_IDENT})(?=[\s,;.]|$)", re.I)
_CODE_SHAPED = re.compile(r"_|[a-z][A-Z]|\w\w\.\w\w")  # not e.g. or i.e.
# Headings that label a field of a description, not a tool ("Description: ...").
_FIELD_HEADINGS = frozenset(
    {
        "description", "summary", "note", "notes", "usage", "example", "examples", "return",
        "returns", "input", "inputs", "output", "outputs", "parameters", "parameter", "params",
        "args", "arguments", "purpose", "warning", "important", "overview", "tags", "category",
        "type", "info", "deprecated", "response", "responses", "result", "results", "request",
    }
)  # fmt: skip
# Headings whose value is the name ("Name: get_weather").
_NAME_HEADINGS = frozenset(
    ["name", "tool", "function", "api", "tool name", "function name", "api name", "endpoint"]
)
_NAME_VALUE = re.compile(rf"\s*`?({_IDENT}|{_TITLE})`?\s*(?:$|[\n.;,])")
MAX_NAME = 64  # longer is a sentence, not a name


class DerivedName(NamedTuple):
    name: str
    description: str  # the text without its heading (the text itself for other shapes)
    shape: str  # "name(args)", "name: description" or "subject"


def name_from_text(text: str) -> DerivedName | None:
    """The name ``text`` opens with, by the rules of the module docstring, or None."""
    first = text.lstrip()
    if not first:
        return None
    if (match := _SIGNATURE.match(first)) is not None:
        return _named(match.group(1), text, "name(args)")
    if (match := _HEADING.match(first)) is not None:
        heading = match.group(1) or match.group(2) or match.group(3)
        rest = match.group(4).strip()
        if heading.lower() in _NAME_HEADINGS:
            value = _NAME_VALUE.match(rest)
            return _named(value.group(1), text, "name: description") if value else None
        if heading.lower() not in _FIELD_HEADINGS and rest:
            return _named(heading, rest, "name: description")
    if (match := _SUBJECT.match(first)) is not None:
        word = match.group(1)
        if word.startswith("`") or _CODE_SHAPED.search(word):
            return _named(word.strip("`"), text, "subject")
    return None


def _named(name: str, description: str, shape: str) -> DerivedName | None:
    name = name.strip()
    if not name or len(name) > MAX_NAME:
        return None
    return DerivedName(name, description, shape)
