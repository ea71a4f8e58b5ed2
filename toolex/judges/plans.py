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
forecast for Lyon"), which is a plan if that leaves no problem (``rebuilt``).
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
                f"{what} for number {s.slot} names `{leaked[0]}`; "
                + (
                    "describe the operation instead of naming a tool, API or function"
                    if field == "text"
                    else "write the plain verb or object instead of a tool, API or function name"
                ),
                s.slot,
                field,
            )
        )
    return out


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
    fixed = [replace(s, text=rebuilt_text(s)) if s.slot in wrong else s for s in subs]
    return None if problems(fixed, tools, request) else fixed


def rebuilt_text(s: SubQuery) -> str:
    """A sub-query from its operation and entity: "retrieve" + "the weather forecast for Lyon"
    (the operation once, when the entity already starts with it)."""
    operation, entity = (s.operation or "").strip(), (s.entity or "").strip()
    if _phrase(entity).startswith(_phrase(operation)):
        return entity
    return f"{operation} {entity}"


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
