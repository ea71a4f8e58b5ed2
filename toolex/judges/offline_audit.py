"""The offline audit: does a combination still serve the request, as the original did?

The audit is asked about a combination the verifier has already passed slot by slot, so it
checks what only the combination as a whole can get wrong, and claims nothing else:

1. **Coverage of the request's requirements.** The names the request and its sub-queries write
   (platforms, sites, places, products: ``toolex.judges.scope.named_terms``) that the original
   combination's documentation covers must still be covered by some member of this one. A
   requirement the original covers only through a slot this combination kept stays covered: an
   unchanged slot is never the reason to reject. It rejects only for what it can show:
   - an example value is no requirement the original covers: a name its documentation writes
     only as an example ("e.g., Premier League, Bundesliga", a parameter's ``default`` or
     ``example``, an argument's value, example code) does not count, while any mention in this
     combination's documentation, examples included, keeps a name covered;
   - case does not matter: a capitalised run ("Airline IATA Code") is judged by its name-like
     words only ("IATA"), those the documentations never write in lower case as ordinary words
     ("airline", "code"), so it asks what the request written in lower case asks; "Premier
     League" is judged by "Premier".
2. **The loaded call chain.** Each explicit hand-off (``dependency_edges``, loaded or imported)
   that touches a replaced step: the producer must document returning the value handed over, the
   consumer must take it as an input, and two steps the original ran on one platform must still
   share one (an id or token of one platform names nothing on another). A hand-off between steps
   with no platform known is counted as unchecked, never passed as checked.

Hand-offs that only the documentation suggests are the dependency rule's, applied before any
audit (toolex.pipeline.platform_rule). The original combination (nothing replaced) is valid.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from toolex.judges.base import AuditTask, Handoff, ToolDoc, Verdict, per_tool
from toolex.judges.inputs import param_words
from toolex.judges.lexicon import GENERIC_ACRONYMS
from toolex.judges.scope import bare, mentions, named_terms
from toolex.judges.tool_facts import returned
from toolex.tooldoc import fields as df


def audit(task: AuditTask) -> Verdict:
    reference = task.reference
    replaced = [
        slot
        for slot, tool in enumerate(task.tools)
        if slot >= len(reference) or tool.item_id != reference[slot].item_id
    ]
    if reference and not replaced:
        return Verdict(True, "the original combination: nothing replaced")
    steps = ", ".join(str(s + 1) for s in replaced)
    lost = _uncovered(task)
    if lost:
        return Verdict(
            False,
            f"replacing step(s) {steps} loses what the request names and the original covers: "
            + ", ".join(lost),
        )
    broken, checked, unchecked = _handoffs(task, set(replaced))
    if broken:
        return Verdict(False, broken)
    said = [f"replaced step(s) {steps}; the request's named requirements stay covered"]
    if checked:
        said.append(f"{checked} explicit hand-off(s) of replaced steps hold")
    if unchecked:
        said.append(f"{unchecked} hand-off(s) not checked (platform unknown)")
    if not checked and not unchecked:
        said.append("no explicit hand-off touches a replaced step")
    return Verdict(True, "; ".join(said))


def _uncovered(task: AuditTask) -> list[str]:
    """The request's named requirements the original covers and this combination does not,
    each judged by its name-like words (``_name_parts``) and reported as the request writes it."""
    if not task.reference:
        return []
    ordinary = _ordinary_words((*task.reference, *task.tools))
    texts = [task.query, *task.subqueries]
    terms = dict.fromkeys(bare(term) for text in texts for term in named_terms(text))
    return [
        term
        for term in terms
        if any(
            part.lower() not in GENERIC_ACRONYMS
            and any(_mentions(_required_text(t), part) for t in task.reference)
            and not any(mentions(t, part) for t in task.tools)
            for part in _name_parts(term, ordinary)
        )
    ]


def _name_parts(term: str, ordinary: frozenset[str]) -> list[str]:
    """The runs of ``term``'s words that name something: "Airline IATA Code" -> ["IATA"] where
    the documentations write "airline" and "code" in lower case; "Buenos Aires" stays whole."""
    parts: list[list[str]] = [[]]
    for word in term.split():
        if word.lower() in ordinary and not word.isupper():
            parts.append([])
        else:
            parts[-1].append(word)
    return [" ".join(p) for p in parts if p]


def _ordinary_words(tools: Sequence[ToolDoc]) -> frozenset[str]:
    """Words the documentations write in lower case as prose (not inside an identifier, a
    domain or a path)."""
    return frozenset(
        w
        for tool in tools
        for text in _strings(tool.doc, examples=True)
        for w in _PROSE.findall(text)
    )


@per_tool
def _required_text(tool: ToolDoc) -> str:
    """What the tool's documentation says it covers, lower case: its name, platform, id and
    every text of its documentation but the example values ("(e.g., Lakers, Celtics)", a
    parameter's ``default`` or ``example``)."""
    texts = [tool.name or "", tool.platform or "", tool.item_id]
    texts += [_EXAMPLE.sub(" ", t) for t in _strings(tool.doc, examples=False)]
    return " ".join(texts).lower()


def _strings(
    value: object, *, examples: bool, depth: int = 0, arguments: bool = False
) -> list[str]:
    """Every string of a documentation (keys that name parameters included); unless
    ``examples``, without its example values: the values of its example and default fields
    ("example_code", ``default``) and the values written straight under a parameter's name
    (``"api_arguments": {"sequence_to_classify": "Angela Merkel ist ..."}``; ``arguments``: the
    dict is such a map)."""
    if depth > 8:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        out = []
        for key, v in value.items():
            name = str(key).lower()
            out.append(str(key))
            example = name in _EXAMPLE_KEYS or "example" in name
            if not examples and (example or (arguments and not isinstance(v, dict))):
                continue
            out += _strings(v, examples=examples, depth=depth + 1, arguments=name in _ARGUMENTS)
        return out
    if isinstance(value, list):
        return [s for v in value for s in _strings(v, examples=examples, depth=depth + 1)]
    return []


def _mentions(haystack: str, term: str) -> bool:
    pattern = r"(?<![a-z0-9])" + re.escape(term.lower()) + r"(?![a-z0-9])"
    return re.search(pattern, haystack) is not None


_EXAMPLE_KEYS = frozenset({"default", "sample", "samples"})  # and every key naming an example
# Where a documentation lists its parameters: a string straight under a name is a value.
_ARGUMENTS = frozenset(
    {"api_arguments", "arguments", "parameters", "required_parameters", "optional_parameters"}
)
# "(e.g., Premier League, Bundesliga)", "e.g. Twitter or Facebook.", "for example: Paris"
_EXAMPLE = re.compile(
    r"\(\s*(?:e\.\s?g\.?|eg\.?|for\s+(?:example|instance)|example|ex\.)[^)]*\)"
    r"|\b(?:e\.\s?g\.?|for\s+(?:example|instance))[,:]?\s[^.;\n]*",
    re.IGNORECASE,
)
_PROSE = re.compile(r"(?<![\w./:@-])[a-z][a-z]+(?![\w/@-]|\.\w)")


def _handoffs(task: AuditTask, replaced: set[int]) -> tuple[str | None, int, int]:
    """(why a hand-off of a replaced step breaks, or None; hand-offs checked; unchecked)."""
    checked = unchecked = 0
    for edge in task.handoffs:
        if edge.producer not in replaced and edge.consumer not in replaced:
            continue
        if max(edge.producer, edge.consumer) >= len(task.tools):
            continue
        producer, consumer = task.tools[edge.producer], task.tools[edge.consumer]
        broken = _value_breaks(edge, producer, consumer)
        if broken:
            return broken, checked, unchecked
        if not producer.platform or not consumer.platform:
            unchecked += 1
            continue
        if _shared_platform(task.reference, edge) and producer.platform != consumer.platform:
            return (
                f"step {edge.consumer + 1} takes {_what(edge)} from step {edge.producer + 1}, "
                f"but they now run on {producer.platform!r} and {consumer.platform!r}",
                checked,
                unchecked,
            )
        checked += 1
    return None, checked, unchecked


def _value_breaks(edge: Handoff, producer: ToolDoc, consumer: ToolDoc) -> str | None:
    words = {df.stem(w) for w in df.split_words(edge.value)} - df.STOPWORDS
    if not words:
        return None
    if not words & returned(producer):
        return (
            f"step {edge.producer + 1} ({producer.item_id}) documents no {edge.value!r} to hand "
            f"to step {edge.consumer + 1}"
        )
    if not words & param_words(consumer):
        return f"step {edge.consumer + 1} ({consumer.item_id}) takes no {edge.value!r} input"
    return None


def _shared_platform(reference: tuple[ToolDoc, ...], edge: Handoff) -> bool:
    """Whether the original ran both ends of ``edge`` on one platform (unknown: assume so)."""
    if max(edge.producer, edge.consumer) >= len(reference):
        return True
    a, b = reference[edge.producer].platform, reference[edge.consumer].platform
    return not a or not b or a == b


def _what(edge: Handoff) -> str:
    return f"the {edge.value}" if edge.value else "the result"
