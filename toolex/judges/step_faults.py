"""Three ways a sub-query fails Stage 1, each read off the request, the sub-queries and the
tools' documentation alone (never off how a decomposer made them, never off a library's names).

A Stage 1 sub-query states one step in the request's words, with the request's values for that
step only (issue 32). So, for one decomposition:

1. **Whole request** (a query of two or more tools): the sub-query is the request, not a step
   of it: it writes the request out, or holds every content word of a request of five or more
   (``toolex.judges.plans.whole_request``, the rule the LLM path's parser applies).
2. **Response keys**: the sub-query has a word its tool documents only as a key of its response
   (``template_response``, ``responses``, ``output_parameters``: "Get the success and message"),
   that neither the request nor the tool's name, description or parameters say. A response's
   field names are how a tool answers, not what the request asks.
3. **Another step's values**: the sub-query holds a value of the request (a quoted value, a
   code or number, a capitalised name: ``toolex.judges.clauses.constraints``) that only pieces
   of the request bound to other steps write. The pieces are the request's clauses
   (``toolex.judges.clauses``) cut at the commas and "and"/"or" of their lists, the phrase a
   list's items share apart ("the HSN/TSN data for a 2020 Toyota Corolla | and the mould
   information for tenant '67890'"; "the ZIP code | and the coordinates | of the IP address
   8.8.8.8"). A sub-query *states* a piece when it holds at least half (and two) of the
   piece's content words other than its values and its asking ("Please help me"). A piece of
   an outright ask ("Can you ...", "Please ...", an imperative) is bound to the step that
   states it, or, stated by none, to a step left unsaid; a piece of a wish ("I want to know
   ...") is bound when another sub-query states it; a statement ("I'm a fan of 'gmhikaru' on
   Kick.com") is context, whose values every step may keep. A value some unbound piece
   writes, or that a piece the sub-query states writes, or that the step's own tool's
   documentation writes ("MM/DD/YYYY"), is the step's to keep.

benchmarks/subquery_quality.py counts them over every query of the shared benchmarks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import NamedTuple

from toolex.judges.base import SubQuery, ToolDoc, per_tool
from toolex.judges.clauses import (
    Clause,
    clauses,
    cleaned,
    constraints,
    list_items,
    shared_tail,
)
from toolex.judges.plans import whole_request
from toolex.tooldoc import fields as df

STATED_SHARE = 0.5  # of a piece's content words (values aside) a sub-query holds to state it
MIN_WORDS = 2  # content words (values aside) a piece needs for a sub-query to state it
_RESPONSE_KEYS = ("template_response", "responses", "response", "output_parameters", "returns")
_QUOTES = "'\"“”"


class StepFaults(NamedTuple):
    """One sub-query's faults (empty: none of that kind)."""

    slot: int
    whole_request: bool
    response_keys: tuple[str, ...]  # the words, as the sub-query writes them
    other_values: tuple[str, ...]  # the values, as the request writes them


def faults(request: str, subs: Sequence[SubQuery], tools: Sequence[ToolDoc]) -> list[StepFaults]:
    """The faults of each sub-query of one decomposition of ``request`` (slot order)."""
    found = clauses(request)
    pieces = [(i, c) for c in found for i in _pieces(c.text)] or [(request, Clause(request, True))]
    texts = [text for text, _ in pieces]
    values = [[v for v in constraints(t) if _bare(v)] for t in texts]
    states = [[_states(s.text, t, vs) for t, vs in zip(texts, values, strict=True)] for s in subs]
    out = []
    for i, s in enumerate(subs):
        others = [j for j in range(len(subs)) if j != i]
        # a piece is bound to a step other than sub-query i's (see the module docstring)
        bound = [
            _stateable(texts[p], values[p])
            and (any(states[j][p] for j in others) or (pieces[p][1].strong and not states[i][p]))
            for p in range(len(texts))
        ]
        borrowed = []
        tool = tools[s.slot] if s.slot < len(tools) else None
        for v in dict.fromkeys(v for vs in values for v in vs if others):
            if not _holds_value(s.text, v) or (tool and _holds_value(_doc_text(tool), v)):
                continue
            where = [p for p, text in enumerate(texts) if _holds_value(text, v)]
            if not any(states[i][p] for p in where) and all(
                pieces[p][1].ask and bound[p] for p in where
            ):
                borrowed.append(v)
        out.append(
            StepFaults(
                s.slot,
                len(subs) > 1 and whole_request(s.text, request),
                _response_words(s.text, tool, request) if tool is not None else (),
                tuple(borrowed),
            )
        )
    return out


