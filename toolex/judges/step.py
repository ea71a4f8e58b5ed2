"""What the verifier reads off one step: the sub-query and the request, read once per step.

A verify batch asks about one step for each of its ~20 candidates; the words below depend on the
step only, so they are worked out once per (sub-query, request) and shared (``step_of``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from toolex.judges.lexicon import base_verb, char_before, word_set, words_of
from toolex.judges.vocabulary import keys_of, synonym_keys
from toolex.tooldoc import fields as df

# Values the step gives rather than asks for: quoted text, a decomposer's "(about: ...)" note.
_VALUES = re.compile(r"'[^']*'|\"[^\"]*\"|\(about:[^)]*\)")
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*")
# Words that ask, or say how much, rather than name what is asked ("get all the details").
ASK_FILLER = word_set(
    """
    get fetch retrieve find provide give show tell list search look lookup obtain display see
    know want need like please help let check return
    detail details info information data result results all latest current new recent
    specific certain particular various different kind kinds type types way ways
    last first next previous top best main
    model api tool service endpoint function method
    some many much most more also well including include includes along together each every
    me my mine our us i you your
    """
)


@dataclass(frozen=True)
class Step:
    subquery: str
    request: str
    words: frozenset[str]  # content stems of the sub-query
    said: frozenset[str]  # content stems of the sub-query and the request
    asked: tuple[str, ...] = ()  # what the step asks about, lower case, as written
    # keys of every word of both, input synonyms included (toolex.judges.vocabulary)
    keys: frozenset[str] = frozenset()

    def __hash__(self) -> int:
        # Every other field is read off these two (``step_of``), so equal steps hash equal. The
        # generated hash re-hashed the ``asked`` tuple's words on every memo lookup a rule makes
        # with a step (``per_step_tool``): tens of thousands per verify batch.
        return hash((self.subquery, self.request))

    @property
    def texts(self) -> tuple[str, str]:
        """The sub-query and the request, apart (each one's first word is known)."""
        return (self.subquery, self.request)


@lru_cache(maxsize=1 << 10)
def step_of(subquery: str, request: str) -> Step:
    words, keys = _read(subquery)
    said, request_keys = _read(request)
    # the words of "subquery request" are the sub-query's then the request's (no word crosses
    # the space), so each text is read apart, and a request once for all its sub-queries
    return Step(subquery, request, words, words | said, asked_words(subquery), keys | request_keys)


@lru_cache(maxsize=1 << 10)
def _read(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """A text's content stems, and the keys of its words, input synonyms included."""
    written = df.split_words(text)
    return frozenset(df.content_tokens(text)), keys_of(written) | synonym_keys(written)


@lru_cache(maxsize=1 << 10)
def written(step: Step) -> frozenset[str]:
    """The lower-case words of the sub-query and the request (``words_of`` of both): what rules
    look the step's named countries, languages or currencies up in, once per step."""
    return frozenset(words_of(step.subquery, step.request))


def asked_words(subquery: str) -> tuple[str, ...]:
    """The words naming what the step asks about: the sub-query's content words, without the
    values it gives (quoted, capitalised as names are), the verb it opens with, words that ask
    rather than name, and numbers."""
    text = _VALUES.sub(" . ", subquery)
    out: list[str] = []
    first = True
    for m in _TOKEN.finditer(text):
        raw = m.group()
        opens = first or char_before(text, m.start()) in ".!?;:"
        first = False
        if raw[:1].isupper() and not opens:
            continue  # a name the step gives ("Paris", "Spotify"): a value, not an ask
        for word in df.split_words(raw):
            if (
                len(word) < 2
                or word in df.STOPWORDS
                or word in ASK_FILLER
                or word.isdigit()
                or (opens and base_verb(word))
            ):
                continue
            out.append(word)
    return tuple(dict.fromkeys(out))
