"""Round 4's classes: a candidate that states another specific value of the slot the step fills,
checks another property of the same object, finds the key the reference is given, gives fewer of
the outputs the step lists, or is narrower than the step by a word its own documentation writes.

Each rule is read off the two documentations, the step and the request by general conventions
(a model card's environment, a "checks if ... is P" description, a "one of [...]" parameter, a
field of sport or science the candidate is limited to), never a library's or tool's names; and
each fails only on positive evidence of the difference, written in the documents.
"""

from __future__ import annotations

import re
from functools import lru_cache

from toolex.judges.base import ToolDoc, per_tool
from toolex.judges.lexicon import word_set, words_of
from toolex.judges.outputs import name_object_and_key, response_fields
from toolex.judges.scope import stems
from toolex.judges.step import Step
from toolex.judges.tool_facts import model_card, params, provider
from toolex.tooldoc import fields as df

# -- another value of the same slot ------------------------------------------------------------

# "trained on ... sampled from the Gym Hopper environment": the environment a policy acts in.
_ENVIRONMENT = re.compile(r"\b([A-Z][\w-]*)\s+environment\b")


@per_tool
def _environment(tool: ToolDoc) -> str:
    perf = tool.doc.get("performance")
    data = perf.get("dataset", "") if isinstance(perf, dict) else ""
    for text in (df.description(tool.doc), data if isinstance(data, str) else ""):
        m = _ENVIRONMENT.search(text)
        if m:
            return m.group(1)
    return ""


