"""Which words of a clause are one tool's step: the pieces the offline decomposer
(toolex.judges.decomposer) cuts a shared clause into, in the request's own words.

* ``my_items``: the items of a coordinated list that concern one tool, with the list's head and
  tail that every item shares ("What is the ZIP code | and the latitude and longitude | of the IP
  address 8.8.8.8" -> "What is the ZIP code of the IP address 8.8.8.8");
* ``step_span``: without a list, the shortest stretch of the clause that holds the words the
  tool's documentation holds, with the values right after it;
* ``points_back`` / ``antecedent_object``: an ask that points back ("fetch this information",
  "get these data sets") and the thing the clause before it names;
* ``lead_with_verb``: a step led by a verb, the request's own or the tool's.

General English only, never one benchmark's vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from toolex.judges.base import ToolDoc, per_tool
from toolex.judges.clauses import (
    PREPOSITIONS,
    QUESTION_WORDS,
    constraints,
    is_verb,
    list_items,
    shared_tail,
)
from toolex.judges.lexicon import word_set
from toolex.judges.step_text import opening_verb
from toolex.tooldoc import fields as df

# Words of asking and framing: they match every tool's "get"/"provide" and say nothing.
ASKING = frozenset(
    df.stem(w)
    for w in word_set(
        """
        get provide give tell show find fetch help please want need like know curious
        interested information info data also can could would
        """
    )
)
# A step may open with these as well as with a verb ("Will it rain ...", "Is flight BA 283 ...").
_OPENERS = QUESTION_WORDS | word_set("will can could would should shall may might has have had")
_POINTERS = word_set("this that these those it")
# What "the ..." names when it names nothing of its own: "provide the list", "the details".
_GENERIC = frozenset(df.stem(w) for w in word_set("list details results answer options"))
_DETERMINERS = word_set("the a an my our your their his her its this these that those all any")
_GOING_ON = re.compile(
    r"^(?:i|we)(?:'m|\s+am|'re|\s+are)\s+(?:currently\s+|also\s+)?\w+ing\s+", re.IGNORECASE
)

VALUE_REACH = 4  # words after a step's stretch within which a value still belongs to it
Overlap = Callable[[str, ToolDoc], float]


@per_tool
def tool_words(tool: ToolDoc) -> frozenset[str]:
    """Stemmed words of the tool's name, description, parameters and response."""
    parts = [df.name(tool.doc) or tool.name or "", df.description(tool.doc)]
    parts += [f"{p.name} {p.description}" for p in df.params(tool.doc)]
    return frozenset(df.content_tokens(" ".join(parts))) | frozenset(df.returns_tokens(tool.doc))


def lead_with_verb(text: str, tool: ToolDoc) -> str:
    """``text`` capitalised when it opens with a verb or a question; else led by the verb of
    the tool's operation ("the schedule for May 5" -> "Get the schedule for May 5")."""
    words = text.split()
    if not words:
        return text
    first = words[0].lower().removesuffix("'s").removesuffix("'re").removesuffix("'m")
    second = words[1].lower() if len(words) > 1 else ""
    if is_verb(first) or first in _OPENERS or (first in PREPOSITIONS and second in _OPENERS):
        return text[0].upper() + text[1:]  # "In how many ways ..." asks too
    if words[0][:1].islower() and first not in _DETERMINERS and first not in df.STOPWORDS:
        return f"{opening_verb(tool)} the {text}"  # "Get the file named ...", not "Get file"
    return f"{opening_verb(tool)} {text}"


