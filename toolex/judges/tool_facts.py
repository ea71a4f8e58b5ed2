"""What the offline judge reads off one tool's documentation: the words it weighs, the operation
the tool performs, and the halves of the audit's hand-off check (the words the tool returns, the
ids it needs).

Each depends on one document only, so the evidence reader, the judge's vectors and the audit
read one definition. The hand-off halves are memoised per tool (``toolex.judges.base.per_tool``,
keyed by item id and rendered text like the evidence reader's word caches): the audit asks about
every ordered pair of every combination, and re-deriving them from the documentation took 39% of
a 200k-tool library's audit.
"""

from __future__ import annotations

from typing import Any

from toolex.judges import lexicon
from toolex.judges.base import ToolDoc, per_tool
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


def described_words(tool: ToolDoc) -> list[str]:
    """The stemmed content words of a tool's name, description and parameters (their names and
    descriptions), in order, repeats kept."""
    doc = tool.doc
    parts = [df.name(doc) or (tool.name or ""), df.description(doc)]
    parts += [f"{p.name} {p.description}" for p in df.params(doc)]
    return df.content_tokens(" ".join(parts))


def tool_tokens(tool: ToolDoc) -> list[str]:
    """``described_words`` and the returned keys: the words of the judge's TF-IDF vector, each
    as often as it occurs."""
    return described_words(tool) + sorted(df.returns_tokens(tool.doc))


def about_words(tool: ToolDoc) -> frozenset[str]:
    """The content words of a tool's name and description: what it says it does."""
    return frozenset(
        df.content_tokens(f"{df.name(tool.doc) or tool.name or ''} {df.description(tool.doc)}")
    )


@per_tool
def returned(tool: ToolDoc) -> frozenset[str]:
    """Stemmed words naming what the tool returns (``tooldoc.fields.returns_tokens``)."""
    return frozenset(df.returns_tokens(tool.doc))


@per_tool
def needed_ids(tool: ToolDoc) -> tuple[tuple[str, frozenset[str]], ...]:
    """The required id-like parameters another step must hand the tool, with their words."""
    return df.required_ids(tool.doc)


def feeds(producer: ToolDoc, consumer: ToolDoc) -> str | None:
    """``tooldoc.fields.feeds`` on two documents, from each one's half."""
    return df.fed_by(returned(producer), needed_ids(consumer))


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
    return lexicon.operation_of(df.name(doc), df.description(doc))
