"""What makes a decomposition a plan: one step per ground-truth tool, told without naming it.

A decomposition is a plan when none of its sub-queries names a ground-truth tool (its text, its
operation or its entity) and it is split into steps: no two slots share one text (case and
punctuation aside), and, for a query of two or more tools, no sub-query is the whole request
(it writes the request out, or holds every content word of a request of
``WHOLE_REQUEST_WORDS`` or more). The strict parser of LLM answers (toolex.judges.parse) and the
decompose stage's check of every judge's answer (toolex.pipeline.decompose) apply this one rule.

Names: a ground-truth name counts as written, case-insensitively, when an identifier-like name
(``_``, ``.``, ``/``, a digit or camelCase) is written out as it is, or written as its words
(``get_weather`` as "get weather"), or a plain name of two or more words appears as a phrase,
unless the request itself writes it (the user's own words are fair). Single plain words
("Weather", an item whose id is ``search``) are vocabulary. The rule is
``toolex.tooldoc.fields.leaked_name``.

When only texts are wrong and the operations and entities are clean, the plan can be rebuilt
without the model: each wrong text becomes its operation and entity ("retrieve" + "the weather
forecast for Lyon") with the request's details the text wrote for that step ("in the
'Electronics' category"), which is a plan if that leaves no problem (``rebuilt``); the LLM path
takes it at once rather than asking again (toolex.llm.executor).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import NamedTuple

from toolex.judges.base import SubQuery, ToolDoc
from toolex.tooldoc import fields

WHOLE_REQUEST_WORDS = 5  # content words from which a sub-query holding them all is the request


class Problem(NamedTuple):
    """Why a plan is not one: for the ledger (``message``), for the model's retry (``hint``),
    and which slot it is about."""

    message: str
    hint: str
    slot: int
    field: str  # text | operation | entity


def problems(subs: Sequence[SubQuery], tools: Sequence[ToolDoc], request: str) -> list[Problem]:
    """Every problem of ``subs`` (a decomposition, in slot order), names first."""
    return [p for s in subs for p in _field_names(s, tools, request)] + unsplit(subs, request)


def unsplit(subs: Sequence[SubQuery], request: str) -> list[Problem]:
    """Where ``subs`` is not split into steps: slots sharing a text, and (two or more slots) a
    sub-query that is the whole request."""
    found: list[Problem] = []
    first: dict[str, int] = {}  # a normalised text -> the first slot that writes it
    for s in subs:
        same = first.setdefault(_phrase(s.text), s.slot)
        if same != s.slot:
            found += [
                Problem(
                    f"sub-queries {same} and {s.slot} have the same text",
                    f"numbers {same} and {s.slot} have the same sub-query; each describes the "
                    "one step its own tool performs",
                    slot,
                    "text",
                )
                for slot in (same, s.slot)
            ]
        if len(subs) > 1 and whole_request(s.text, request):
            found.append(
                Problem(
                    f"sub-query {s.slot} is the whole request, not one step",
                    f"the sub-query for number {s.slot} is the whole request; describe only the "
                    "step its tool performs",
                    s.slot,
                    "text",
                )
            )
    return found


def _field_names(s: SubQuery, tools: Sequence[ToolDoc], request: str) -> list[Problem]:
    out = []
    for field in ("text", "operation", "entity"):
        value = getattr(s, field)
        leaked = leaked_names(value, tools, request) if value else []
        if not leaked:
            continue
        what = "the sub-query" if field == "text" else f"the {field}"
        out.append(
            Problem(
                f"sub-query {s.slot}: the {field} names a ground-truth tool/API ({leaked[0]!r})",
                f"{what} for number {s.slot} names `{leaked[0]}`; " + _FIX[field],
                s.slot,
                field,
            )
        )
    return out


# What a hint asks for, so that doing it is accepted (issue 35.11): the request's own words
# are never a leak (``fields.leaked_name``), nor is one plain verb (a name is two words or an
# identifier); "write the plain verb" of ``DeleteAccount`` was "delete account", its name again.
_FIX = {
    "text": "describe the step in the words of the request instead of naming a tool, API or "
    "function",
    "operation": "write the operation as one plain verb, not a tool, API or function name",
    "entity": "write what the step acts on in the words of the request, not a tool, API or "
    "function name",
}


def whole_request(text: str, request: str) -> bool:
    """Whether ``text`` is the request rather than one step of it: it writes the request out,
    or holds every content word of a request of ``WHOLE_REQUEST_WORDS`` or more."""
    if not _phrase(request).strip():
        return False
    if _phrase(request) in _phrase(text):
        return True
    wanted = set(fields.content_tokens(request))
    return len(wanted) >= WHOLE_REQUEST_WORDS and wanted <= set(fields.content_tokens(text))


def rebuilt(
    subs: Sequence[SubQuery], found: Sequence[Problem], tools: Sequence[ToolDoc], request: str
) -> list[SubQuery] | None:
    """``subs`` with the texts ``found`` faults rebuilt from their operation and entity, when
    only texts are at fault and the rebuilt plan has no problem; else None."""
    if any(p.field != "text" for p in found):
        return None
    wrong = {p.slot for p in found}
    if any(not s.operation or not s.entity for s in subs if s.slot in wrong):
        return None
    fixed = [
        replace(s, text=rebuilt_text(s, request, tools)) if s.slot in wrong else s for s in subs
    ]
    return None if problems(fixed, tools, request) else fixed


def rebuilt_text(s: SubQuery, request: str = "", tools: Sequence[ToolDoc] = ()) -> str:
    """A sub-query from its operation and entity: "retrieve" + "the weather forecast for Lyon"
    (the operation once, when the entity already starts with it), with the request's details
    for this step that the rejected text wrote and they lack (issue 35.12): each phrase of it
    that a preposition opens, says only words of the request, adds words and names no tool
    ("list" + "products" + "in the 'Electronics' category", from "use GetProducts to list
    products in the 'Electronics' category")."""
    operation, entity = (s.operation or "").strip(), (s.entity or "").strip()
    base = entity if _phrase(entity).startswith(_phrase(operation)) else f"{operation} {entity}"
    said = set(fields.content_tokens(request))
    have = set(fields.content_tokens(base))
    details = []
    for phrase in _PREPOSITION.split(s.text)[1:]:
        phrase = phrase.strip(" ,;:.?!")
        words = set(fields.content_tokens(phrase))
        if (
            words
            and words <= said
            and not words <= have
            and not leaked_names(phrase, tools, request)
        ):
            details.append(phrase)
            have |= words
    return " ".join([base, *details])


_PREPOSITION = re.compile(
    r"\s+(?=(?:in|of|on|at|for|from|with|by|about|near|between|during|within|under|over)\s)",
    re.IGNORECASE,
)


# -- names -----------------------------------------------------------------------------------

_NAME_KEYS = ("name", "api_name", "tool_name", "function_name", "title")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_WORD = re.compile(r"[a-z0-9]+")


def _phrase(text: str) -> str:
    """``text`` as padded lower-case words: equal for texts that differ in case and punctuation
    only, and a whole-word ``in`` test for phrases."""
    return " " + " ".join(_WORD.findall(_CAMEL.sub(" ", text).lower())) + " "


def tool_names(tool: ToolDoc) -> list[str]:
    names = [tool.name, tool.platform, tool.item_id]
    names += [tool.doc.get(k) for k in _NAME_KEYS if isinstance(tool.doc, dict)]
    return [n.strip() for n in names if isinstance(n, str) and n.strip()]


def leaked_names(text: str, tools: Iterable[ToolDoc], request: str = "") -> list[str]:
    """Ground-truth names that appear in ``text``, by the one rule of
    ``toolex.tooldoc.fields.leaked_name`` (identifiers as written or as words; plain names of
    two or more words; nothing the ``request`` itself writes); see the module docstring."""
    found = []
    for tool in tools:
        for raw in tool_names(tool):
            # A ToolBench id "tool::api" is two names, not one identifier.
            parts = fields.name_parts(raw)
            if len(parts) > 1 and fields.leaked_name(text, raw, min_words=2, request=request):
                found.append(raw)  # the whole id written out
            for part in dict.fromkeys(parts):
                if fields.leaked_name(
                    text, part, min_words=2, request=request, split_identifiers=True
                ):
                    found.append(part)
    return list(dict.fromkeys(found))
