"""The offline decomposer: one sub-query per ground-truth tool, in the request's own words.

ToolEX's Stage 1 asks a model to split a request into one sub-query per ground-truth tool, in the
request's terms, naming no tool, API or parameter, keeping what the step is about. Without a model:

1. The request is cut into clauses (``toolex.judges.clauses``).
2. Each ground-truth tool is matched to the clause that states its step: the library-weighted
   share of the clause's words that the tool's documentation holds, asks before statements
   ("Can you ...?" before "I'm a football fan"). Tools take distinct clauses, best match first;
   a tool left without one shares its best clause; a request answered by one tool is that tool's
   step, all its asks.
3. A tool's sub-query is its clause with the asking removed, led by a verb. When tools share a
   clause, each keeps the items of a coordinated list that concern it ("... the channel clips and
   the channel details"); when there is no list, each says what it does for the shared ask.
4. The request's constraint words stay: quoted values, codes, capitalised names (platforms,
   sites, places, people) that the unclaimed clauses state and the sub-query lacks are added
   ("... (about: Kick.com, 'gmhikaru')"). They decide equivalence: Twitter followers are not
   Spotify followers.
5. A step the request does not state is said from the tool's documentation
   (``toolex.judges.step_text``), for the ask it serves.

Every sub-query is checked by the strict name rule (``step_text.leak``) and loses words from its
end until it passes. There is no placeholder: a sub-query always holds words of the request or of
what the tool documents.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from toolex.judges.base import DecomposeTask, SubQuery, ToolDoc, per_tool
from toolex.judges.clauses import (
    PREPOSITIONS,
    QUESTION_WORDS,
    Clause,
    clauses,
    cleaned,
    constraints,
    is_verb,
    list_items,
)
from toolex.judges.lexicon import word_set
from toolex.judges.step_text import implicit, leak, opening_verb, operation
from toolex.tooldoc import fields as df

MIN_RELEVANCE = 0.12  # below this no clause states the tool's step: an implicit step
NEAR_BEST = 0.75  # an unclaimed ask this close to a tool's own clause joins it
STATEMENT_WEIGHT = 0.5  # "I'm a football fan" states context, "Can you ..." asks
MAX_CONTEXT = 4  # constraint words carried from unclaimed clauses into one sub-query
# Words of asking and framing: they match every tool's "get"/"provide" and say nothing.
_ASKING = frozenset(
    df.stem(w)
    for w in word_set(
        """
        get provide give tell show find fetch help please want need like know curious
        interested information info data also can could would
        """
    )
)


class Decomposer:
    """Writes the sub-queries of decompose tasks; ``weight`` is a word's weight in the library
    (IDF: a word every tool has says little)."""

    def __init__(self, weight: Callable[[str], float]) -> None:
        self._weight = weight

    def decompose(self, task: DecomposeTask) -> list[SubQuery]:
        parts = clauses(task.query) or [Clause(task.query.strip(), True)]
        if len(task.tools) == 1:
            owners = [_single(parts)]
        else:
            owners = _assign(self._scores(parts, task.tools), parts)
        claimed = {c for cs in owners for c in cs}
        context = [p.text for i, p in enumerate(parts) if i not in claimed]
        texts: list[str] = []
        for slot, tool in enumerate(task.tools):
            if owners[slot]:
                text = self._stated(parts, owners, slot, task.tools)
            else:
                ask = _main_ask(parts, owners)
                said = implicit(tool, task.tools, task.query)
                text = f"{said}, for: {_lower_first(ask)}" if said else _lead_with_verb(ask, tool)
            said = implicit(tool, task.tools, task.query) if text in texts else None
            if said:  # two tools, one clause, no list to share: say what each one does
                text = f"{said}, to {_lower_first(text)}"
            if not _entity(text):  # the request says nothing of the step ("help me with that")
                text = (
                    implicit(tool, task.tools, task.query)
                    or _antecedent(parts, owners[slot], text)
                    or text
                )
            texts.append(text)
        out = []
        for slot, (tool, text) in enumerate(zip(task.tools, texts, strict=True)):
            text = _without_leaks(_with_context(text, context), task)
            entity = _unleaked_entity(text, task)
            out.append(SubQuery(slot, text, operation(tool), entity, tool.item_id))
        return out

    def _scores(self, parts: Sequence[Clause], tools: Sequence[ToolDoc]) -> np.ndarray:
        """clause x tool: how much of the clause the tool's documentation holds, asks first."""
        lexical = np.array([[self._overlap(p.text, t) for t in tools] for p in parts])
        asks = np.array([1.0 if p.ask else STATEMENT_WEIGHT for p in parts])
        scores: np.ndarray = lexical * asks[:, None]
        return scores

    def _overlap(self, text: str, tool: ToolDoc) -> float:
        words = set(df.content_tokens(text)) - _ASKING
        if not words:
            return 0.0
        total = sum(self._weight(w) for w in words)
        return sum(self._weight(w) for w in words & _tool_words(tool)) / total

    def _stated(
        self,
        parts: Sequence[Clause],
        owners: Sequence[Sequence[int]],
        slot: int,
        tools: Sequence[ToolDoc],
    ) -> str:
        texts = []
        for c in owners[slot]:
            text = cleaned(parts[c].text)
            others = [s for s, cs in enumerate(owners) if s != slot and c in cs]
            if others:
                text = self._my_items(text, slot, others, tools) or text
            texts.append(text)
        return _lead_with_verb("; ".join(dict.fromkeys(t for t in texts if t)), tools[slot])

    def _my_items(
        self, text: str, slot: int, others: Sequence[int], tools: Sequence[ToolDoc]
    ) -> str:
        """The items of a coordinated list in ``text`` that concern ``slot``'s tool at least as
        much as the other tools sharing the clause, with the clause's shared words; "" when the
        clause holds no such list."""
        items = list_items(text)
        if len(items) < 2 or any(not any(w.isalpha() for w in df.split_words(i)) for i in items):
            return ""  # "(2, 3, 3)", "January 1, 2021": numbers, not a list of things
        if any(i.split()[0].lower() in PREPOSITIONS for i in items[1:]):
            return ""  # "the measure, in degrees, of the angle": asides, not a list
        mine = [
            n
            for n, item in enumerate(items)
            if (own := self._overlap(item, tools[slot])) > 0
            and all(own >= self._overlap(item, tools[o]) for o in others)
        ]
        if not mine or len(mine) == len(items):
            return ""
        if mine[0] == 0:
            return " and ".join(items[n] for n in mine)
        if any(len(items[n].split()) > 3 for n in range(1, len(items))):
            return ""  # not a list of short names: no shared words to carry
        # "Fetch the gas price for both Kentucky and Georgia" for Georgia's tool: the first item
        # without its own tail (as long as the later items) carries the shared words.
        words = items[0].split()
        head = words[0] if words and is_verb(words[0]) else ""
        tail = max(len(items[n].split()) for n in range(1, len(items)))
        shared = " ".join(words[: max(len(head.split()), len(words) - tail)]) or head
        return f"{shared} {' and '.join(items[n] for n in mine)}".strip()