def _pieces(clause: str) -> list[str]:
    """A clause cut at its list's commas and "and"s, the phrase the list's items share apart
    ("the ZIP code | and the coordinates | of the IP address 8.8.8.8")."""
    items, tail = shared_tail(list_items(clause))
    return [*items, tail] if tail else items


def _bare(value: str) -> str:
    return value.strip(_QUOTES).strip().lower()


def _holds_value(text: str, value: str) -> bool:
    bare = _bare(value)
    found = re.search(r"(?<!\w)" + re.escape(bare) + r"(?!\w)", text.lower())
    return bool(bare) and found is not None


def _words(piece: str, values: Sequence[str]) -> set[str]:
    """A piece's content words, its asking ("Please help me ...") and its values aside."""
    value_words = {w for v in values for w in df.content_tokens(v)}
    return set(df.content_tokens(cleaned(piece))) - value_words


def _stateable(piece: str, values: Sequence[str]) -> bool:
    """Whether a piece says enough to be one step's ("the numbers are +1234567890" does not)."""
    return len(_words(piece, values)) >= MIN_WORDS


def _states(text: str, piece: str, values: Sequence[str]) -> bool:
    """Whether ``text`` states ``piece``: holds half its content words, its values aside."""
    words = _words(piece, values)
    if len(words) < MIN_WORDS:
        return False
    return len(words & set(df.content_tokens(text))) >= STATED_SHARE * len(words)


def _response_words(text: str, tool: ToolDoc, request: str) -> tuple[str, ...]:
    said = set(df.content_tokens(request)) | _documented(tool)
    keys = _key_words(tool)
    return tuple(
        dict.fromkeys(
            w for w in df.split_words(text) if (t := df.stem(w)) in keys and t not in said
        )
    )


@per_tool
def _key_words(tool: ToolDoc) -> frozenset[str]:
    """Stemmed words of the keys of the tool's documented response."""
    words: set[str] = set()
    for key in _RESPONSE_KEYS:
        value = tool.doc.get(key)
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except (ValueError, RecursionError):
                continue  # prose, not keys
        words |= {t for k in _keys(value) for t in df.content_tokens(k)}
    return frozenset(words)


def _keys(value: object, depth: int = 0) -> list[str]:
    """The keys of a JSON value, three levels deep (a list: its first items)."""
    if depth > 3:
        return []
    if isinstance(value, dict):
        return [k for key, v in value.items() for k in (str(key), *_keys(v, depth + 1))]
    if isinstance(value, list):
        return [k for v in value[:3] for k in _keys(v, depth + 1)]
    return []


@per_tool
def _doc_text(tool: ToolDoc) -> str:
    """The tool's documentation as one text: its name and every string it holds."""
    return f"{tool.name or ''} {json.dumps(tool.doc, ensure_ascii=False)}"


@per_tool
def _documented(tool: ToolDoc) -> frozenset[str]:
    """Stemmed words the tool's name, description and parameters say."""
    parts = [tool.name or "", df.name(tool.doc), df.description(tool.doc)]
    parts += [f"{p.name} {p.description}" for p in df.params(tool.doc)]
    return frozenset(df.content_tokens(" ".join(parts)))
