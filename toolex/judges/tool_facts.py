"""What the offline judge reads off one tool's documentation: the words it weighs and the
operation the tool performs (its own verb and object, and the canonical operation class).
"""

from __future__ import annotations

from typing import Any

from toolex.judges import lexicon
from toolex.judges.base import ToolDoc
from toolex.tooldoc import fields as df

# Verbs a description uses about its interface rather than its operation ("takes ... and returns").
_WEAK_VERBS = frozenset({"return", "use", "make", "set", "run", "show", "like", "place"})
_SUBJECT_WORDS = frozenset(
    {
        "this",
        "the",
        "it",
        "api",
        "tool",
        "method",
        "function",
        "endpoint",
        "service",
        "simply",
        "can",
        "will",
        "you",
        "we",
        "allows",
        "lets",
        "helps",
        "used",
    }
)


def tool_tokens(tool: ToolDoc) -> list[str]:
    """The stemmed content words of a tool's name, description, parameters and returned keys,
    each as often as it occurs (the judge's TF-IDF vector counts them)."""
    doc = tool.doc
    parts = [df.name(doc) or (tool.name or ""), df.description(doc)]
    parts += [f"{p.name} {p.description}" for p in df.params(doc)]
    return df.content_tokens(" ".join(parts)) + sorted(df.returns_tokens(doc))


def own_operation(tool: ToolDoc) -> tuple[str, list[str]]:
    """The tool's own verb and the words of its object, read from its name, else its description.

    ``dropTable`` -> ("drop", ["table"]); "Fetches the five-year average dividend yield ..." ->
    ("fetch", [...]). With no verb in either (a model card), the operation class of the doc
    (``operation``), else "retrieve", and no object words.
    """
    name_words = df.split_words(df.name(tool.doc) or tool.name or "")
    if name_words and lexicon.base_verb(name_words[0]):
        return lexicon.base_verb(name_words[0]) or "", name_words[1:]
    words = df.split_words(df.description(tool.doc).split(".")[0])
    # The verb opens the description ("Fetches ...", "Get ...") or follows its subject ("This
    # tool converts ...", "The API returns ..."); a verb-like word later is usually a noun.
    at = 0
    while at < min(len(words), 4) and (words[at] in _SUBJECT_WORDS or words[at] in df.STOPWORDS):
        at += 1
    verb = lexicon.base_verb(words[at]) if at < len(words) else None
    if verb and verb not in _WEAK_VERBS:
        return verb, [x for x in words[at + 1 : at + 6] if x not in df.STOPWORDS]
    return operation(tool.doc) or "retrieve", []


def operation(doc: dict[str, Any]) -> str | None:
    """Canonical operation class of a tool: first signalling word of its name, then description."""
    for text in (df.name(doc), df.description(doc)):
        for word in df.split_words(text):
            op = lexicon.OP_BY_STEM.get(df.stem(word))
            if op:
                return op
    return None