def _main_ask(parts: Sequence[Clause], owners: Sequence[Sequence[int]]) -> str:
    """The ask an implicit step serves: the first outright ask a tool states, else the first
    clause."""
    claimed = sorted({c for cs in owners for c in cs})
    for c in [*claimed, *range(len(parts))]:
        if parts[c].strong:
            return cleaned(parts[c].text)
    return cleaned(parts[0].text) if parts else ""


def _antecedent(parts: Sequence[Clause], mine: Sequence[int], text: str) -> str | None:
    """What "those" in "Can you fetch those for me?" stands for: the step's own words, then the
    nearest clause before them that says something ("Fetch those for me: I found 'Hello'")."""
    said = [c for c, p in enumerate(parts) if cleaned(p.text).lower() == text.strip().lower()]
    first = said[0] if said else min(mine, default=len(parts))
    for c in range(first - 1, -1, -1):
        before = cleaned(parts[c].text)
        if _entity(before):
            own = text.strip().rstrip(".?!") or "This"
            return f"{own[0].upper()}{own[1:]}: {before}"
    return None


def _single(parts: Sequence[Clause]) -> list[int]:
    """A request one tool answers: its step is the request's asks, all of them; every clause
    when the asks say too little on their own ("Can you help me with that?")."""
    asks = [i for i, p in enumerate(parts) if p.ask]
    said = {w for i in asks for w in df.content_tokens(cleaned(parts[i].text))} - _ASKING
    return asks if len(said) >= 3 else list(range(len(parts)))


