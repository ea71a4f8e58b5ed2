"""The offline decomposer: one sub-query per ground-truth tool, in the request's own words.

ToolEX's Stage 1 asks a model to split a request into one sub-query per ground-truth tool, in the
request's terms, naming no tool, API or parameter, keeping what the step is about. A sub-query
states one step, with the request's values for that step only. Without a model:

1. The request is cut into clauses (``toolex.judges.clauses``).
2. Each ground-truth tool is matched to the clause that states its step: the library-weighted
   share of the clause's words that the tool's documentation holds, asks before statements
   ("Can you ...?" before "I'm a football fan"). Tools take distinct clauses, best match first;
   a tool still without one takes an unclaimed ask it matches best of all tools (the second of
   two calls of one tool: "... and also check 'b@c.com'"), else shares its best clause; a
   request answered by one tool is that tool's step, all its asks.
3. An ask that points back ("Can you fetch this information?", "get these data sets") is said
   with the clause before it that it points to ("Fetch the live positioning of the aircraft
   'ABCD'"); that clause is then the step's, not context.
4. A tool's sub-query is its clause with the asking removed, led by a verb. When tools share a
   clause, each keeps the items of a coordinated list that concern it, with the list's shared
   head and tail ("What is the ZIP code | and the latitude and longitude | of the IP address
   8.8.8.8" -> "What is the ZIP code of the IP address 8.8.8.8"); without a list, the shortest
   stretch of the clause that holds the tool's words (``step_span``).
5. The request's context stays: values (quoted, codes, capitalised names) of the statements no
   tool claims ("I'm a fan of 'gmhikaru' on Kick.com"), and of wishes no tool matches, are added
   where the sub-query lacks them ("(about: Kick.com, 'gmhikaru')"): Twitter followers are not
   Spotify followers. Values of another step's clause, or of an ask no tool claimed, are that
   step's and never added.
6. A step the request does not state is said from the tool's documentation
   (``toolex.judges.step_text.implicit``: what it returns or does), else with the request's
   words that the tool's documentation holds, else with the tool's name as plain words; never
   with a response's field names and never as the whole request with a phrase before it.

Every sub-query is checked by the strict name rule (``step_text.leak``) and loses words from its
end until it passes. There is no placeholder: a sub-query always holds words of the request or of
what the tool documents.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from toolex.judges.base import DecomposeTask, SubQuery, ToolDoc
from toolex.judges.clauses import Clause, clauses, cleaned, constraints, is_verb
from toolex.judges.plans import whole_request
from toolex.judges.step_span import (
    ASKING,
    antecedent_object,
    lead_with_verb,
    my_items,
    points_back,
    step_span,
    tool_words,
)
from toolex.judges.step_text import implicit, leak, named_step, operation
from toolex.tooldoc import fields as df

MIN_RELEVANCE = 0.12  # below this no clause states the tool's step: an implicit step
NEAR_BEST = 0.75  # an unclaimed ask this close to a tool's own clause joins it
STATEMENT_WEIGHT = 0.5  # "I'm a football fan" states context, "Can you ..." asks
MAX_CONTEXT = 4  # constraint words carried from context clauses into one sub-query


class Decomposer:
    """Writes the sub-queries of decompose tasks; ``weight`` is a word's weight in the library
    (IDF: a word every tool has says little)."""

    def __init__(self, weight: Callable[[str], float]) -> None:
        self._weight = weight

    def decompose(self, task: DecomposeTask) -> list[SubQuery]:
        parts = clauses(task.query) or [Clause(task.query.strip(), True)]
        tools = task.tools
        pointed = _pointers(parts)
        scores = self._scores([_said(parts, pointed, c) for c in range(len(parts))], parts, tools)
        scores[list(pointed.values())] = 0.0  # the clause an ask points back to is that ask's
        ids = [t.item_id for t in tools]
        twins = [ids.count(i) > 1 for i in ids]  # calls of one tool
        owners = [_single(parts)] if len(tools) == 1 else _assign(scores, parts, twins)
        used = {c for cs in owners for c in cs}
        texts: list[str] = []
        for slot in range(len(tools)):
            text = self._stated(parts, owners, pointed, slot, tools) if owners[slot] else ""
            if not _entity(text) or text in texts or _is_whole(text, task):
                said, source = self._unstated(parts, owners, pointed, slot, task, texts)
                text = said or text
                used |= {source} if said and source is not None else set()
            texts.append(text)
        context = _context(parts, used, pointed, scores)
        out: list[SubQuery] = []
        for tool, text in zip(tools, texts, strict=True):
            text = _without_leaks(_with_context(text, context), task)
            entity = _unleaked_entity(text, task)
            out.append(SubQuery(len(out), text, operation(tool), entity, tool.item_id))
        return out

    def _scores(
        self, texts: Sequence[str], parts: Sequence[Clause], tools: Sequence[ToolDoc]
    ) -> np.ndarray:
        """clause x tool: how much of the clause the tool's documentation holds, asks first.
        The clause's values that no tool's documentation holds ("6lggWd5q9Rh66OkDE1eNDr",
        "Eiffel Tower") are its arguments and say nothing of which tool it asks for."""
        held = frozenset().union(*(tool_words(t) for t in tools))
        # a clause's words and their weight read once, then shared by every tool (``_overlap``)
        asked = [self._asked(text, held) for text in texts]
        lexical = np.array([[self._share(a, t) for t in tools] for a in asked])
        lexical = lexical.reshape(len(texts), len(tools))
        asks = np.array([1.0 if p.ask else STATEMENT_WEIGHT for p in parts])
        scores: np.ndarray = lexical * asks[:, None]
        return scores

    def _overlap(self, text: str, tool: ToolDoc, held: frozenset[str] | None = None) -> float:
        return self._share(self._asked(text, held), tool)

    def _asked(self, text: str, held: frozenset[str] | None) -> tuple[set[str], float]:
        """The words of a clause that ``_overlap`` weighs, and their summed weight."""
        words = set(df.content_tokens(text)) - ASKING
        if held is not None:
            words -= {w for v in constraints(text) for w in df.content_tokens(v)} - held
        # summed in one order: a set's order follows the process's hash seed, and float sums
        # taken in two orders can differ in the last bit and flip a tie between two tools
        return words, sum(self._weight(w) for w in sorted(words))

    def _share(self, asked: tuple[set[str], float], tool: ToolDoc) -> float:
        words, total = asked
        if not words:
            return 0.0
        return sum(self._weight(w) for w in sorted(words & tool_words(tool))) / total

    def _stated(
        self,
        parts: Sequence[Clause],
        owners: Sequence[Sequence[int]],
        pointed: dict[int, int],
        slot: int,
        tools: Sequence[ToolDoc],
    ) -> str:
        texts = []
        for c in owners[slot]:
            text = _said(parts, pointed, c)
            others = [s for s, cs in enumerate(owners) if s != slot and c in cs]
            if others:  # calls of one tool take the items in their order
                twins = all(tools[o].item_id == tools[slot].item_id for o in others)
                place = sorted([slot, *others]).index(slot) if twins else None
                mine = my_items(text, tools[slot], [tools[o] for o in others], self._overlap, place)
                text = mine or text
            texts.append(text)
        return lead_with_verb("; ".join(dict.fromkeys(t for t in texts if t)), tools[slot])

    def _unstated(
        self,
        parts: Sequence[Clause],
        owners: Sequence[Sequence[int]],
        pointed: dict[int, int],
        slot: int,
        task: DecomposeTask,
        taken: Sequence[str],
    ) -> tuple[str, int | None]:
        """A step no clause of its own states, or whose clause another tool's text already is
        (one ask, no list to share) or is the whole request, with the clause it drew on: the
        first of ``_options`` that is a step of its own and names no tool; then one shared with
        another step; then one that names no tool by the decompose stage's rule alone (a name's
        words the request lacks, "its prime factorization"); then whatever the tool's
        documentation says; last, for a tool nothing says anything of ("All", "Me"), the
        request's first outright ask, said short."""
        tool = task.tools[slot]
        options = self._options(parts, owners, pointed, slot, task)
        rules = (leak, leak, _names, _no_rule)
        for shared_ok, names in zip((False, True, True, True), rules, strict=True):
            for text, source, least in options:
                if not text or len(set(df.content_tokens(text)) - ASKING) < least:
                    continue  # one word of a clause ("file") is no step
                text = lead_with_verb(text, tool)
                fits = (shared_ok or text not in taken) and not _is_whole(text, task)
                if fits and not names(text, task.tools, task.query):
                    return text, source
        ask = next((c for c, p in enumerate(parts) if p.strong), 0)
        words = cleaned(parts[ask].text).split()
        for n in range(len(words), 0, -1):
            text = lead_with_verb(" ".join(words[:n]), tool)
            if not _is_whole(text, task) and not leak(text, task.tools, task.query):
                return text, ask
        return "", None

    def _options(
        self,
        parts: Sequence[Clause],
        owners: Sequence[Sequence[int]],
        pointed: dict[int, int],
        slot: int,
        task: DecomposeTask,
    ) -> list[tuple[str | None, int | None, int]]:
        """(text, the clause it draws on, the content words it needs) for an unstated step, in
        order: an ask nobody claimed that the tool matches best of all tools (its own step);
        the shortest stretch of its own clause that holds the tool's words; what the tool
        documents it does; the stretch of the request's best unclaimed clause for it; its name
        as plain words; the stretch of its nearest clause; its own clause, shared. A stretch of
        a clause another step says keeps none of that step's values."""
        tool = task.tools[slot]
        others = {c for s, cs in enumerate(owners) if s != slot for c in cs}
        overlap = {c: self._overlap(parts[c].text, tool) for c in range(len(parts))}
        ranked = sorted((c for c in overlap if overlap[c] > 0), key=lambda c: (-overlap[c], c))
        aside = others | set(owners[slot]) | set(pointed.values())
        unclaimed = [
            c
            for c in ranked
            if c not in aside
            and parts[c].ask
            and all(overlap[c] >= self._overlap(parts[c].text, t) for t in task.tools)
        ]
        free = [c for c in ranked if c not in others]
        out: list[tuple[str | None, int | None, int]] = []
        out += [(_said(parts, pointed, c), c, 2) for c in unclaimed[:1]]
        out += [
            (step_span(_said(parts, pointed, c), tool, values=c not in others), c, 2)
            for c in owners[slot]
        ]
        out.append((implicit(tool, task.tools, task.query), None, 1))
        out += [(step_span(cleaned(parts[c].text), tool), c, 2) for c in free[:1]]
        out.append((named_step(tool, task.tools, task.query), None, 1))
        out += [
            (step_span(cleaned(parts[c].text), tool, values=c not in others), c, 1)
            for c in ranked[:1]
        ]
        out += [(_said(parts, pointed, c), c, 1) for c in owners[slot]]
        out.append((implicit(tool, task.tools, task.query, strict=False), None, 1))
        out.append((named_step(tool, task.tools, task.query, strict=False), None, 1))
        return out


