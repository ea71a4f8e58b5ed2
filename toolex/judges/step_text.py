"""How a sub-query says a step the request does not state, and the rule that it names no tool.

Some steps are never written in a request: the token a later call needs, the dictionary a
puzzle's moves update. The decomposer (toolex.judges.decomposer) says such a step through what
the tool documents it does, in this order, taking the first that names no tool or parameter
(``leak``): the thing the description says it returns ("returns a dictionary mapping each person
to their object" -> "Get a dictionary mapping each person to their object"); the verb phrase after
its inputs ("takes in a list of trades, and updates the dictionary"); what an API "that
provides ..." does; the description when it opens with a verb. Never the field names of its
response: "Get the success and message" is how a tool answers, not a step (issue 32). None
when all of them would name a tool; ``named_step`` then says the tool's name as plain words,
where that names no tool either ("Get file" -> "Get the file").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from toolex.judges.base import ToolDoc, per_tool
from toolex.judges.clauses import is_verb
from toolex.judges.lexicon import base_verb, operation_of
from toolex.tooldoc import fields as df

MAX_WORDS = 12  # of a description's phrase
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
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
# "An API that provides information about emergency procedures": what the tool does.
_THAT_DOES = re.compile(r"\b(?:that|which)\s+([a-z]+s)\s+(.+?)(?:[.;]|$)", re.IGNORECASE)
_PLAIN = {"provide": "get", "give": "get", "offer": "get"}  # "Get information about ..."
_INTERFACE_VERBS = frozenset({"take", "accept", "require", "use", "need", "receive", "expect"})
# Where a description starts talking about its interface ("... API that takes two parameters").
_INTERFACE = re.compile(
    r"\s+(?:api|tool|function|method|endpoint)\b|\s+(?:that|which|by)\s+(?:takes?|accepts?"
    r"|uses?|requires?)\b|\s+given\b|\s+based\s+on\s+(?:the\s+)?(?:input|parameter)",
    re.IGNORECASE,
)


def operation(tool: ToolDoc) -> str | None:
    return operation_of(df.name(tool.doc) or tool.name or "", df.description(tool.doc))


def opening_verb(tool: ToolDoc) -> str:
    """The verb a step of ``tool`` opens with: its description's own ("Get the schedule for a
    day" -> "Get"), else its operation's."""
    words = df.description(tool.doc).split()
    first = _base(words[0].strip(".,:;\"'")) if words else ""
    if is_verb(first):
        return first.capitalize()
    return VERB_OF.get(operation(tool) or "retrieve", "Get")


def implicit(
    tool: ToolDoc, tools: Sequence[ToolDoc], request: str, *, strict: bool = True
) -> str | None:
    """The step ``tool`` does, said from its documentation (see the module docstring), or None;
    ``strict=False``: the first wording, whatever names it writes (the caller checks them)."""
    desc = " ".join(df.description(tool.doc).strip().strip('"').split())
    verb = opening_verb(tool)
    options = []
    m = _RETURNS.search(desc)
    if m and df.content_tokens(m.group(1)):
        options.append(f"{verb} {_clipped(m.group(1))}")
    m = _DOES.search(desc)
    if m and is_verb(_base(m.group(1))):
        options.append(f"{_base(m.group(1)).capitalize()} {_clipped(m.group(2))}")
    m = _THAT_DOES.search(desc)
    if m and is_verb(_base(m.group(1))) and _base(m.group(1)) not in _INTERFACE_VERBS:
        verb = _base(m.group(1))
        options.append(f"{_PLAIN.get(verb, verb).capitalize()} {_clipped(m.group(2))}")
    words = desc.split()
    if len(words) > 1 and is_verb(_base(words[0])):
        options.append(f"{_base(words[0]).capitalize()} {_clipped(' '.join(words[1:]))}")
    for text in options:
        if df.content_tokens(text) and not (strict and leak(text, tools, request)):
            return text
    return None


def named_step(
    tool: ToolDoc, tools: Sequence[ToolDoc], request: str, *, strict: bool = True
) -> str | None:
    """The tool's name said as a step in plain words, led by a verb and an article ("Download
    track" -> "Download the track", "WNBA Box Score" -> "Get the WNBA box score"), or with
    another verb of the same operation where that one names the tool ("Get the countries" ->
    "Retrieve the countries"); None when every wording still names a tool or parameter
    (``leak``; ``strict=False``: the first wording, the caller checks the names)."""
    name = _CAMEL.sub(" ", df.name(tool.doc) or tool.name or "")
    words = [w if w.isupper() else w.lower() for w in re.findall(r"[A-Za-z0-9]+", name)]
    if not words:
        return None
    if is_verb(words[0].lower()) and len(words) > 1:
        verb, rest = words[0].capitalize(), words[1:]
    else:
        verb, rest = opening_verb(tool), words
    if rest[0] in ("the", "a", "an"):
        rest = rest[1:]
    thing = " ".join(rest[:MAX_WORDS])
    other = "Retrieve" if verb in ("Get", "Fetch") else "Get"
    for text in (f"{verb} the {thing}", f"{other} the {thing}"):
        if thing and not (strict and leak(text, tools, request)):
            return text
    return None


def _base(word: str) -> str:
    """A third-person verb in its base form ("Fetches" -> "fetch", "provides" -> "provide"),
    else the word."""
    w = word.lower()
    for form in (w, w[:-3] + "y" if w.endswith("ies") else "", w[:-2], w[:-1]):
        if form and (form == w or w.endswith("s")) and is_verb(form):
            return base_verb(form) or form
    return w


def _clipped(text: str) -> str:
    text = _INTERFACE.split(text.strip(), maxsplit=1)[0]
    return " ".join(text.rstrip(".,;:").split()[:MAX_WORDS]).rstrip(",;:")


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
        for name in _param_names(tool):
            if df.leaked_name(text, name, min_words=2, request=request):
                return name
    return None


@per_tool  # the decomposer asks ``leak`` of each tool at every word it drops from a step
def _param_names(tool: ToolDoc) -> tuple[str, ...]:
    return tuple(p.name for p in df.params(tool.doc))