def _assign(scores: np.ndarray, parts: Sequence[Clause]) -> list[list[int]]:
    """Each tool's clauses. A tool's options are the clauses that state its step from the most
    outright kind that has any: asks, then wishes ("I want to ..."), then context. Tools take
    distinct clauses first, best pair first; a tool left without one shares its best option; an
    unclaimed outright ask that a tool matches nearly as well as its own clause, better than any
    other tool does, joins it. A tool no clause states gets none (an implicit step)."""
    n_clauses, n_tools = scores.shape
    tiers = (
        {i for i, p in enumerate(parts) if p.strong},  # outright asks
        {i for i, p in enumerate(parts) if p.ask and not p.strong},  # wishes
        {i for i, p in enumerate(parts) if not p.ask},  # context
    )
    options = {}
    for t in range(n_tools):
        good = [c for c in range(n_clauses) if scores[c, t] >= MIN_RELEVANCE]
        options[t] = next(
            ([c for c in good if c in tier] for tier in tiers if set(good) & tier), []
        )
    pairs = sorted(
        ((float(scores[c, t]), t, c) for t in range(n_tools) for c in options[t]),
        key=lambda x: (-x[0], x[1], x[2]),
    )
    owners: list[list[int]] = [[] for _ in range(n_tools)]
    taken: set[int] = set()
    for _, t, c in pairs:
        if not owners[t] and c not in taken:
            owners[t] = [c]
            taken.add(c)
    for t in range(n_tools):
        if not owners[t] and options[t]:
            owners[t] = [max(options[t], key=lambda c: (scores[c, t], -c))]
    for c in sorted(tiers[0] - {c for cs in owners for c in cs}):
        t = int(scores[c].argmax())
        if owners[t] and scores[c, t] >= NEAR_BEST * max(scores[o, t] for o in owners[t]):
            owners[t] = sorted([*owners[t], c])
    return owners


def _lead_with_verb(text: str, tool: ToolDoc) -> str:
    words = text.split()
    if not words:
        return text
    first = words[0].lower().removesuffix("'s").removesuffix("'re").removesuffix("'m")
    if is_verb(first) or first in QUESTION_WORDS:
        return text[0].upper() + text[1:]
    return f"{opening_verb(tool)} {text}"


def _with_context(text: str, context: Sequence[str]) -> str:
    """``text`` with the constraint words of the unclaimed clauses that it lacks."""
    have = text.lower()
    extra: list[str] = []
    for clause in context:
        for value in constraints(clause):
            if value.lower() not in have and value not in extra:
                extra.append(value)
    extra = extra[:MAX_CONTEXT]
    return f"{text} (about: {', '.join(extra)})" if extra else text


def _without_leaks(text: str, task: DecomposeTask) -> str:
    """``text`` with words dropped from its end until no ground-truth tool's name or parameter
    name is written out (``step_text.leak``)."""
    while leak(text, task.tools, task.query):
        words = text.split()
        if len(words) <= 2:
            break
        text = " ".join(words[:-1]).rstrip(" ,;:(")
        if text.count("(") > text.count(")"):
            text += ")"
    return text


def _unleaked_entity(text: str, task: DecomposeTask) -> str:
    """The step's entity words; where dropping the small words joins two into a tool's name
    ("the track list of the album" -> "track list album"), the step's own words after its verb
    instead, which name no tool when the step names none (the pipeline checks both)."""
    entity = _entity(text)
    for tool in task.tools:
        names = [tool.name, df.name(tool.doc)]
        if df.name_leak(entity, tool.item_id, names, [tool.platform], request=task.query):
            return " ".join(text.split(" (about:")[0].split()[1:13])
    return entity


def _entity(text: str) -> str:
    words = [w for w in df.split_words(text.split(" (about:")[0]) if w not in df.STOPWORDS]
    if words and is_verb(words[0]):
        words = words[1:]
    return " ".join(words[:8])


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


@per_tool
def _tool_words(tool: ToolDoc) -> frozenset[str]:
    parts = [df.name(tool.doc) or tool.name or "", df.description(tool.doc)]
    parts += [f"{p.name} {p.description}" for p in df.params(tool.doc)]
    return frozenset(df.content_tokens(" ".join(parts))) | frozenset(df.returns_tokens(tool.doc))
