"""Which thing a tool serves: the platform, site, place or subject a step names, and the qualifier
that tells one tool's object from a sibling's.

Two of the verdict guideline's "no" cases (docs/verdict-guideline.md): "the request names a
source, platform or account that only the reference serves" (Twitter followers asked for, a
Spotify follower API offered), and "sibling entity: same domain, different object" (C vs C#,
"for SALE" vs "for SOLD", men's vs women's marks). Both are read from what the user and the
documentation write, by general rules: a name counts as the user writes one (capitalised, or
written like a domain or code), so "find similar movies" names no platform called Similar Movies;
a qualifier counts only when the other side's documentation never mentions it, so a superset
("scores for the NBA, NFL and NHL") is not a sibling. Documents only ever become words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from toolex.judges.base import ToolDoc, per_step_tool, per_tool
from toolex.judges.lexicon import (
    GENERIC_ACRONYMS,
    GENERIC_NAME_WORDS,
    SCOPE_PARAMS,
    VARIANT_WORDS,
    base_verb,
    char_before,
    regex,
    word_set,
)
from toolex.judges.step import Step
from toolex.judges.tool_facts import params, provider
from toolex.tooldoc import fields as df

_DOMAIN = re.compile(r"\b[\w-]+\.(?:com|org|net|io|ai|co|tv|gg|me|app|dev)\b", re.IGNORECASE)
# A run of capitalised words; later words may be codes ("DAILY OVRLL 0822202140642").
_CAPITALISED = re.compile(r"(?<!\w)([A-Z][\w&+#.\-]*(?:\s+[A-Z0-9][\w&+#.\-]*)*)")
_RAW_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9#+]*")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")


def named_terms(text: str) -> list[str]:
    """What ``text`` names the way a user names a platform, site, place or product: capitalised
    words not opening a sentence, runs of them, and domain-like words ("Kick.com")."""
    return list(_named_terms(text))


# Read once per text: the verifier asks it of one request for each of its ~20 candidates.
@lru_cache(maxsize=1 << 14)
def _named_terms(text: str) -> tuple[str, ...]:
    out = [m.group() for m in _DOMAIN.finditer(text)]
    for m in _CAPITALISED.finditer(text):
        # a run of capitals never crosses a sentence's end ("... 0822202130837 API. Please")
        term = re.split(r"[.!?]\s", m.group(1))[0].rstrip(".-")
        before = char_before(text, m.start(1))
        opens = not before or before in ".!?:;\"'("
        if term in ("I", "I'm", "I'd", "I've", "I'll") or (opens and " " not in term):
            continue
        if " " not in term and term.lower() in df.STOPWORDS:
            continue
        out.append(term)
    return tuple(dict.fromkeys(t for t in out if len(t) > 1))


def scope_missing(texts: Iterable[str], cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The platform, site, place or subject the step names and the reference serves, that the
    candidate's documentation never names and no parameter of the candidate chooses, or None.

    The step names it as the user writes a name (capitalised or domain-like) and the reference's
    platform, name or description carries it (an ordinary word of the step that is a word of the
    reference's platform is toolex.judges.coverage's). ``texts`` are the sub-query and the
    request, read apart so each one's first word is known."""
    if scope_param(cand):
        return None
    for term in _served_terms(tuple(texts), ref):
        if not _mentions(_text_lower(cand), term):
            return (
                f"the step is about {term!r}, which the reference serves and the candidate "
                "never names"
            )
    return None


@per_step_tool
def _served_terms(texts: tuple[str, ...], ref: ToolDoc) -> tuple[str, ...]:
    """The names the step writes that the reference serves, in order: what ``scope_missing``
    asks the candidate to name."""
    own = " ".join([ref.platform or "", df.name(ref.doc) or ref.name or ""]).lower()
    out = []
    for term in dict.fromkeys(bare(t) for text in texts for t in named_terms(text)):
        if not term or term.lower() in GENERIC_ACRONYMS:
            continue
        if _mentions(own, term) or (_proper(term) and _mentions(_about_lower(ref), term)):
            out.append(term)
    return tuple(out)


