"""A request read as a person reads it: its clauses, which of them ask for something, the asking
around each ask, and the words that pin down which thing it is about.

What the offline decomposer (toolex.judges.decomposer) builds sub-queries from. The request is
cut into sentences, then where a connector opens a new ask ("Also, can you ...", "..., and then
fetch ...", "..., and I need ..."), never inside a list of nouns ("clubs, managers, and
referees"). A clause asks outright (a question, "can you", "please", an imperative) or only wishes
("I want to ...", "I'm interested in ...", which may be context); the rest is context ("I'm a
football fan"). ``cleaned`` removes the asking and leaves the step in the request's own words.
General English only, never one benchmark's vocabulary.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolex.judges.lexicon import base_verb, word_set
from toolex.tooldoc import fields as df

_ABBREVIATIONS = word_set(
    """
    a.m p.m e.g i.e dr mr mrs ms st vs etc inc co jr sr u.s u.k no
    """
)
_SENTENCE_END = re.compile(r"[.!?]+[\"')\]]*\s+(?=[A-Z\"'(\[0-9])|[;\n]+\s*")
# A request written all in lower case ("i'm a fan. can you ...") starts its sentences so too.
_LOWER_SENTENCE_END = re.compile(r"[.!?]+[\"')\]]*\s+(?=[a-z\"'(\[0-9])|[;\n]+\s*")
# Where a connector may open a new ask: cut when the next word asks or acts ("..., and can you",
# "... then fetch", ", calculate ..."), not when a list goes on.
_CUT = re.compile(
    r",?\s+(?:and\s+)?(?:also|additionally|furthermore|moreover|then|afterwards|after that"
    r"|finally|lastly|plus)\s*,?\s+|,\s+and\s+|,\s+|\s+and\s+(?=(?:can|could|would|please|also"
    r"|is|are|does|do|what|which|how)\b)",
    re.IGNORECASE,
)
# "..., and I want a program to ...", "..., and need to ...": the framing of a new ask, always cut.
_ASK_CUT = re.compile(
    r",?\s+and\s+(?=(?:(?:i|we)\s+)?(?:also\s+)?(?:want|need|would|'d|wish)\b)", re.IGNORECASE
)
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_OPENERS = word_set(
    """
    can could would will please tell give show let help also then what how is are does do
    """
)  # not "who", "which", "where", "when": after a comma they open a relative clause
# Imperatives a request opens with that are not API verbs (lexicon.VERBS holds those).
_MORE_VERBS = word_set(
    """
    tell give show provide explain suggest turn take put go walk move help assist answer
    sort choose pick recommend try keep see plot draw apply extract recognize classify
    predict explore discover learn know watch read deploy grant revoke toggle adjust gather
    organize prepare arrange assess inspect diagnose calibrate activate deactivate enter
    perform conduct integrate implement access
    """
)
PREPOSITIONS = word_set(
    """
    in of on at for from to with by about into over under per
    """
)
QUESTION_WORDS = word_set(
    """
    what which who whom whose where when how why is are does do did
    """
)
# A clause that asks outright, tested without its leading connector.
_ASK = re.compile(
    r"\?|^\s*(?:can|could|would|will)\s+you\b|\bplease\b|\btell\s+me\b|\blet\s+me\s+know\b",
    re.IGNORECASE,
)
# A clause that wishes: it asks too, but may be context ("I want to stay updated").
_WISH = re.compile(
    r"\b(?:i|we)\s+(?:also\s+)?(?:need|want|wish|require)\b|\b(?:i|we)(?:\s+would|'d)\s+(?:also\s+)?like\b"
    r"|\bhelp\s+me\b|\bit\s+would\s+be\s+(?:great|helpful|nice)\b"
    r"|\b(?:i'm|i\s+am|we're|we\s+are)\s+(?:also\s+|currently\s+)?(?:curious|interested"
    r"|looking\s+for)\b|\bwanna\b",
    re.IGNORECASE,
)
_SEQUENCE = re.compile(
    r"^\s*(?:then|next|finally|lastly|after\s+that|afterwards|first(?:ly)?|second(?:ly)?"
    r"|third(?:ly)?)\b\s*,?\s+",
    re.IGNORECASE,
)
_SUBJECTS = word_set(
    """
    i i'm i'd i've we we're we'd you you're he she it it's they there this that these those my
    our your his her its their the a an
    """
)
_LEADING = re.compile(
    r"^(?:(?:also|additionally|furthermore|moreover|besides|finally|lastly|then|next|and|plus"
    r"|so|in addition|now)\b[\s,:]*)+",
    re.IGNORECASE,
)
# The asking around a step, removed from the front of a clause, one piece at a time.
_FRAMING = re.compile(
    r"^(?:also|additionally|furthermore|moreover|besides|finally|lastly|then|next|and|plus|so"
    r"|first(?:ly)?|second(?:ly)?|third(?:ly)?|hi|hello|hey|ok|okay|now|in addition|but)\b[\s,:]*"
    r"|^(?:can|could|would|will)\s+you\s+(?:please\s+|kindly\s+|also\s+|assist\s+me\s+in\s+"
    r"|help\s+me\s+(?:to\s+|with\s+)?)*"
    r"|^please\s+(?:help\s+me\s+(?:to\s+|with\s+)?)?"
    r"|^(?:i|we)(?:'d|\s+would)\s+(?:also\s+)?(?:like|love)\s+(?:you\s+)?to\s+"
    r"|^(?:i|we)(?:'m|\s+am|\s+are|'re)\s+(?:also\s+)?(?:trying|looking|planning|hoping)\s+to\s+"
    r"|^(?:(?:i|we|you)\s+)?(?:also\s+)?(?:want|need|wish)\s+(?:you\s+)?to\s+"
    r"|^(?:i|we)(?:'m|\s+am|'re|\s+are)\s+(?:working\s+on|building|developing|creating|designing"
    r"|making)\s+.{0,80}?\s+(?:that|which)\s+(?:requires?|needs?|involves?|can|will|should)\s+"
    r"|^(?:i|we|you)\s+(?:also\s+)?(?:want|need)\s+(?:a|an|some)\s+(?:\w+\s+){0,3}?(?:program|model"
    r"|tool|system|way|bot|app|application|service|solution|method)\s+(?:to|that\s+can|that"
    r"|which\s+can|which)\s+"
    r"|^(?:i|we)(?:'d|\s+would)\s+(?:also\s+)?like\s+"
    r"|^(?:i|we|you)\s+(?:also\s+)?(?:need|want|require)\s+(?=(?:some\s+|the\s+|more\s+)?"
    r"(?:information|info|details|data|help|assistance)\b)"
    r"|^(?:i'm|i\s+am|we're|we\s+are)\s+(?:currently\s+|also\s+)?looking\s+for\s+"
    r"|^(?:i\s+wanna|i\s+want\s+to)\s+(?:find\s+out|know|see)\s+"
    r"|^(?:i'm|i\s+am|we're|we\s+are|my\s+\w+\s+is|our\s+\w+\s+is)\s+(?:also\s+)?(?:curious"
    r"|interested|eager|keen)\s+(?:about|in|to)\s+"
    r"|^it\s+would\s+be\s+(?:great|helpful|nice|useful)\s+if\s+(?:you|i|we)\s+(?:could|can)\s+"
    r"|^(?:use|using)\s+(?:a|an|the)\s+(?:\w+\s+){0,2}?(?:model|tool|api)\s+to\s+"
    r"|^help\s+me\s+(?:to\s+|with\s+)?|^let\s+me\s+know\s+"
    r"|^(?:some\s+)?(?:assistance|help)\s+(?:in|with)\s+(?=\w+ing\b)"
    r"|^(?:know|learn|find\s+out)\s+(?:about\s+)?(?=the\b|a\b|an\b|if\b|whether\b|how\b|what\b)"
    # last, so that "I need a program to ..." is taken whole above: "I need the forecast"
    r"|^(?:i|we)\s+(?:also\s+)?(?:want|need|require)\s+(?=(?:the|my|our|all|some|a|an)\b)",
    re.IGNORECASE,
)
_ME = re.compile(
    r"^(provide|supply|share|send|show|give|get|find|fetch|tell)\s+(?:me|us)\s+(?:with\s+)?",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"(?<![A-Za-z])'[^']{1,60}'(?![A-Za-z])|\"[^\"]{1,60}\"|“[^”]{1,60}”")
_NAMED = re.compile(r"(?<![\w'])([A-Z][\w&.\-]*(?:\s+(?:&\s+)?[A-Z][\w&.\-]*)*)")
_CODE = re.compile(r"(?<![\w.])[\w.\-]*\d[\w.\-]*(?![\w])|\b\w+\.(?:com|org|net|io|ai|co)\b")
_LIST_SEPARATOR = re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")


def is_verb(word: str) -> bool:
    """A verb a request or an API documentation opens a step with."""
    w = word.lower()
    return bool(base_verb(w)) or w in _MORE_VERBS


@dataclass(frozen=True)
class Clause:
    text: str
    ask: bool  # asks for something: outright, or as a wish ("I need ...")
    strong: bool = True  # asks outright, not a wish that may be context


def _a_step(text: str) -> bool:
    """A verb followed by at least two content words: "get the weather forecast for Paris"."""
    words = text.split()
    for i, word in enumerate(words):
        if is_verb(word.lower().strip(",'\"")):
            return len(df.content_tokens(" ".join(words[i + 1 :]))) >= 2
    return False


def clauses(request: str) -> list[Clause]:
    """The request cut into sentences, then where a connector opens a new ask."""
    out: list[Clause] = []
    for sentence in _sentences(request):
        for part in _cut(sentence):
            part = part.strip(" ,;:-")
            if df.content_tokens(part):
                out.append(Clause(part, *_asks(part)))
    return out


def _sentences(text: str) -> list[str]:
    text = re.sub(r"[ \t]+", " ", text.strip())
    out, start = [], 0
    ends = _LOWER_SENTENCE_END if text[:1].islower() else _SENTENCE_END
    for m in ends.finditer(text):
        before = text[start : m.start()].split()
        last = before[-1].lower().rstrip(".") if before else ""
        if m.group().strip().startswith(".") and (last in _ABBREVIATIONS or len(last) == 1):
            continue
        out.append(text[start : m.end()].strip())
        start = m.end()
    out.append(text[start:].strip())
    return [s for s in out if s]


def _cut(sentence: str) -> list[str]:
    """``sentence`` cut where a connector opens a new ask (``_CUT``, ``_ASK_CUT``)."""
    cuts = [(m.start(), m.end()) for m in _ASK_CUT.finditer(sentence)]
    for m in _CUT.finditer(sentence):
        following = sentence[m.end() :].split(None, 1)
        word = following[0].lower().strip(",'\"") if following else ""
        if word in _OPENERS or is_verb(word):
            cuts.append((m.start(), m.end()))
    # "... for Paris and convert 20 celsius ...": a bare "and" before a verb opens a new ask
    # when what precedes it is already a step of its own (a verb and its object)
    for m in _AND.finditer(sentence):
        following = sentence[m.end() :].split(None, 1)
        word = following[0].lower() if following else ""
        if is_verb(word) and _a_step(sentence[: m.start()]):
            cuts.append((m.start(), m.end()))
    pieces, start = [], 0
    for begin, end in sorted(cuts):
        # never after a sentence's opening connector alone ("Finally, | deploy ...")
        if begin >= start and _LEADING.sub("", sentence[start:begin]).strip(" ,"):
            pieces.append(sentence[start:begin])
            start = end
    pieces.append(sentence[start:])
    return pieces


def _asks(text: str) -> tuple[bool, bool]:
    """(asks at all, asks outright) for one clause. A clause a sequence word opens ("Finally,
    deploy ...") asks outright unless a subject follows ("Then, I want ...")."""
    bare = _LEADING.sub("", text.strip())
    words = bare.split()
    first = words[0].lower().strip(",") if words else ""
    strong = bool(_ASK.search(bare)) or is_verb(first) or first in QUESTION_WORDS
    strong |= bool(_SEQUENCE.match(text)) and first.isalpha() and first not in _SUBJECTS
    return strong or bool(_WISH.search(bare)), strong


def cleaned(clause: str) -> str:
    """The clause with the asking removed ("Can you please provide me with the channel clips?"
    -> "provide the channel clips"); a leading gerund becomes its verb."""
    text = clause.strip().rstrip("?.!").strip()
    for _ in range(6):
        new = _FRAMING.sub("", text, count=1).strip(" ,")
        if new == text:
            break
        text = new
    text = _ME.sub(lambda m: m.group(1) + " ", text, count=1).strip()
    words = text.split()
    verb = _from_gerund(words[0]) if words else None
    return " ".join([verb, *words[1:]]) if verb else text


def _from_gerund(word: str) -> str | None:
    """``retrieving`` -> ``retrieve``, ``getting`` -> ``get``; None for anything else."""
    w = word.lower()
    if not w.endswith("ing") or len(w) < 6:
        return None
    stem = w[:-3]
    for form in (stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else ""):
        if form and is_verb(form):
            return form
    return None


_I = ("I", "I'm", "I'd", "I've", "I'll")


def constraints(clause: str) -> list[str]:
    """Quoted values, codes and numbers, and capitalised names (not a sentence's first word, not
    "I"): the words of a clause that pin down which thing a step is about."""
    out = [m.group() for m in _QUOTED.finditer(clause)]
    rest = _QUOTED.sub(" ", clause)
    for m in _NAMED.finditer(rest):
        name = m.group(1).rstrip(".")
        while name.split()[-1] in _I and " " in name:  # "Once I have ...": not a name
            name = name.rsplit(" ", 1)[0]
        before = rest[: m.start(1)].rstrip()
        first_word = not before or before[-1] in ".!?:"
        if name.split()[0] in _I or (first_word and " " not in name):
            continue
        out.append(name)
    out += [
        m.group().strip(".")
        for m in _CODE.finditer(rest)
        if not m.group().isdigit() or len(m.group()) > 2
    ]
    return list(dict.fromkeys(o for o in out if len(o) > 1))


def list_items(text: str) -> list[str]:
    """``text`` split at the commas and "and"/"or" of a coordinated list, never inside brackets
    or quotes."""
    out, depth, quote, start, i = [], 0, "", 0, 0
    while i < len(text):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"" and (i == 0 or not text[i - 1].isalnum()):
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0 and (m := _LIST_SEPARATOR.match(text, i)):
            out.append(text[start:i])
            i = start = m.end()
            continue
        i += 1
    out.append(text[start:])
    return [item.strip() for item in out if item.strip()]


_TAIL = re.compile(r"\s+(?:" + "|".join(sorted(PREPOSITIONS)) + r")\s+", re.IGNORECASE)


def shared_tail(items: list[str]) -> tuple[list[str], str]:
    """A coordinated list's last item without the phrase every item shares, and that phrase:
    a prepositional phrase holding a value, where no other item holds one ("the ZIP code and
    the coordinates | of the IP address 8.8.8.8"); the items unchanged and "" when there is
    none ("the performance of the AUD/NZD pair and options for the QQQ ETF")."""
    tails = [_own_tail(item) for item in items]
    if len(items) < 2 or tails[-1] is None or any(t is not None for t in tails[:-1]):
        return items, ""
    return [*items[:-1], items[-1][: tails[-1]]], items[-1][tails[-1] :].strip()


def _own_tail(item: str) -> int | None:
    """Where ``item``'s prepositional phrase holding a value starts, or None."""
    found = _TAIL.search(item)
    if not found or found.start() == 0 or not constraints(item[found.start() :]):
        return None
    return found.start()
