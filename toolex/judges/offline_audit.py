"""The offline audit: does a combination still serve the request, as the original did?

The audit is asked about a combination the verifier has already passed slot by slot, so it
checks what only the combination as a whole can get wrong, and claims nothing else:

1. **Coverage of the request's requirements.** The names the request and its sub-queries write
   (platforms, sites, places, products: ``toolex.judges.scope.named_terms``) that the original
   combination's documentation covers must still be covered by some member of this one. A
   requirement the original covers only through a slot this combination kept stays covered: an
   unchanged slot is never the reason to reject.
2. **The loaded call chain.** Each explicit hand-off (``dependency_edges``, loaded or imported)
   that touches a replaced step: the producer must document returning the value handed over, the
   consumer must take it as an input, and two steps the original ran on one platform must still
   share one (an id or token of one platform names nothing on another). A hand-off between steps
   with no platform known is counted as unchecked, never passed as checked.

Hand-offs that only the documentation suggests are the dependency rule's, applied before any
audit (toolex.pipeline.platform_rule). The original combination (nothing replaced) is valid.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolex.judges.base import AuditTask, Handoff, ToolDoc, Verdict
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
    """The request's named requirements the original covers and this combination does not."""
    if not task.reference:
        return []
    texts = [task.query, *task.subqueries]
    wanted = dict.fromkeys(
        term
        for text in texts
        for term in (bare(t) for t in named_terms(text))
        if term and term.lower() not in GENERIC_ACRONYMS
    )
    return [
        term for term in wanted if _covered(term, task.reference) and not _covered(term, task.tools)
    ]


def _covered(term: str, tools: Sequence[ToolDoc]) -> bool:
    return any(mentions(tool, term) for tool in tools)


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