def other_platform(texts: Iterable[str], cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The request names a distinctive word of the reference's platform and none of the
    candidate's, whose platform shares no such word with the reference's ("Uganda API" /
    "Senegal API" for a step in Kampala, Uganda): a parameter choosing a region cannot carry the
    candidate to the reference's country or service."""
    own, theirs = platform_words(ref), platform_words(cand)
    if not own or not theirs or own & theirs:
        return None
    said = _named_stems(tuple(texts))
    if not own & said or theirs & said:
        return None
    if scope_param(cand, within=False):  # it takes the platform or country as an input
        return None
    word = sorted(own & said)[0]
    return (
        f"the request is about {word!r} of the reference's platform {ref.platform!r}; the "
        f"candidate's platform is {cand.platform!r}"
    )


@lru_cache(maxsize=1 << 12)  # what texts name as names ("Kampala, Uganda"), once per step
def _named_stems(texts: tuple[str, ...]) -> frozenset[str]:
    return frozenset(
        df.stem(w.lower())
        for text in texts
        for term in named_terms(text)
        for w in _WORD.findall(term)
    )


def bare(term: str) -> str:
    """A name without the words that say what kind of thing it is ("Easy QR Code API")."""
    words = term.split()
    while len(words) > 1 and words[-1].lower() in _KIND_WORDS:
        words.pop()
    return " ".join(words)


_KIND_WORDS = word_set("api apis tool tools service app application website site endpoint")


def _proper(term: str) -> bool:
    """A proper name rather than an acronym of the trade: "Twitter", "Buenos Aires", "Kick.com"."""
    return " " in term or "." in term or (term[:1].isupper() and term[1:2].islower())


def mentions(tool: ToolDoc, term: str) -> bool:
    """Whether ``tool``'s name, platform or documentation writes ``term`` as a word."""
    return _mentions(_text_lower(tool), term)


def _mentions(haystack: str, term: str) -> bool:
    """``term`` (lower case) occurs in ``haystack`` with no letter a-z or digit either side: the
    search ``(?<![a-z0-9])term(?![a-z0-9])`` does, without compiling a pattern per term (a
    thousand distinct terms cost more to compile than to look for)."""
    needle = term.lower()
    if not needle:
        return bool(regex(r"(?<![a-z0-9])(?![a-z0-9])").search(haystack))
    size = len(needle)
    at = haystack.find(needle)
    while at >= 0:
        after = haystack[at + size : at + size + 1]  # "" at the end: no letter
        if (not at or haystack[at - 1] not in _ALNUM) and after not in _ALNUM:
            return True
        at = haystack.find(needle, at + 1)
    return False


_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


@per_tool
def _about_lower(tool: ToolDoc) -> str:
    name = df.name(tool.doc) or tool.name or ""
    return " ".join([name, tool.platform or "", df.description(tool.doc), tool.item_id]).lower()


@per_tool
def _text_lower(tool: ToolDoc) -> str:
    return f"{_about_lower(tool)} {tool.text.lower()}"


def scope_param(tool: ToolDoc, within: bool = True) -> bool:
    """Whether a parameter chooses the platform, place or subject; ``within=False`` leaves out
    the ones that choose only inside the tool's own (a region of its country)."""
    stems = _scope_stems(tool)
    return bool(stems if within else stems - _WITHIN)


_WITHIN = frozenset({df.stem("region")})


@per_tool
def _scope_stems(tool: ToolDoc) -> frozenset[str]:
    return frozenset(
        df.stem(w)
        for p in params(tool)
        for w in df.split_words(p.name)
        if df.stem(w) in SCOPE_PARAMS
    )


@per_tool
def platform_words(tool: ToolDoc) -> frozenset[str]:
    """Distinctive stems of a tool's platform (the service that runs it: "50K Radio Stations",
    ``RugbyAPI2``), not of its API name, which says the operation. Split at punctuation, not at
    capitals ("YouTube" is one word), a trailing "API"/version dropped (``RugbyAPI2`` -> rugby),
    generic words of the trade left out."""
    out = set()
    for token in _WORD.findall(tool.platform or ""):
        word = re.sub(r"(?:api|API|Api)?\d*$", "", token).lower()
        if (
            len(word) > 2
            and word not in df.STOPWORDS
            and word not in GENERIC_NAME_WORDS
            and word not in VARIANT_WORDS
            and word not in GENERIC_ACRONYMS
            and not base_verb(word)
        ):
            out.add(df.stem(word))
    return frozenset(out)


# -- qualifiers ------------------------------------------------------------------------------


@per_tool
def _name_tokens(tool: ToolDoc) -> tuple[str, ...]:
    """The name's words, symbols kept (``c#``, ``c++``), camelCase split; a backend named in
    brackets ("Nearby - (Google)") and verbs (compared by toolex.judges.operations) left out."""
    name = re.sub(r"\([^)]*\)|\[[^]]*\]", " ", df.name(tool.doc) or tool.name or "")
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ")
    tokens = [t.lower() for t in _RAW_TOKEN.findall(spaced)]
    return tuple(t for t in tokens if not (t.isalpha() and base_verb(t)))


@per_tool
def stems(tool: ToolDoc) -> frozenset[str]:
    """Every word of the tool's name, platform, description and rendered documentation, symbols
    kept and plain words stemmed: what "the documentation mentions it" is checked against."""
    low = _text_lower(tool)  # no capital to split at, unless a character lowers to one
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", low) if _CAPITAL.search(low) else low
    return frozenset(map(_stem_of, {t.lower() for t in set(_RAW_TOKEN.findall(spaced))}))


_CAPITAL = re.compile(r"[A-Z]")


def qualifier_conflict(cand: ToolDoc, ref: ToolDoc) -> str | None:
    """Two names about one object, each with a qualifier the other's documentation never
    mentions (C / C#, SALE / SOLD), or None. Model ids (``org/model``) and checkpoint names are
    left alone: sizes and training runs of one family are the normal shape of equivalent
    models; so are words naming a size, tier or version (basic / pro, v1 / v2)."""
    rn_raw = df.name(ref.doc) or ref.name or ""
    cn_raw = df.name(cand.doc) or cand.name or ""
    if "/" in rn_raw or "/" in cn_raw or (_model_id(rn_raw) and _model_id(cn_raw)):
        return None
    rn, cn = _qualifying(ref), _qualifying(cand)
    shared = set(rn) & set(cn)
    only_r = [t for t in rn if t not in shared]
    only_c = [t for t in cn if t not in shared]
    # "Search for SALE" / "Search for SOLD": the same name but one word each, however generic
    # the rest ("search", "for"), names one thing and its sibling.
    alike = _one_word_apart(_name_tokens(ref), _name_tokens(cand))
    if not only_r or not only_c or not (shared or alike):
        return None
    if all(_variant(t) for t in only_r + only_c):
        return None
    if any(_stem_of(t) in stems(cand) for t in only_r):
        return None  # the candidate documents the reference's qualifier: a superset
    if any(_stem_of(t) in stems(ref) for t in only_c):
        return None
    return (
        f"siblings: both names are about {', '.join(sorted(shared))}, but the reference is "
        f"{', '.join(only_r)} and the candidate {', '.join(only_c)}"
    )


@per_tool
def _qualifying(tool: ToolDoc) -> tuple[str, ...]:
    return tuple(t for t in _name_tokens(tool) if _qualifies(t))


def narrower_sibling(texts: Iterable[str], cand: ToolDoc, ref: ToolDoc) -> str | None:
    """A candidate of the reference's own provider whose name is the reference's plus words that
    narrow it ("Get Epic Free Games" / "... Coming Soon", ``short-urls/{code}`` / ``.../visits``)
    when neither the reference's documentation nor the step nor the request says those words, or
    None: the provider published the narrower endpoint beside the plain one, so it is another."""
    if not provider(ref) or provider(ref) != provider(cand):
        return None
    rn = {_stem_of(t) for t in _path_tokens(ref)}
    cn = [t for t in _path_tokens(cand) if _qualifies(t) and not _variant(t)]
    own = {_stem_of(t) for t in _path_tokens(ref) if _qualifies(t) and not _variant(t)}
    if not own or not cn or not own <= {_stem_of(t) for t in cn}:
        return None
    extra = [t for t in cn if _stem_of(t) not in rn]
    said = {df.stem(w.lower()) for text in texts for w in _WORD.findall(text)}
    unsaid = [t for t in extra if _stem_of(t) not in stems(ref) and _stem_of(t) not in said]
    if not unsaid:
        return None
    return f"a narrower sibling of the reference: {' '.join(unsaid)!r}, which the step never asks"


@per_tool
def _path_tokens(tool: ToolDoc) -> tuple[str, ...]:
    """The name's words as ``_name_tokens`` reads them, path parameters (``{code}``) left out."""
    return tuple(t for t in _name_tokens(tool) if t.isalpha() and len(t) > 2)


def _one_word_apart(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Two names of at least two words that are the same but for one word each, in place."""
    if len(a) != len(b) or len(a) < 2:
        return False
    return sum(x != y for x, y in zip(a, b, strict=True)) == 1


@lru_cache(maxsize=1 << 14)  # asked of both names of every pair
def _model_id(name: str) -> bool:
    """A checkpoint-like name (``ConvTasNet_Libri2Mix_sepclean_8k``, ``glpn-nyu-221121``):
    hyphens or underscores joining words, and a digit, no space."""
    return bool(re.search(r"[-_]", name)) and any(ch.isdigit() for ch in name) and " " not in name


def _qualifies(token: str) -> bool:
    return token not in GENERIC_NAME_WORDS and token not in df.STOPWORDS and not token.isdigit()


def _variant(token: str) -> bool:
    return token in VARIANT_WORDS or any(ch.isdigit() for ch in token)


@lru_cache(maxsize=1 << 16)  # every distinct token of a document, and names' words per pair
def _stem_of(token: str) -> str:
    return df.stem(token) if token.isalpha() else token


@per_tool
def objects(tool: ToolDoc) -> frozenset[str]:
    """What a tool's name says it acts on, as stems: the name's words without operation verbs,
    backends in brackets, generic words of the trade and numbers ("Generate QR Code" -> qr,
    code); a model card's task instead ("functionality": "Language Identification"), since a
    model's name is a checkpoint id."""
    task = tool.doc.get("functionality")
    if isinstance(task, str) and task.strip():
        words = df.split_words(task)
    else:
        words = [t for t in _name_tokens(tool) if t.isalpha()]
    return frozenset(
        _stem_of(w)
        for w in words
        if w not in GENERIC_NAME_WORDS and w not in df.STOPWORDS and len(w) > 1
    )


# -- point 4 of the verifier (toolex.judges.checks): the same entity, the same granularity -------


def qualifier(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    return qualifier_conflict(cand, ref)


def narrower(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    return narrower_sibling(step.texts, cand, ref)


def subject(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    return scope_missing(step.texts, cand, ref)


def _plural(word: str) -> str | None:
    """The singular of a plural word ("languages" -> "language"), or None."""
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return None


@per_tool
def _reads_one(tool: ToolDoc) -> bool:
    """The tool takes the id of the one record it reads."""
    return any(p.required and df.is_id_like(p.name) for p in params(tool))


def granularity(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """One name lists a collection ("Get Languages", nothing required), the other reads one of
    it by its id ("Get a Language", an id required): every record is not one record."""
    sides = ((ref, cand, "reference", "candidate"), (cand, ref, "candidate", "reference"))
    for many, one, side, other in sides:
        if not _reads_one(one) or _reads_one(many):
            continue
        singular = set(_name_tokens(one))
        for word in _name_tokens(many):
            single = _plural(word)
            if single and single in singular and word not in singular:
                return f"the {side} lists every {single}; the {other} reads one {single} by its id"
    return None


RULES = (qualifier, narrower, subject, granularity)
