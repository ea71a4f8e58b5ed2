"""What the offline judge reads off one tool's documentation, once per tool: the words it says
it does things with, the words naming what it returns, and the provider that publishes it.

Each depends on one document only, so the evidence reader, the library's word weights and the
audit read one definition, memoised per tool (``toolex.judges.base.per_tool``, keyed by item id
and rendered text).
"""

from __future__ import annotations

import re

from toolex.judges.base import ToolDoc, per_tool
from toolex.judges.lexicon import content_of
from toolex.tooldoc import fields as df


def described_words(tool: ToolDoc) -> list[str]:
    """The stemmed content words of a tool's name, description and parameters (their names and
    descriptions), in order, repeats kept."""
    doc = tool.doc
    parts = [df.name(doc) or (tool.name or ""), df.description(doc)]
    parts += [f"{p.name} {p.description}" for p in df.params(doc)]
    return content_of(*parts)


def about_words(tool: ToolDoc) -> frozenset[str]:
    """The content words of a tool's name and description: what it says it does."""
    return frozenset(content_of(df.name(tool.doc) or tool.name or "", df.description(tool.doc)))


@per_tool
def returned(tool: ToolDoc) -> frozenset[str]:
    """Stemmed words naming what the tool returns (``tooldoc.fields.returns_tokens``)."""
    return frozenset(df.returns_tokens(tool.doc))


def provider(tool: ToolDoc) -> str:
    """The platform that publishes the tool, as rules compare it ('' when none is known): two
    endpoints of one provider are siblings; an id of one provider does not travel to another."""
    return (tool.platform or "").strip().lower()


def model_card(tool: ToolDoc) -> bool:
    """A model card (the call that loads it, or the framework it runs in, documented) rather
    than an endpoint or a function: its arguments load the model, its name is a checkpoint id
    (``org/model``; a REST path such as ``coins/get-chart`` is no model)."""
    return "api_call" in tool.doc or "framework" in tool.doc


# A Python signature in a function's documentation: "def find_median(numbers, sorted=True):".
_SIGNATURE = re.compile(r"\bdef\s+\w+\s*\(([^)]*)\)")


@per_tool
def params(tool: ToolDoc) -> tuple[df.Param, ...]:
    """A tool's documented inputs (``tooldoc.fields.params``), or, for a function documented only
    by its code, the arguments of its signature (required unless given a default)."""
    found = df.params(tool.doc)
    if found:
        return tuple(found)
    code = " ".join(str(tool.doc.get(k) or "") for k in ("func_description", "description"))
    m = _SIGNATURE.search(code) if "def" in code else None  # a model card's long text: no scan
    if not m:
        return ()
    out = []
    for arg in m.group(1).split(","):
        name = arg.split(":")[0].split("=")[0].strip().lstrip("*")
        if name and name not in ("self", "cls") and name.isidentifier():
            out.append(df.Param(name, "=" not in arg))
    return tuple(out)


# "... using the Wayfair API", "from the Tennis Live Data API", "from Provider3 using the ...
# service": the provider a function's description names when no platform field does. A name
# before "service" alone is left out: there descriptions name the marketplace that hosts the
# function ("using the ... service"), shared by providers that have nothing else in common.
_NAMED_PROVIDER = re.compile(
    r"\b(?:using|from|via|with|through|by|on|of)\s+(?:the\s+)?"
    r"((?:(?:[A-Z0-9][\w.&'+-]*|and|of|&)\s+){0,5}?[A-Z0-9][\w.&'+-]*)"
    r"(?:\s+(?:API|APIs|endpoint|platform|database)\b|\s+using\b)"
)


@per_tool
def named_provider(tool: ToolDoc) -> str:
    """The provider a tool is published by: its platform, or else the provider its description
    names ("using the Wayfair API"), lower case ('' when neither says). Generated function
    libraries carry no platform field but name the provider in the description, and their ids
    and catalogues are that provider's as much as a platform's are."""
    if provider(tool):
        return provider(tool)
    m = _NAMED_PROVIDER.search(df.description(tool.doc))
    return m.group(1).strip().lower() if m else ""
