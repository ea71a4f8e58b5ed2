"""What a tool needs to run, and whether the step can give it.

The verdict guideline's third condition (docs/verdict-guideline.md): every required input of the
candidate is something the request states, the step supplies, or the reference also needs. Three
kinds of input, told apart by general API conventions:

- **payloads**: content the user hands over (the text a QR code encodes, the query, the number):
  the request supplies them whatever they are called;
- **handles**: ids another system issued (``user_id``, ``channel_id``, a token): an extra lookup
  when nobody holds one, and a record of one platform only, so an id the request writes out does
  not travel to a candidate on another platform; public identifiers (ISBN, ticker, IP, e-mail,
  ISO codes, coordinates) are not handles;
- **settings** the step asks for ("a word of length 7"): the candidate must be able to take them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from toolex.judges.base import ToolDoc, per_step_tool, per_tool
from toolex.judges.lexicon import PAYLOAD_WORDS, PUBLIC_IDS, SYNONYM_OF, word_set
from toolex.judges.scope import stems
from toolex.judges.step import Step
from toolex.judges.tool_facts import model_card, named_provider, params
from toolex.judges.vocabulary import keys_of, said, synonym_keys
from toolex.tooldoc import fields as df

# An id the request writes out: after "id"/"ID", or a code mixing letters and digits.
_STATED_ID = re.compile(
    r"\b(?:id|ID|Id)\b[\s:#'\"]*[\w-]+|\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])"
    r"[A-Za-z0-9_-]{6,}\b"
)
_ID_STEMS = frozenset(df.stem(w) for w in (*df.ID_WORDS, "code", "slug"))
# Parameter names that are interface plumbing, not a setting the user asks for.
_SETTING_NOISE = frozenset(
    df.stem(w)
    for w in word_set(
        """
        format page limit offset size callback key token version api type mode output
        response json xml lang
        """
    )
)


@lru_cache(maxsize=1 << 12)  # one request is read for each of its ~20 candidates
def states_id(text: str) -> bool:
    """Whether ``text`` writes an id out (``_STATED_ID``)."""
    return _STATED_ID.search(text) is not None


@lru_cache(maxsize=1 << 14)  # a pure function of a name the verifier asks about once per pair
def is_payload(param_name: str) -> bool:
    """Content the user hands over, whatever it is called: the text, the query, a model's input
    tensors."""
    words = df.split_words(param_name)
    if not words:
        return False
    if words[-1] in ("code", "number", "num") and len(words) > 1:
        return False  # ``station_code``, ``room_number``: an identifier, not content
    return df.stem(words[-1]) in PAYLOAD_WORDS or words[0] == "input"


@lru_cache(maxsize=1 << 14)  # a pure function of a name the verifier asks about once per pair
def is_public_id(param_name: str) -> bool:
    return any(df.stem(w) in PUBLIC_IDS for w in df.split_words(param_name))


@lru_cache(maxsize=1 << 14)  # a pure function of a name the verifier asks about once per pair
def is_handle(param_name: str) -> bool:
    """An input naming a record another system issued (``user_id``, ``station_code``, a token),
    not a public identifier."""
    words = df.split_words(param_name)
    issued = df.is_id_like(param_name) or (bool(words) and words[-1] in {"code", "key", "slug"})
    return issued and not is_public_id(param_name)


@per_tool
def required_params(tool: ToolDoc) -> tuple[df.Param, ...]:
    return tuple(p for p in params(tool) if p.required)


@per_tool
def param_words(tool: ToolDoc) -> frozenset[str]:
    """Stems of every word of the parameters' names and descriptions."""
    return frozenset(
        df.stem(w) for p in params(tool) for w in df.split_words(f"{p.name} {p.description}")
    )


def _synonyms(words: Iterable[str]) -> set[int]:
    return {SYNONYM_OF[w] for w in words if w in SYNONYM_OF}