def _said(parts: Sequence[Clause], pointed: dict[int, int], c: int) -> str:
    """Clause ``c`` with the asking removed; an ask that points back, said with the clause it
    points to ("fetch this information" + "the live positioning of aircraft 'ABCD'")."""
    text = cleaned(parts[c].text)
    if c in pointed:
        verb = text.split()[0] if text.split() and is_verb(text.split()[0].lower()) else ""
        thing = antecedent_object(cleaned(parts[pointed[c]].text))
        if thing:
            return f"{verb} {thing}".strip()
    return text


def _pointers(parts: Sequence[Clause]) -> dict[int, int]:
    """ask -> the clause just before it that it points back to ("I need the live position of
    aircraft 'ABCD'. Can you fetch this information?"); never another outright ask."""
    out = {}
    for c in range(1, len(parts)):
        before = c - 1
        if (
            parts[c].ask
            and not parts[before].strong
            and before not in out
            and points_back(cleaned(parts[c].text))
        ):
            out[c] = before
    return out


def _context(
    parts: Sequence[Clause], used: set[int], pointed: dict[int, int], scores: np.ndarray
) -> list[str]:
    """The clauses whose values every step keeps: statements no step is said with, and wishes
    no tool matches ("I'm interested in the WNBA"); never an ask a tool's step may be, nor the
    clause a step's ask points back to."""
    claimed = used | {pointed[c] for c in used if c in pointed}
    return [
        p.text
        for c, p in enumerate(parts)
        if c not in claimed
        and (not p.ask or (not p.strong and float(scores[c].max(initial=0.0)) < MIN_RELEVANCE))
    ]


