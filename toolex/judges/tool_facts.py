"""What the offline judge reads off one tool's documentation, once per tool: the words it says
it does things with, the words naming what it returns, and the provider that publishes it.

Each depends on one document only, so the evidence reader, the library's word weights and the
audit read one definition, memoised per tool (``toolex.judges.base.per_tool``, keyed by item id
and rendered text).
"""

from __future__ import annotations

from toolex.judges.base import ToolDoc, per_tool
from toolex.tooldoc import fields as df


def described_words(tool: ToolDoc) -> list[str]:
    """The stemmed content words of a tool's name, description and parameters (their names and
    descriptions), in order, repeats kept."""
    doc = tool.doc
    parts = [df.name(doc) or (tool.name or ""), df.description(doc)]
    parts += [f"{p.name} {p.description}" for p in df.params(doc)]
    return df.content_tokens(" ".join(parts))


def about_words(tool: ToolDoc) -> frozenset[str]:
    """The content words of a tool's name and description: what it says it does."""
    return frozenset(
        df.content_tokens(f"{df.name(tool.doc) or tool.name or ''} {df.description(tool.doc)}")
    )


@per_tool
def returned(tool: ToolDoc) -> frozenset[str]:
    """Stemmed words naming what the tool returns (``tooldoc.fields.returns_tokens``)."""
    return frozenset(df.returns_tokens(tool.doc))


def provider(tool: ToolDoc) -> str:
    """The platform that publishes the tool, as rules compare it ('' when none is known): two
    endpoints of one provider are siblings; an id of one provider does not travel to another."""
    return (tool.platform or "").strip().lower()