def missing_inputs(
    cand: ToolDoc, ref: ToolDoc, step_words: Iterable[str], request: str | None = None
) -> list[str]:
    """Required candidate inputs nobody supplies, payloads aside. A setting is supplied when the
    step's words or the reference's inputs carry it (directly or through a synonym group such as
    lat/latitude); a handle (``qr_id``) only when the reference needs a handle of the same thing
    (an id a previous step hands over counts for both alike) or the request writes an id out: the
    step saying "QR code" supplies no QR code's id."""
    have = set(step_words) | param_words(ref)
    have_syn = _synonyms(have)
    stated = bool(request and states_id(request))
    out = []
    for p in required_params(cand):
        if is_payload(p.name):
            continue
        words = frozenset(df.stem(w) for w in df.split_words(p.name)) - df.STOPWORDS
        if is_handle(p.name):
            if not (stated or _held_by(words, ref)):
                out.append(p.name)
            continue
        if not words or words & have or _synonyms(words) & have_syn:
            continue
        out.append(p.name)
    return out


def _held_by(words: frozenset[str], ref: ToolDoc) -> bool:
    """Whether the reference needs a handle of the same thing: a required handle sharing the
    words besides the id word (both bare ``id`` or ``token`` included)."""
    thing = words - _ID_STEMS
    for p in required_params(ref):
        if not is_handle(p.name):
            continue
        theirs = frozenset(df.stem(w) for w in df.split_words(p.name)) - df.STOPWORDS - _ID_STEMS
        if thing == theirs or thing & theirs or _synonyms(thing) & _synonyms(theirs):
            return True
    return False


def handle_conflict(cand: ToolDoc, ref: ToolDoc, request: str | None) -> str | None:
    """The request writes out an id (``B08N5WG761``, "ID 12345") of the reference's platform,
    and the candidate, on another platform, needs an id of its own: the id names a record the
    candidate cannot see. An id a previous step hands over is the dependency rule's
    (toolex.pipeline.platform_rule), which keeps such steps on one platform."""
    rp, cp = named_provider(ref), named_provider(cand)
    if not rp or not cp or rp == cp or not request or not states_id(request):
        return None
    issued, theirs = _id_inputs(ref), _id_inputs(cand)
    if issued and theirs:
        return (
            f"ids do not travel between platforms: the request's id is for {rp}; "
            f"the candidate ({cp}) needs its own {', '.join(theirs)}"
        )
    return None


@per_tool
def _id_inputs(tool: ToolDoc) -> tuple[str, ...]:
    """The ids a tool takes of records its provider issued: its required ones, or, where the
    documentation marks nothing required (a function's defaults), every one it takes."""
    given = required_params(tool) or params(tool)
    return tuple(p.name for p in given if is_handle(p.name) and df.is_id_like(p.name))


def step_param_missing(texts: Iterable[str], cand: ToolDoc, ref: ToolDoc) -> str | None:
    """A setting the step asks for that the reference takes as a parameter and the candidate
    cannot: "a word of length 7", a reference taking ``length``, a candidate taking only
    ``start``. A parameter counts as asked for when its whole name (one or two content words,
    not an id, a payload or interface plumbing) is words of the step; the candidate can take it
    when a parameter of its own shares a stem or a synonym group, or its documentation names it."""
    asked = _settings_asked(tuple(texts), ref)
    if not asked:
        return None
    have, have_syn = _settings_held(cand)
    for name, words in asked:
        if any(w in have or SYNONYM_OF.get(w, -1) in have_syn for w in words):
            continue
        return f"the step sets {name!r}, which the reference takes and the candidate cannot"
    return None