def _is_whole(text: str, task: DecomposeTask) -> bool:
    return len(task.tools) > 1 and whole_request(text, task.query)


def _single(parts: Sequence[Clause]) -> list[int]:
    """A request one tool answers: its step is the request's asks, all of them; every clause
    when the asks say too little on their own ("Can you help me with that?")."""
    asks = [i for i, p in enumerate(parts) if p.ask]
    said = {w for i in asks for w in df.content_tokens(cleaned(parts[i].text))} - ASKING
    return asks if len(said) >= 3 else list(range(len(parts)))


def _assign(scores: np.ndarray, parts: Sequence[Clause], twins: Sequence[bool]) -> list[list[int]]:
    """Each tool's clauses. A tool's options are the clauses that state its step from the most
    outright kind that has any: asks, then wishes ("I want to ..."), then context; a wish the
    tool matches better than any ask is an option beside the asks. Tools take
    distinct clauses first, best pair first; a tool left without one that no clause states, or
    that is a second call of a tool, takes an unclaimed ask that it matches at all and as well
    as any tool does, else shares its best option; an unclaimed outright ask that a tool
    matches nearly as well as its own clause, better than any other tool does, joins it. A tool
    no clause states gets none (an implicit step)."""
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
        if options[t] and options[t][0] in tiers[0]:  # a wish it matches better than any ask
            top = max(scores[c, t] for c in options[t])
            options[t] += [c for c in good if c in tiers[1] and scores[c, t] > top]
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
        if owners[t]:
            continue
        free = (
            [
                c
                for c in sorted(tiers[0] | tiers[1])
                if c not in taken and scores[c, t] > 0 and scores[c, t] >= scores[c].max()
            ]
            if twins[t] or not options[t]
            else []
        )
        if free:
            owners[t] = [max(free, key=lambda c: (scores[c, t], -c))]
            taken.add(owners[t][0])
        elif options[t]:
            owners[t] = [max(options[t], key=lambda c: (scores[c, t], -c))]
    for c in sorted(tiers[0] - {c for cs in owners for c in cs}):
        t = int(scores[c].argmax())
        if owners[t] and scores[c, t] >= NEAR_BEST * max(scores[o, t] for o in owners[t]):
            owners[t] = sorted([*owners[t], c])
    return owners


def _with_context(text: str, context: Sequence[str]) -> str:
    """``text`` with the constraint words of the context clauses that it lacks."""
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
    name is written out (``step_text.leak``); ``text`` itself where that leaves two words."""
    whole = text
    while leak(text, task.tools, task.query):
        words = text.split()
        if len(words) <= 2:
            return whole
        text = " ".join(words[:-1]).rstrip(" ,;:(")
        if text.count("(") > text.count(")"):
            text += ")"
    return text


def _no_rule(text: str, tools: Sequence[ToolDoc], request: str) -> bool:
    return False


def _names(text: str, tools: Sequence[ToolDoc], request: str) -> bool:
    """Whether ``text`` names a tool by the decompose stage's own rule (toolex.pipeline.decompose:
    identifiers as written, names of three words or more)."""
    return any(
        df.name_leak(text, t.item_id, [t.name, df.name(t.doc)], [t.platform], request=request)
        for t in tools
    )


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
