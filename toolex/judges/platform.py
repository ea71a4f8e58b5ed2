"""Point 6 of the verifier (toolex.judges.checks): an operation over one platform's own records
stays on that platform; a provider-neutral fact travels.

A weather forecast, a distance, a company's cash-flow statement or a QR code are the same
whoever computes them, so another provider's endpoint can stand in. Some operations are about
what one platform holds, and their answer is that platform's: its categories and tags, its
auto-complete suggestions, its products, listings, orders, users, playlists or templates, its
own health, version or quota. Another platform's "Get Categories" lists other categories, and
another shop's product search finds other products. Read off the reference's name (its object
words) and its required inputs (an id one platform issued names one of its records), by general
API vocabulary (``CATALOGUE_WORDS``, ``SELF_WORDS``), never one library's names.

Two endpoints that are one endpoint published twice (a template copied into two projects, a
re-upload under another provider name: the same name and the same required inputs, and no
description or response that tells them apart) are the same operation over the same kind of
catalogue, and stay equivalent unless the request names the platform (``named_platform``). An
operation about the service itself (its health, its version, the caller's account) never
travels, copy or not.
"""

from __future__ import annotations

import re
from functools import lru_cache

from toolex.judges.base import ToolDoc, per_tool
from toolex.judges.inputs import handle_conflict, is_handle, required_params
from toolex.judges.lexicon import regex, word_set
from toolex.judges.scope import bare, other_platform
from toolex.judges.step import Step
from toolex.judges.tool_facts import model_card, named_provider, returned
from toolex.tooldoc import fields as df

# Objects a platform holds of its own: another platform's are other records.
CATALOGUE_WORDS = word_set(
    """
    category categories subcategory subcategories tag tags collection collections
    autocomplete autocompletion suggest suggestion suggestions typeahead
    product products item items listing listings catalog catalogue inventory order orders
    cart wishlist user users profile profiles follower followers following post posts
    comment comments playlist playlists template templates campaign campaigns
    contact contacts subscriber subscribers member members store stores
    """
)
# What a service says about itself or the caller's account on it: never another service's.
SELF_WORDS = word_set(
    """
    health status ping uptime heartbeat version versions usage quota quotas balance account
    accounts subscription subscriptions credits credit settings config configuration
    """
)


@per_tool
def _object_words(tool: ToolDoc) -> frozenset[str]:
    """The words of a tool's name, lower case, as written and singular."""
    out: set[str] = set()
    words = df.split_words(df.name(tool.doc) or tool.name or "")
    out.update(a + b for a, b in zip(words, words[1:], strict=False))  # "auto complete"
    for word in words:
        out.add(word)
        if word.endswith("ies"):
            out.add(word[:-3] + "y")
        elif word.endswith("s") and not word.endswith("ss"):
            out.add(word[:-1])
    return frozenset(out)


def _self_bound(tool: ToolDoc) -> str | None:
    found = sorted(_object_words(tool) & SELF_WORDS)
    return found[0] if found else None


def catalogue_bound(tool: ToolDoc) -> str | None:
    """What makes the tool's answer its platform's: an object word of its name, or a required
    id its platform issued."""
    found = sorted(_object_words(tool) & CATALOGUE_WORDS)
    if found:
        return found[0]
    ids = [p.name for p in required_params(tool) if is_handle(p.name) and df.is_id_like(p.name)]
    return ids[0] if ids else None


def same_endpoint(cand: ToolDoc, ref: ToolDoc) -> bool:
    """One endpoint published twice: the same name and required inputs, and neither the
    descriptions nor the documented responses tell them apart."""
    if _endpoint_name(cand) != _endpoint_name(ref) or _inputs(cand) != _inputs(ref):
        return False
    dc, dr = _described(cand), _described(ref)
    if dc and dr and dc != dr:
        return False
    rc, rr = returned(cand), returned(ref)
    return not (rc and rr and not rc & rr)


@per_tool
def _endpoint_name(tool: ToolDoc) -> str:
    words = df.split_words(df.name(tool.doc) or tool.name or "")
    return " ".join(df.stem(w) for w in words)


@per_tool
def _inputs(tool: ToolDoc) -> frozenset[str]:
    return frozenset(" ".join(df.split_words(p.name)) for p in required_params(tool))


@per_tool
def _described(tool: ToolDoc) -> str:
    """The description as words, the platform's own name left out (a copy names its owner)."""
    text = df.description(tool.doc)
    for word in df.split_words(tool.platform or ""):
        text = regex(rf"(?i)\b{re.escape(word)}\b").sub(" ", text)
    return " ".join(df.split_words(text))


def own_records(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The reference answers from its platform's own records (categories, products, a record by
    its platform's id, its own health) and the candidate is another platform's, not a copy of
    the same endpoint."""
    rp, cp = named_provider(ref), named_provider(cand)
    if not rp or not cp or rp == cp or model_card(ref):
        return None  # a candidate of no known provider is not shown to be another's
    itself = _self_bound(ref)
    if itself:
        return (
            f"the reference reports on its own service ({itself!r} of {ref.platform}); the "
            f"candidate's is {cand.platform or 'another service'}'s"
        )
    bound = catalogue_bound(ref)
    if bound and not same_endpoint(cand, ref):
        return (
            f"the reference reads {ref.platform or rp}'s own records ({bound!r}); the candidate "
            f"reads {cand.platform or cp}'s, and is not the same endpoint"
        )
    return None


def named_platform(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    return other_platform(step.texts, cand, ref)


def stated_id(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    return handle_conflict(cand, ref, step.request)


# A one-word platform counts as named when a word saying what kind of thing it is follows it
# ("the Translator tool"); a longer one when written out whole, as capitalised.
_KIND_AFTER = r"\s+(?:API|api|Api|tool|Tool|service|Service|app|App|platform|website|plugin)\b"
_COPY_SUFFIX = re.compile(r"(?i)[\s_-]*v\d+$")


def _platform_name(tool: ToolDoc) -> str:
    """The platform's name without a copy's version suffix ("Quotes_v2") nor kind words."""
    return bare(_COPY_SUFFIX.sub("", (tool.platform or "").strip()).strip())


@lru_cache(maxsize=1 << 14)  # one request is read against the platforms of its ~20 candidates
def _writes(text: str, name: str) -> bool:
    words = name.split()
    if not words or not any(w[:1].isupper() for w in words):
        return False
    if name not in text:  # the pattern matches ``name`` as written: no pattern to compile
        return False
    tail = "" if len(words) > 1 else _KIND_AFTER
    return bool(regex(rf"(?<![\w-]){re.escape(name)}(?![\w-]){tail}").search(text))


def written_platform(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The request or the step names the reference's platform as a name ("the Translator
    tool", "in the Company Consultation ... API") and never the candidate's: the user asked for
    that platform's answer, and another platform's, however alike, is not it."""
    rn, cn = _platform_name(ref), _platform_name(cand)
    if not rn or not cn or rn.split()[0].lower() == cn.split()[0].lower() or model_card(ref):
        return None  # one brand's two publications ("Bing Search", "Bing Web Search")
    for text in step.texts:
        if _writes(text, rn) and not _writes(text, cn):
            return (
                f"the request names the reference's platform {rn!r}; the candidate is "
                f"{cand.platform!r}'s"
            )
    return None


RULES = (named_platform, written_platform, stated_id, own_records)