@per_step_tool
def _settings_asked(
    texts: tuple[str, ...], ref: ToolDoc
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The reference's parameters whose whole name the step says (with their stems), in order:
    what ``step_param_missing`` asks the candidate to take."""
    step = {df.stem(w) for text in texts for w in df.split_words(text)}
    out = []
    for p in params(ref):
        words = [df.stem(w) for w in df.split_words(p.name) if w not in df.STOPWORDS]
        if not words or len(words) > 2 or is_payload(p.name) or df.is_id_like(p.name):
            continue
        if not all(w in step for w in words) or any(w in _SETTING_NOISE for w in words):
            continue
        out.append((p.name, tuple(words)))
    return tuple(out)


@per_tool
def _settings_held(tool: ToolDoc) -> tuple[frozenset[str], frozenset[int]]:
    have = param_words(tool) | stems(tool)
    return have, frozenset(_synonyms(have))


# -- point 3 of the verifier (toolex.judges.checks): every required input can be filled ----------

# Words of a parameter's name that say the form of its value, not what it is ("city_name").
FORM_WORDS = frozenset(
    df.stem(w) for w in word_set("name value str string text val param arg input")
)


def unheld_handles(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """A required id of the candidate nobody holds: an extra lookup step. An id is held when the
    reference needs an id of the same thing (whoever gives it to one gives it to the other), or
    when the step writes an id out and the reference takes no required input that the id goes
    into instead (the tracking number is the reference's; a carrier code is another lookup)."""
    unheld = [
        p.name
        for p in required_params(cand)
        if is_handle(p.name) and not is_payload(p.name) and not _held_by(_words(p.name), ref)
    ]
    if not unheld:
        return None
    taken = any(not plumbing(p.name) for p in required_params(ref))
    if not taken and states_id(step.subquery):
        return None
    return f"required identifiers nobody supplies: {', '.join(unheld)}"


@lru_cache(maxsize=1 << 14)
def _words(param_name: str) -> frozenset[str]:
    return frozenset(df.stem(w) for w in df.split_words(param_name)) - df.STOPWORDS


def unfilled_settings(step: Step, cand: ToolDoc, ref: ToolDoc) -> str | None:
    """A required input of the candidate (not a payload, not an id) that neither the request nor
    the step says, and that the reference does not take too: every word of its name counts, so
    a ``room_number`` is not filled by a request that gives a room type, nor a ``location`` by a
    request that gives none."""
    if model_card(cand):
        return None  # a model card's arguments load the model; its payload is the input
    theirs = param_name_keys(ref) | param_description_keys(ref)
    for p in required_params(cand):
        if is_payload(p.name) or is_handle(p.name) or is_public_id(p.name) or plumbing(p.name):
            continue
        words = name_words(p.name)
        if not words:
            continue
        unsaid = [w for w in words if not said(w, step.keys) and not said(w, theirs)]
        if unsaid:
            return (
                f"the candidate requires {p.name!r}, which neither the request nor the "
                "reference gives"
            )
    return None


# Function words of parameter names ("date_of_birth"); "number" or "type" are not among them.
_FUNCTION_WORDS = word_set("a an the of to for by in on at from with and or is")


def name_words(param_name: str) -> list[str]:
    """The words of a parameter's name that say what it takes: function words and words of the
    value's form ("city_name" -> city) left out, unless nothing else is left."""
    words = [w for w in df.split_words(param_name) if len(w) > 1 and w not in _FUNCTION_WORDS]
    return [w for w in words if df.stem(w) not in FORM_WORDS] or words


@per_tool
def param_name_keys(tool: ToolDoc) -> frozenset[str]:
    """Keys of the words of every parameter's name (toolex.judges.vocabulary)."""
    words = [w for p in params(tool) for w in df.split_words(p.name)]
    return keys_of(words) | synonym_keys(words)


@per_tool
def param_description_keys(tool: ToolDoc) -> frozenset[str]:
    """Keys of what the parameters' descriptions say they take ("q: city name, coordinates or
    zip code")."""
    return keys_of(w for p in params(tool) for w in df.split_words(p.description))


@lru_cache(maxsize=1 << 14)  # a pure function of a name the verifier asks about once per pair
def plumbing(param_name: str) -> bool:
    """An input of the interface (format, page, api key), with a value any caller has."""
    words = [df.stem(w) for w in df.split_words(param_name)]
    return bool(words) and all(w in PLUMBING_WORDS for w in words)


# Inputs of the interface rather than of the request: a value any caller has or can default.
PLUMBING_WORDS = frozenset(
    df.stem(w)
    for w in word_set(
        """
        format page limit offset size callback key apikey secret auth version api output
        response json xml lang per
        """
    )
)


RULES = (unheld_handles, unfilled_settings)