def environment(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """Two model cards each naming the environment they were trained in, another each: a policy
    for one environment (a hopping robot) does not act in another (a running half-cheetah)."""
    if not (model_card(cand) and model_card(ref)):
        return None
    ec, er = _environment(cand), _environment(ref)
    if not ec or not er or ec.lower() == er.lower():
        return None
    return f"another environment: the reference is trained in {er!r}, the candidate in {ec!r}"


# Words of a checkpoint's name that say its size or casing, not what it was trained for.
_CHECKPOINT_VARIANTS = word_set("base large small tiny mini medium xl xxl uncased cased hf")


@per_tool
def _checkpoint_words(tool: ToolDoc) -> frozenset[str]:
    name = (df.name(tool.doc) or tool.name or "").rsplit("/", 1)[-1].lower()
    words = re.split(r"[-_.]+", name)
    return frozenset(w for w in words if w and w not in _CHECKPOINT_VARIANTS and not w.isdigit())


def fine_tune(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The reference's checkpoint is the candidate's with a word more, the task it was fine-tuned
    for ("...-chartqa-base" / "...-base"), and the step asks that task ("charts"): the pretrained
    base is not the fine-tune the step needs."""
    if not (model_card(cand) and model_card(ref)):
        return None
    wc, wr = _checkpoint_words(cand), _checkpoint_words(ref)
    if not wc or not wc < wr:
        return None
    asked = {w for w in step.said if len(w) >= 4}
    for extra in sorted(wr - wc):
        if any(extra.startswith(w) for w in asked):
            return (
                f"the reference is fine-tuned for {extra!r}, which the step asks; the candidate is "
                "the checkpoint it was fine-tuned from"
            )
    return None


# Fields a tool can be limited to: a sport, a science, a trade. The candidate written for one of
# them is narrower than a step that never names it ("tennis match" for any live match,
# "bio-medical entities" for a news article's entities).
_FIELDS = word_set(
    """
    tennis football soccer basketball baseball cricket hockey golf rugby volleyball handball
    esports boxing mma ufc nfl nba mlb nhl formula1 f1 motorsport cycling
    biomedical medical clinical biology chemistry chemical legal
    """
)
_SAME_FIELD = ({"football", "soccer"}, {"biomedical", "medical", "clinical"})


def _fields_of(words: frozenset[str]) -> frozenset[str]:
    out = set(words & _FIELDS)
    for group in _SAME_FIELD:
        if out & group:
            out |= group
    return frozenset(out)


@per_tool
def _about(tool: ToolDoc) -> frozenset[str]:
    """The lower-case words of a tool's name and description (bio-medical: bio, medical,
    biomedical)."""
    text = f"{df.name(tool.doc) or tool.name or ''} {df.description(tool.doc)}".lower()
    words = set(re.findall(r"[a-z][a-z0-9]*", text))
    words |= {a + b for a, b in re.findall(r"\b([a-z]+)-([a-z]+)\b", text)}
    return frozenset(words)


def _written(step: Step) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z][a-z0-9]*", f"{step.subquery} {step.request}".lower()))


@per_tool
def _documented_fields(tool: ToolDoc) -> frozenset[str]:
    """The fields a tool's documentation or description names."""
    return _fields_of(frozenset(_LOWER_WORD.findall(tool.text.lower())) | _about(tool))


@per_tool
def _prefixes(tool: ToolDoc) -> frozenset[str]:
    """The first five letters of every word of a tool's rendered documentation."""
    return frozenset(_prefix(w) for w in _LETTERS.findall(tool.text.lower()))


@per_tool
def _alnum_prefixes(tool: ToolDoc) -> frozenset[str]:
    """``_prefixes`` with digits counted as letters."""
    return frozenset(_prefix(t) for t in _ALNUM.findall(tool.text.lower()))


@per_tool
def _letter_stems(tool: ToolDoc) -> frozenset[str]:
    return frozenset(df.stem(w) for w in _LETTERS.findall(tool.text.lower()))


_LOWER_WORD = re.compile(r"[a-z][a-z0-9]*")
_LETTERS = re.compile(r"[a-z]+")
_ALNUM = re.compile(r"[a-z0-9]+")


def field(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The candidate says it is for a field (a sport, a science) that neither the reference's
    documentation nor the step nor the request names."""
    mine = _fields_of(_about(cand))
    if not mine:
        return None
    theirs = _documented_fields(ref)
    if mine & theirs or mine & _written(step):
        return None
    word = sorted(_about(cand) & mine)[0]
    return f"the candidate is only for {word}, which neither the step nor the reference names"


# -- another property of the same object ---------------------------------------------------------

_CHECKS_IF = re.compile(
    r"(?i)\bchecks?\s+(?:if|whether)\s+(?:an?\s+|the\s+)?(?:given\s+|provided\s+)?"
    r"[\w.-]+(?:\s+[\w.-]+)?\s+(?:is|are|has|have)\s+(?:an?\s+|the\s+)?(?:not\s+)?([a-z]+)"
)


def _prefix(word: str) -> str:
    return word.lower()[:5]


def checked_property(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The reference checks whether its object holds one property ("checks if a given domain is
    disposable"); a candidate whose documentation never says that property checks or fetches
    something else of the same object (its availability, its WHOIS record)."""
    checked = _checked(ref)
    if checked is None or _prefix(checked) in _prefixes(cand):
        return None
    return f"the reference checks whether it is {checked}; the candidate never says {checked!r}"


@per_tool
def _checked(tool: ToolDoc) -> str | None:
    """The property a tool's description says it checks ("disposable"), as written."""
    m = _CHECKS_IF.search(df.description(tool.doc))
    if not m or m.group(1).lower() in ("valid", "available", "in", "on", "a"):
        return None
    return m.group(1)


def inverse_lookup(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The reference is given an id ("info by user id"); the candidate returns that id from
    something else ("user id by username"): it finds the key, not what the key opens."""
    obj_r, key_r = name_object_and_key(ref)
    if not key_r:  # most names are given nothing ("by ..."): no id to find
        return None
    obj_c, key_c = name_object_and_key(cand)
    ids = {w for w in key_r & obj_c - obj_r if df.is_id_like(w)}
    if not ids or not key_c or key_c & key_r:
        return None
    return (
        f"the reference is given the {_named(ref, key_r)}; the candidate returns it from "
        f"a {_named(cand, key_c)}"
    )


def _named(tool: ToolDoc, keys: frozenset[str]) -> str:
    words = df.split_words(df.name(tool.doc) or tool.name or "")
    return " ".join(dict.fromkeys(w for w in words if df.stem(w) in keys))


# -- fewer of the outputs the step lists --------------------------------------------------------

_TARGETS = re.compile(r"(?i)\b(?:to|into)\s+([A-Za-z][\w-]*(?:\s*(?:,|and|or)\s*[A-Za-z][\w-]*)+)")


def listed_targets(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The step converts into several forms ("to RGB and Hex"); the reference documents each,
    the candidate one of them only."""
    for words in _target_lists(step.subquery):
        missing = [
            w for w in words if df.stem(w.lower()) in stems(ref) and _prefix(w) not in
            _alnum_prefixes(cand)
        ]  # fmt: skip
        if missing and len(missing) < len(words):
            asked = " and ".join(words)
            return f"the step asks for {asked}; the candidate never gives {missing[0]}"
    return None


@lru_cache(maxsize=1 << 12)  # once per step rather than per pair (a long sub-query's search)
def _target_lists(subquery: str) -> tuple[tuple[str, ...], ...]:
    """The lists of two or more forms the step converts into, each as written, in order."""
    out = []
    for m in _TARGETS.finditer(subquery):
        words = tuple(w for w in re.split(r"\s*(?:,|\band\b|\bor\b)\s*", m.group(1)) if w)
        if len(words) >= 2:
            out.append(words)
    return tuple(out)


_INFO = word_set("information info details detail data")


def booleans_only(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The step asks for information ("check the domain information") and the candidate's
    documented response is true/false only: an answer to one question, not the information."""
    if not _INFO & _lower_words(step.subquery):
        return None
    shown = _leaf_types(cand)
    if not shown or any(t not in ("bool", "boolean") for t in shown):
        return None
    return "the step asks for information; the candidate's documented response is only true/false"


@lru_cache(maxsize=1 << 12)  # once per step rather than per pair
def _lower_words(text: str) -> frozenset[str]:
    return frozenset(df.split_words(text.lower()))


@per_tool
def _leaf_types(tool: ToolDoc) -> tuple[str, ...]:
    resp = tool.doc.get("template_response")
    if not isinstance(resp, dict) or not resp:
        return ()
    return tuple(str(v).lower() for v in resp.values())


_CATEGORY = "category_name"


def thin_elsewhere(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """A candidate documenting no response, whose description never says what comes back but
    "the response", listed under another category than the reference: nothing shows it does
    the reference's act."""
    cc, cr = cand.doc.get(_CATEGORY), ref.doc.get(_CATEGORY)
    if not cc or not cr or cc == cr or response_fields(cand):
        return None
    words = set(df.split_words(df.description(cand.doc).lower()))
    if "response" not in words or len(words) > 16:
        return None
    return (
        f"the candidate says only that it gets 'the response', documents none, and is listed "
        f"under {cc!r}, not {cr!r}"
    )


# -- narrower than the step, by a word of its own documentation -------------------------------

_ONE_OF = re.compile(r"(?i)\bone of\s*\[([^\]]+)\]")


@per_tool
def _choices(tool: ToolDoc) -> tuple[str, ...]:
    out: list[str] = []
    for p in params(tool):
        for m in _ONE_OF.finditer(p.description or ""):
            out += [c.strip(" '\"") for c in m.group(1).split(",")]
    return tuple(c for c in out if c)


def enumerated_kinds(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The candidate lists the kinds it returns ("one of ['bus_stops', ...]"); the step asks for
    a kind the reference's description says and the candidate never does."""
    kinds = _choices(cand)
    if not kinds:
        return None
    ref_about = {df.stem(w) for w in _about(ref)}
    have = _letter_stems(cand)
    missing = [w for w in step.asked if df.stem(w) in ref_about and df.stem(w) not in have]
    if not missing:
        return None
    return f"the step asks for {missing[0]}; the candidate's kinds are {', '.join(kinds[:4])}"


def _one_word_apart(a: list[str], b: list[str]) -> bool:
    return len(a) == len(b) >= 2 and sum(x != y for x, y in zip(a, b, strict=True)) == 1


def sibling_features(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """Two endpoints of one provider whose names differ in one word (a tier: free / pro): what
    the step asks that the reference's description says and the candidate's does not ("all the
    features") is what sets them apart."""
    if not provider(ref) or provider(ref) != provider(cand):
        return None
    rn = df.split_words(df.name(ref.doc) or ref.name or "")
    cn = df.split_words(df.name(cand.doc) or cand.name or "")
    if not _one_word_apart(rn, cn):
        return None
    rd = {df.stem(w) for w in df.split_words(df.description(ref.doc))}
    cd = {df.stem(w) for w in words_of(df.description(cand.doc), *cn)}
    missing = [w for w in step.asked if df.stem(w) in rd and df.stem(w) not in cd]
    if not missing:
        return None
    return f"the step asks for {missing[0]}, which the reference says and its sibling does not"


# -- a provider the request names --------------------------------------------------------------

_ASKED_PROVIDER = re.compile(
    r"\b(?:using|from|via|with|through|on)\s+(?:the\s+)?([A-Z][\w.&'+-]*)\s+(?:API|APIs)\b"
)


def requested_provider(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The request asks for a named provider's answer ("using the Zoopla API") and the candidate
    never names that provider: the user asked where the answer comes from."""
    for text in step.texts:
        for name, parts in _asked_providers(text):
            # a name made of ordinary words ("JobSearch") is named when the candidate says each
            if name.lower() not in cand.text.lower() and not parts <= stems(cand):
                return f"the request asks for the {name} API; the candidate never names it"
    return None


@lru_cache(maxsize=1 << 12)  # a step's texts, once each rather than once per pair
def _asked_providers(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """The providers ``text`` asks an answer of, as written, each with its words' stems."""
    return tuple(
        (m.group(1), frozenset(df.stem(w) for w in df.split_words(m.group(1))))
        for m in _ASKED_PROVIDER.finditer(text)
    )


OPERATION_RULES = (checked_property, inverse_lookup)
OUTPUT_RULES = (listed_targets, booleans_only, thin_elsewhere)
SCOPE_RULES = (environment, fine_tune, field, enumerated_kinds, sibling_features)
PLATFORM_RULES = (requested_provider,)