def my_items(
    text: str,
    tool: ToolDoc,
    others: Sequence[ToolDoc],
    overlap: Overlap,
    position: int | None = None,
) -> str:
    """The items of a coordinated list in ``text`` that concern ``tool`` at least as much as
    the ``others`` sharing the clause, with the list's head and shared tail; "" when the clause
    holds no such list. ``position``: the tool's place among calls of one tool that share the
    clause (each takes the item in its place when there are as many items as calls)."""
    items = list_items(text)
    if len(items) < 2 or any(not any(w.isalpha() for w in df.split_words(i)) for i in items):
        return ""  # "(2, 3, 3)", "January 1, 2021": numbers, not a list of things
    if any(i.split()[0].lower() in PREPOSITIONS for i in items[1:]):
        return ""  # "the measure, in degrees, of the angle": asides, not a list
    head, items[0] = _head(items[0])
    items, tail = shared_tail(items)
    if position is not None:
        mine = [position] if len(items) == len(others) + 1 else []
    else:
        mine = [
            n
            for n, item in enumerate(items)
            if (own := overlap(item, tool)) > 0 and all(own >= overlap(item, o) for o in others)
        ]
    if not mine or len(mine) == len(items):
        return ""
    short = not any(len(items[n].split()) > 3 for n in range(1, len(items)))
    if mine[0] != 0 and not tail and short:
        # "Fetch the gas price for both Kentucky and Georgia" for Georgia's tool: the first item
        # without its own tail (as long as the later items) carries the shared words.
        words = items[0].split()
        length = max(len(items[n].split()) for n in range(1, len(items)))
        shared = " ".join(words[: max(0, len(words) - length)])
        head = f"{head} {shared}".strip()
    elif mine[0] != 0 and not head and not tail:
        return ""  # not a list of short names: no shared words to carry
    return " ".join(x for x in (head, " and ".join(items[n] for n in mine), tail) if x)


def _head(item: str) -> tuple[str, str]:
    """(the verb or question opening a list's first item, the rest): "What is | the ZIP code"."""
    words = item.split()
    n = 0
    while n < len(words) - 1 and (is_verb(words[n].lower()) or words[n].lower() in _OPENERS):
        n += 1
    return " ".join(words[:n]), " ".join(words[n:])


def step_span(text: str, tool: ToolDoc, *, values: bool = True) -> str | None:
    """The shortest stretch of ``text`` that holds every word of it the tool's documentation
    holds (asking words aside), widened to the determiner before it and the values after it;
    None when the text holds none of them. ``values=False``: the stretch ends before its first
    value (the clause is another step's, and so are its values)."""
    words = text.split()
    mine = tool_words(tool) - ASKING
    marks = [i for i, w in enumerate(words) if set(df.content_tokens(w)) & mine]
    if not values:
        cut = next((i for i, w in enumerate(words) if _value(w)), len(words))
        words, marks = words[:cut], [i for i in marks if i < cut]
        while words and words[-1].lower() in PREPOSITIONS | _DETERMINERS:
            words.pop()
        marks = [i for i in marks if i < len(words)]
    if not marks:
        return None
    start, end = marks[0], marks[-1]
    while start > 0 and words[start - 1].lower() in _DETERMINERS:
        start -= 1
    near = [i for i in range(end + 1, min(end + 1 + VALUE_REACH, len(words))) if _value(words[i])]
    while near:  # "file | named 'design.vsdx' stored in the 'designs' | folder"
        end = near[-1]
        near = [
            i for i in range(end + 1, min(end + 1 + VALUE_REACH, len(words))) if _value(words[i])
        ]
    after = words[end + 1].lower() if end + 1 < len(words) else ""
    noun = after.isalpha() and after not in df.STOPWORDS and not after.endswith(("ed", "ing"))
    if words[end][:1] in "'\"" and noun:
        end += 1  # the noun a quoted value names: "the 'designs' folder"
    return " ".join(words[start : end + 1]).strip(" ,;:.?!")


def _value(word: str) -> bool:
    return bool(constraints(f"x {word}"))


def points_back(text: str) -> bool:
    """Whether an ask says nothing but that it points back: "fetch this information for me",
    "get these data sets", "can you help me with that", "can you provide me with the list"."""
    words = {w.lower().strip(",.?!'\"") for w in text.split()}
    said = set(df.content_tokens(text)) - ASKING
    if words & _POINTERS:
        return len(said) <= 1
    return "the" in words and not said - _GENERIC


def antecedent_object(text: str) -> str:
    """What a clause is about, without its subject and verb: "I'm researching the performance
    of the AUD/NZD pair" -> "the performance of the AUD/NZD pair"."""
    text = _GOING_ON.sub("", text.strip(), count=1)
    words = text.split()
    if len(words) > 1 and is_verb(words[0].lower()):
        words = words[1:]
    return " ".join(words).strip(" ,;:.?!")
