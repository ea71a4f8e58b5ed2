"""What a tool does and which way: its operation verbs and the direction of a conversion, and the
rule that inverse operations are never equivalent.

The verdict guideline's first condition is "the same core operation" (docs/verdict-guideline.md):
a tool that creates what the reference deletes, or converts the other way round, fails it however
much vocabulary the two documents share. Read off the name (``deleteUser``, ``date_to_time``,
``get_city_from_zipcode``) and the description's first sentence, with general English verbs
(``toolex.judges.lexicon``), never one benchmark's words. Documents only ever become words.
"""

from __future__ import annotations

import re

from toolex.judges.base import ToolDoc, per_tool
from toolex.judges.lexicon import (
    COMPATIBLE,
    INVERSE_VERBS,
    OPERATION_GROUPS,
    READING_VERBS,
    VARIANT_WORDS,
    base_verb,
    content_of,
    operation_of,
    word_set,
)
from toolex.judges.step import Step
from toolex.judges.tool_facts import model_card, provider
from toolex.tooldoc import fields as df

_INVERSE = {frozenset(pair) for pair in INVERSE_VERBS}
_INVERSE_WORDS = frozenset(w for pair in INVERSE_VERBS for w in pair)
# Verbs a description uses about its interface, not its operation ("takes ... and returns").
_WEAK = frozenset({"return", "use", "take", "make", "provide", "get", "give", "allow", "help"})
# A conversion's direction: "<a> to <b>" / "<a>2<b>" in a name; "<a> from <b>" / "<a> by <b>"
# in a name (the target first); "converts <a> to <b>" or "from <a> to <b>" in a description.
_NAME_CONVERSION = re.compile(r"\b([a-z][a-z0-9]{1,20})\s+(?:to|2)\s+([a-z][a-z0-9]{1,20})\b")
_NAME_LOOKUP = re.compile(r"\b([a-z][a-z0-9]{1,20})\s+(?:from|by)\s+([a-z][a-z0-9]{1,20})\b")
# Compiled once (``re``'s own cache is shared with the patterns other rules build per word).
_BRACKETED = re.compile(r"\([^)]*\)|\[[^]]*\]|\{[^}]*\}")
_ROUND_OR_SQUARE = re.compile(r"\([^)]*\)|\[[^]]*\]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
_ID_PARTS = re.compile(r"[-_.]")
_DESC_CONVERSION = re.compile(
    r"\bconverts?\s+(?:the\s+|a\s+|an\s+)?([a-z][a-z0-9]{1,20})\s+(?:to|into)\s+"
    r"(?:the\s+|a\s+|an\s+)?([a-z][a-z0-9]{1,20})\b"
    r"|\bfrom\s+([a-z][a-z0-9]{1,20})\s+to\s+([a-z][a-z0-9]{1,20})\b"
)
# ISO 639-1 codes of the languages translation models are commonly trained on.
_LANGUAGES = word_set(
    """
    af am ar az be bg bn bs ca cs cy da de el en eo es et eu fa fi fr ga gl gu he hi hr hu hy id
    is it ja jv ka kk km kn ko ku ky la lo lt lv mg mk ml mn mr ms mt my ne nl no pa pl ps pt ro
    ru si sk sl sq sr sv sw ta te tg th tl tr uk ur uz vi xh yi yo zh zu
    """
)
_NOT_A_SIDE = word_set(
    """
    a an the it this that them each one way how what be go back up
    """
)


def verb_of(word: str) -> str | None:
    """``word`` as a base-form verb: "deletes" -> "delete", "closing" -> "close"."""
    verb = base_verb(word)
    if verb or not word.endswith("ing") or len(word) < 6:
        return verb
    stem = word[:-3]
    for form in (stem, stem + "e", stem[:-1] if stem[-1:] == stem[-2:-1] else ""):
        if form and (base_verb(form) or form in _INVERSE_WORDS):
            return base_verb(form) or form
    return None


@per_tool  # verbs and conversion both read it
def _first_sentence(tool: ToolDoc) -> str:
    return _SENTENCE_END.split(df.description(tool.doc).strip(), maxsplit=1)[0]


@per_tool
def verbs(tool: ToolDoc) -> frozenset[str]:
    """The tool's own operation verbs: its name's verbs (gerunds too: "closing"), and the first
    operation verb of its description's first sentence."""
    out = set()
    for word in df.split_words(df.name(tool.doc) or tool.name or ""):
        verb = verb_of(word)
        if verb and verb not in _WEAK:
            out.add(verb)
    for word in df.split_words(_first_sentence(tool))[:8]:
        verb = base_verb(word)
        if verb and verb not in _WEAK:
            out.add(verb)
            break
    return frozenset(out)


@per_tool
def conversion(tool: ToolDoc) -> tuple[str, str] | None:
    """(from, to) stems when the name or the description's first sentence says the tool turns
    or looks up one thing from another ("date_to_time", "city_from_zipcode", "converts Celsius to
    Fahrenheit")."""
    name = " ".join(df.split_words(df.name(tool.doc) or tool.name or ""))
    found = [(m.group(1), m.group(2)) for m in _NAME_CONVERSION.finditer(name)]
    found += [(m.group(2), m.group(1)) for m in _NAME_LOOKUP.finditer(name)]
    for m in _DESC_CONVERSION.finditer(" ".join(df.split_words(_first_sentence(tool)))):
        found.append((m.group(1) or m.group(3), m.group(2) or m.group(4)))
    for a, b in found:
        if _side(a) and _side(b):
            return df.stem(a), df.stem(b)
    return None


@per_tool
def language_pair(tool: ToolDoc) -> tuple[str, str] | None:
    """(source, target) of a translation model whose id carries the pair ("opus-mt-fr-en"): the
    last two language codes side by side in the id. A code outside the ISO list (a dialect's
    "hk") counts when it is paired with one in it by a hyphen ("en-hk")."""
    name = (df.name(tool.doc) or tool.name or "").lower().rsplit("/", 1)[-1]
    tokens = _ID_PARTS.split(name)
    pairs = [
        (a, b)
        for a, b in zip(tokens, tokens[1:], strict=False)
        if a != b
        and ((a in _LANGUAGES and b in _LANGUAGES) or f"{a}-{b}" in name and _code_pair(a, b))
    ]
    return pairs[-1] if pairs else None


def _code_pair(a: str, b: str) -> bool:
    return (a in _LANGUAGES or b in _LANGUAGES) and all(
        len(w) in (2, 3) and w.isalpha() for w in (a, b)
    )


def _side(word: str) -> bool:
    return word not in _NOT_A_SIDE and word not in df.STOPWORDS and not base_verb(word)


def direction_conflict(cand: ToolDoc, ref: ToolDoc) -> str | None:
    """Why the candidate does the reference's operation the other way round, or None."""
    # each side read only when the other has what a conflict needs (most tools have none)
    vc = verbs(cand)
    if vc & _inverses(ref):  # else no verb of the candidate is any inverse of the reference's
        vr = verbs(ref)
        for a in sorted(vr):
            for b in sorted(vc):
                if frozenset({a, b}) in _INVERSE and not ({a, b} <= vc and {a, b} <= vr):
                    return f"opposite operations: the reference does {a!r}, the candidate {b!r}"
    pc = language_pair(cand)
    pr = language_pair(ref) if pc else None
    iso = {*pc, *pr} <= _LANGUAGES if pc and pr else False
    # another pair of listed languages (ro->en, en->fr) is another model; a dialect's or a
    # size's code ("en-hk", "fr-en-big") conflicts only the other way round
    if pc and pr and pc != pr and (iso or _conflicting(pc, pr)):
        return (
            f"another language pair: the reference goes {pr[0]}->{pr[1]}, "
            f"the candidate {pc[0]}->{pc[1]}"
        )
    cc = conversion(cand)
    cr = conversion(ref) if cc else None
    if cc and cr and cc != cr and _conflicting(cc, cr):
        return (
            f"another conversion: the reference turns {cr[0]} into {cr[1]}, "
            f"the candidate {cc[0]} into {cc[1]}"
        )
    return None


@per_tool
def _inverses(tool: ToolDoc) -> frozenset[str]:
    """Every verb of an inverse pair one of the tool's verbs is in."""
    own = verbs(tool)
    return frozenset(v for pair in _INVERSE if pair & own for v in pair)


def _conflicting(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """One conversion the other way round (a->b, b->a), or from one source to another target
    (Celsius to Fahrenheit, Celsius to Kelvin). Two sources of one target (weather by city,
    weather by coordinates) identify the same thing two ways: not a conflict."""
    return a == (b[1], b[0]) or (a[0] == b[0] and a[1] != b[1])


def sibling_operation_conflict(cand: ToolDoc, ref: ToolDoc) -> str | None:
    """Two endpoints of one provider whose names say two operations, or None.

    A provider rarely publishes one operation twice, so when both names lead or end with a verb
    and no verb of one shares an operation group with a verb of the other (``generate_primes`` /
    ``count_primes``, ``ModifyRegistration`` / ``QueryRegistration``), the candidate does another
    thing. Only within one provider (platform), and never for model cards, whose ids are
    checkpoint names: across providers names are written too freely to be read this way."""
    if provider(ref) != provider(cand):
        return None
    if model_card(cand) or model_card(ref):
        return None
    vr, vc = _edge_verbs(ref), _edge_verbs(cand)
    if not vr or not vc or (vr <= READING_VERBS and vc <= READING_VERBS):
        return None
    if any(_one_operation(a, b) for a in vr for b in vc):
        return None
    return (
        f"sibling operations of one provider: the reference does {sorted(vr)[0]!r}, "
        f"the candidate {sorted(vc)[0]!r}"
    )


def output_conflict(cand: ToolDoc, ref: ToolDoc) -> str | None:
    """A model that classifies for one that regresses, or the other way round, or None: a class
    label cannot stand in for a number, whatever the two share (the data, the subject)."""
    kr, kc = _output_kind(ref), _output_kind(cand)
    if kr and kc and kr != kc:
        return f"another output: the reference is a {kr} model, the candidate a {kc} model"
    return None


_OUTPUT_KINDS = ("classification", "regression")


@per_tool
def _output_kind(tool: ToolDoc) -> str | None:
    """classification or regression, when a model card's task or description says one of them."""
    if not model_card(tool):
        return None
    text = f"{tool.doc.get('domain') or ''} {df.description(tool.doc)}".lower()
    found = [kind for kind in _OUTPUT_KINDS if kind in text]
    return found[0] if len(found) == 1 else None


@per_tool
def _edge_verbs(tool: ToolDoc) -> frozenset[str]:
    """The verbs a name opens or closes with (``song_download``, ``GetUserToken``): where a name
    says its operation; a verb inside a name is usually a noun ("get_place_by_ip")."""
    name = _BRACKETED.sub(" ", df.name(tool.doc) or tool.name or "")
    words = df.split_words(name)
    out = set()
    for word in words[:1] + words[-1:]:
        verb = verb_of(word)
        if verb:
            out.add(verb)
    return frozenset(out)


def _one_operation(a: str, b: str) -> bool:
    return a == b or any(a in group and b in group for group in OPERATION_GROUPS)


# -- point 1 of the verifier (toolex.judges.checks): the same act, the same way round ------------


def thin_documentation(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """The guideline's thin documentation: a document that says nothing of what it does."""
    if not _says_what_it_does(cand):
        return "the candidate's documentation says nothing of what it does"
    if not _says_what_it_does(ref):
        return "the reference's documentation says nothing of what it does"
    return None


@per_tool
def _says_what_it_does(tool: ToolDoc) -> bool:
    name = df.name(tool.doc) or tool.name or ""
    # a name of content words says it: the description is not split for this
    return bool(content_of(f"{name}.")) or bool(content_of(df.description(tool.doc)))


def direction(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    return direction_conflict(cand, ref)


# Words that turn an operation around when they are the one word two names differ in: the
# inverse verbs, and the particles of phrasal operations ("check in" / "check out").
_OPPOSITE = _INVERSE | {
    frozenset(pair.split("/"))
    for pair in word_set("in/out on/off up/down checkin/checkout signin/signout")
}


def opposite_names(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """Two names that are one word apart, the two words opposites ("hotel_check_in" /
    "hotel_check_out", "lock_door" / "unlock_door")."""
    a, b = _name_words(ref), _name_words(cand)
    if len(a) != len(b) or len(a) < 2:
        return None
    differ = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    if len(differ) == 1 and frozenset(differ[0]) in _OPPOSITE:
        x, y = differ[0]
        return f"opposite operations: the reference's name says {x!r}, the candidate's {y!r}"
    return None


@per_tool
def _name_words(tool: ToolDoc) -> tuple[str, ...]:
    return tuple(df.split_words(df.name(tool.doc) or tool.name or ""))


def sibling_operation(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    return sibling_operation_conflict(cand, ref)


# Words of an endpoint's name that mark a copy or a version of it, not another operation.
MARKER_WORDS = word_set("copy deprecated legacy old new beta alpha version latest")
_VERSION = re.compile(r"^v\d+$")


def sibling_endpoint(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """Two endpoints of one provider whose names say two things: a provider rarely publishes
    one operation twice, so names that differ in a word other than a reading verb, a version or
    copy marker, a number or a bracketed backend ("Nearby - (Google)") name two operations
    ("Popular Quotes" / "Recent Quotes", "payment cards of an employee" / "the employee of a
    payment card"). Only within one known provider; model cards are named by checkpoint."""
    if not provider(ref) or provider(ref) != provider(cand) or model_card(ref):
        return None
    a, b = operation_words(ref), operation_words(cand)
    if a == b or not a or not b:
        return None
    return (
        f"sibling endpoints of one provider name two operations: "
        f"{df.name(ref.doc) or ref.name!r} and {df.name(cand.doc) or cand.name!r}"
    )


@per_tool
def operation_words(tool: ToolDoc) -> tuple[str, ...]:
    """The words of a name that say what an endpoint does, in order, singular: reading verbs,
    version, copy and tier markers (``VARIANT_WORDS``: basic / pro / ultra), numbers and
    bracketed text left out."""
    name = _ROUND_OR_SQUARE.sub(" ", df.name(tool.doc) or tool.name or "")
    out = []
    for word in df.split_words(name):
        if _VERSION.match(word):
            continue
        word = word.rstrip("0123456789") or word
        if (
            word.isdigit()
            or word in df.STOPWORDS
            or word in MARKER_WORDS
            or word in VARIANT_WORDS
            or word in READING_VERBS
        ):
            continue
        out.append(df.stem(word))
    return tuple(out)


# Operation classes (toolex.judges.lexicon.OPERATIONS) that change or move something: one of
# them never stands in for another class, nor for a read ("download a song" / "song info",
# "create a DNS record" / "check a DNS record").
WRITE_CLASSES = frozenset({"create", "update", "delete", "send", "download"})
# One act makes another thing of the object (a translation, a conversion), the other reads a fact
# off it (its language, whether it is valid, its class): "detect the language" never translates.
TRANSFORM_CLASSES = frozenset({"translate", "convert"})
READ_OFF_CLASSES = frozenset({"check", "analyze"})


def act(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """Both tools say their act plainly (``operation_class``) and the two acts are of different
    classes, one of them a write; or both names open or close with verbs of no common operation
    group, one of them not a reading verb ("configure_fpga_design" / "compile_fpga_design")."""
    a, b = operation_class(ref), operation_class(cand)
    differ = bool(a and b and a != b and frozenset({a, b}) not in COMPATIBLE)
    if differ and (a in WRITE_CLASSES or b in WRITE_CLASSES):
        return f"another act: the reference does {a}, the candidate {b}"
    if differ and frozenset({a, b}) & TRANSFORM_CLASSES and frozenset({a, b}) & READ_OFF_CLASSES:
        return f"another act on the same object: the reference does {a}, the candidate {b}"
    if model_card(ref) or model_card(cand):
        return None
    vr = _name_verb(ref)
    vc = _name_verb(cand) if vr else None
    if not vr or not vc or (vr in READING_VERBS and vc in READING_VERBS):
        return None
    if _one_operation(vr, vc):
        return None
    return f"another act: the reference's name says {vr!r}, the candidate's {vc!r}"


@per_tool
def _name_verb(tool: ToolDoc) -> str | None:
    """The verb a name says its act with: its first word when that is a verb ("installUpdate"),
    else its last ("song_download"); brackets left out."""
    name = _BRACKETED.sub(" ", df.name(tool.doc) or tool.name or "")
    words = df.split_words(name)
    if not words:
        return None
    return verb_of(words[0]) or verb_of(words[-1])


@per_tool
def operation_class(tool: ToolDoc) -> str | None:
    """The tool's own operation class, where it says one plainly: a verb its name opens or
    closes with, else the verb its description opens with ("Downloads a song ...")."""
    said = sorted(_edge_verbs(tool))
    if not said:
        words = df.split_words(df.description(tool.doc))[:1]
        said = [v for v in (verb_of(w) for w in words) if v]
    found = [op for op in (operation_of(v) for v in said) if op]
    return found[0] if len(set(found)) == 1 else None


RULES = (thin_documentation, direction, opposite_names, act, sibling_operation, sibling_endpoint)
