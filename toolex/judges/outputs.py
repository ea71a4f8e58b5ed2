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

from toolex.judges.base import ToolDoc, per_tool
from toolex.judges.inputs import param_name_keys
from toolex.judges.operations import output_conflict
from toolex.judges.step import Step
from toolex.judges.tool_facts import returned
from toolex.judges.vocabulary import keys_of, said
from toolex.tooldoc import fields as df

# How many of the candidate's documented outputs a reason names.
SHOWN = 4


@per_tool
def output_keys(tool: ToolDoc) -> frozenset[str]:
    """Keys of what a tool says it does and returns: its name, description, documented
    response (toolex.judges.vocabulary.keys)."""
    name = df.name(tool.doc) or tool.name or ""
    words = df.split_words(f"{name} {df.description(tool.doc)}")
    return keys_of([*words, *_response_words(tool)])


@per_tool
def field_keys(tool: ToolDoc) -> frozenset[str]:
    """Keys of what a tool names as its object and fields: its name and documented response."""
    name = df.name(tool.doc) or tool.name or ""
    return keys_of([*df.split_words(name), *_response_words(tool)])


@per_tool
def documented_keys(tool: ToolDoc) -> frozenset[str]:
    """Keys of every word of a tool's documentation, its platform and parameters included."""
    return output_keys(tool) | keys_of(df.split_words(f"{tool.platform or ''} {tool.text}"))


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
    inputs = param_name_keys(ref)
    want = [w for w in step.asked if said(w, field_keys(ref)) and not said(w, inputs)]
    missing = [w for w in want if not said(w, documented_keys(cand))]
    if not missing:
        return None
    return f"the step asks for {_listed(missing)}; the candidate documents {_shown(cand)}"


def output_kind(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    return output_conflict(cand, ref)


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _shown(tool: ToolDoc) -> str:
    fields = [w for w in response_fields(tool) if len(w) > 2][:SHOWN]
    if fields:
        return ", ".join(fields)
    name = df.name(tool.doc) or tool.name or tool.item_id
    return f"only {name!r}" + (" and its description" if df.description(tool.doc) else "")


RULES = (output_kind, asked_outputs)
