"""How a sub-query says a step the request does not state, and the rule that it names no tool.

Some steps are never written in a request: the token a later call needs, the dictionary a
puzzle's moves update. The decomposer (toolex.judges.decomposer) says such a step through what
the tool documents it does, in this order, taking the first that names no tool or parameter
(``leak``): the thing the description says it returns ("returns a dictionary mapping each person
to their object" -> "Get a dictionary mapping each person to their object"); the verb phrase after
its inputs ("takes in a list of trades, and updates the dictionary"); the description when it
opens with a verb; the names of what its response holds ("Get the token"). None when all of them
would name a tool: then the ask itself is the step.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from toolex.judges.base import ToolDoc, per_tool
from toolex.judges.clauses import is_verb
from toolex.judges.lexicon import base_verb, operation_of
from toolex.tooldoc import fields as df

MAX_WORDS = 12  # of a description's phrase
# Operation classes (toolex.judges.lexicon.OPERATIONS) as the verb a sub-query opens with.
VERB_OF = {
    "retrieve": "Get",
    "search": "Search for",
    "calculate": "Calculate",
    "convert": "Convert",
    "translate": "Translate",
    "create": "Create",
    "update": "Update",
    "delete": "Delete",
    "send": "Send",
    "check": "Check",
    "generate": "Generate",
    "analyze": "Analyze",
    "download": "Download",
}
_RETURNS = re.compile(r"\breturns?\s+(?:back\s+)?(.+?)(?:[.;]|\s+if\b|$)", re.IGNORECASE)
# "takes in a list of trades, and updates the dictionary ...": the verb after the inputs.
_DOES = re.compile(
    r"\b(?:takes?|accepts?|receives?)\s+(?:in\s+)?.+?,?\s+and\s+([a-z]+s)\s+(.+?)(?:[.;]|$)",
    re.IGNORECASE,
)
# Where a description starts talking about its interface ("... API that takes two parameters").
_INTERFACE = re.compile(
    r"\s+(?:api|tool|function|method|endpoint)\b|\s+(?:that|which|by)\s+(?:takes?|accepts?"
    r"|uses?|requires?)\b|\s+given\b|\s+based\s+on\s+(?:the\s+)?(?:input|parameter)",
    re.IGNORECASE,
)


def operation(tool: ToolDoc) -> str | None:
    return operation_of(df.name(tool.doc) or tool.name or "", df.description(tool.doc))


def opening_verb(tool: ToolDoc) -> str:
    return VERB_OF.get(operation(tool) or "retrieve", "Get")


def implicit(tool: ToolDoc, tools: Sequence[ToolDoc], request: str) -> str | None:
    """The step ``tool`` does, said from its documentation (see the module docstring), or None."""
    desc = " ".join(df.description(tool.doc).strip().strip('"').split())
    verb = opening_verb(tool)
    options = []
    m = _RETURNS.search(desc)
    if m and df.content_tokens(m.group(1)):
        options.append(f"{verb} {_clipped(m.group(1))}")
    m = _DOES.search(desc)
    if m and is_verb(_base(m.group(1))):
        options.append(f"{_base(m.group(1)).capitalize()} {_clipped(m.group(2))}")
    words = desc.split()
    if len(words) > 1 and is_verb(_base(words[0])):
        options.append(f"{_base(words[0]).capitalize()} {_clipped(' '.join(words[1:]))}")
    names = _response_names(tool)
    if names:
        options.append(f"{verb} the {' and '.join(names[:3])}")
    for text in options:
        if df.content_tokens(text) and not leak(text, tools, request):
            return text
    return None


def _base(word: str) -> str:
    """A third-person verb in its base form ("Fetches" -> "fetch"), else the word."""
    return base_verb(word.lower()) or word.lower()


def _clipped(text: str) -> str:
    text = _INTERFACE.split(text.strip(), maxsplit=1)[0]
    return " ".join(text.rstrip(".,;:").split()[:MAX_WORDS]).rstrip(",;:")


@per_tool
def _response_names(tool: ToolDoc) -> tuple[str, ...]:
    """The top-level keys of the tool's documented response, as words ("status", "token")."""
    out: list[str] = []
    for key in ("responses", "response", "template_response", "output_parameters", "returns"):
        value = tool.doc.get(key)
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except (ValueError, RecursionError):
                continue
        if isinstance(value, dict):
            out += [" ".join(df.split_words(str(k))) for k in value]
    return tuple(dict.fromkeys(w for w in out if w and w not in df.STOPWORDS))


def leak(text: str, tools: Sequence[ToolDoc], request: str) -> str | None:
    """A tool or parameter name ``text`` writes out that the request itself does not, or None.

    Stricter than the decompose stage's check (``tooldoc.fields.name_leak``): an identifier's
    words count ("get user token" names ``GetUserToken``), and so do parameter names written as
    identifiers (``colisId``) or as a phrase of two or more words."""
    for tool in tools:
        names = [tool.name, df.name(tool.doc)]
        found = df.name_leak(text, tool.item_id, names, [tool.platform], request=request)
        if found:
            return found
        for name in names:
            if name and df.leaked_name(
                text, name, min_words=2, request=request, split_identifiers=True
            ):
                return name
        for p in df.params(tool.doc):
            if df.leaked_name(text, p.name, min_words=2, request=request):
                return p.name
    return None
