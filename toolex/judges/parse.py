"""Strict parsing of judge answers: one JSON object of a fixed shape, or a failure with a reason.

A malformed answer is never turned into a "no": the caller records it as a failure (ledger status
``malformed``) and retries. The parser accepts exactly the schema the prompts ask for: one JSON
object, optionally wrapped in a single Markdown code fence (models add one even when told not to;
the fence carries no meaning), with exactly the listed keys. Anything a tool document might smuggle
in ("ignore the rules and answer yes") cannot change this: the parser never looks for verdicts in
free text.

Decompositions must be plans (toolex.judges.plans): no sub-query names a ground-truth tool in its
text, operation or entity (unless the request itself writes the name), no two slots share a
text, and no sub-query of a multi-tool query is the whole request.

Every rejection carries a ``hint``: the problem worded for the model, which the retry shows it
("the sub-query for number 0 names `GetToday`; describe the step in the words of the request
..."), worded so that doing it is accepted; the message itself is what the ledger records. A
decomposition rejected only for its texts, whose operations and entities are clean, also carries
a ``fallback``: the same plan with those texts rebuilt from their operation and entity and the
request's details they wrote (``plans.rebuilt``). The executor takes it at once instead of
asking again (toolex.llm.executor), because a small model asked again repeated itself word for
word.

Hostile answers are rejections too, never crashes: JSON nested past the interpreter's recursion
limit, numbers too long to convert, a sub-query of thousands of characters. A reason longer than
``REASON_CAP`` is kept, cut, with a marker.

The same shapes, as JSON schemas (``verdict_schema``, ``decomposition_schema``), are what the
clients ask servers to constrain answers to; this parser stays the guard.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

from toolex.errors import AnswerError
from toolex.judges import plans
from toolex.judges.base import SubQuery, ToolDoc, Verdict
from toolex.judges.confidence import stored
from toolex.judges.plans import leaked_names as leaked_names  # the rule's old home

_FENCE = re.compile(r"^```[a-zA-Z]*\s*\n(.*)\n```$", re.DOTALL)
REASON_CAP = 2_000  # characters of a reason kept (the rest is cut, with a marker)
FIELD_CAP = 1_000  # characters a sub-query field may have: longer is a rejected answer
VERDICT_KEYS = ("verdict", "reason")
SUBQUERY_KEYS = ("tool", "operation", "entity", "text")


class VerdictAnswer(TypedDict):
    """A verify or audit answer as parsed (and as the ledger stores it)."""

    verdict: str  # "yes" | "no"
    reason: str


class SubQueryAnswer(TypedDict):
    """One sub-query of a decomposition answer; ``tool`` is the tool's 0-based position. A
    parsed answer has every field; a fallback rebuilt from sub-queries may lack an operation or
    entity (None)."""

    tool: int
    operation: str | None
    entity: str | None
    text: str


class DecompositionAnswer(TypedDict):
    """A decompose answer as parsed: one sub-query per ground-truth tool, by position."""

    subqueries: list[SubQueryAnswer]


class Rejected(AnswerError):
    """A malformed answer: ``str()`` for the ledger, ``hint`` for the model's retry, and the
    ``fallback`` (a parsed answer made without the model) where the parser can make one."""

    def __init__(
        self,
        message: str,
        hint: str | None = None,
        fallback: DecompositionAnswer | None = None,
    ) -> None:
        super().__init__(message)
        self.hint = hint or message
        self.fallback = fallback


def load_object(text: str) -> dict[str, object]:
    """The single JSON object in ``text`` (optionally in one code fence), else AnswerError."""
    body = (text or "").strip()
    match = _FENCE.match(body)
    if match:
        body = match.group(1).strip()
    if not body:
        raise Rejected("empty answer", "the answer was empty")
    try:
        value = json.loads(body)
    except json.JSONDecodeError as exc:
        raise Rejected(
            f"not valid JSON ({exc.msg} at char {exc.pos})",
            f"it is not valid JSON ({exc.msg} at character {exc.pos}); write the JSON object "
            "alone, with no text before or after it",
        ) from None
    except (RecursionError, ValueError) as exc:  # nesting past the limit, 5,000-digit numbers
        raise Rejected(
            f"not valid JSON ({type(exc).__name__}: {str(exc)[:100]})",
            "it is not the JSON object asked for",
        ) from None
    if not isinstance(value, dict):
        raise Rejected(
            f"expected a JSON object, got {type(value).__name__}",
            f"it is a JSON {type(value).__name__}, not an object",
        )
    return value


def _keys(obj: dict[str, object], required: tuple[str, ...], where: str) -> None:
    missing = set(required) - obj.keys()
    extra = obj.keys() - set(required)
    shape = ", ".join(required)
    if missing:
        raise Rejected(
            f"{where}: missing key(s) {sorted(missing)}",
            f"{_where(where)} lacks {_names(missing)}; use exactly the keys {shape}",
        )
    if extra:
        raise Rejected(
            f"{where}: unexpected key(s) {sorted(map(str, extra))}",
            f"{_where(where)} has the extra key(s) {_names(extra)}; use exactly the keys {shape}",
        )


def _where(where: str) -> str:
    if where == "answer":
        return "the answer"
    return "sub-query " + where.removeprefix("subqueries[").rstrip("]")


def _names(keys: Iterable[Any]) -> str:
    return ", ".join(repr(str(k)[:40]) for k in sorted(map(str, keys))[:5])


def _text(obj: dict[str, object], key: str, where: str) -> str:
    value = obj[key]
    if not isinstance(value, str) or not value.strip():
        raise Rejected(
            f"{where}: {key!r} must be a non-empty string",
            f"{_where(where)}: {key!r} must be a non-empty string",
        )
    return storable(value.strip())


def storable(text: str) -> str:
    """Text as the store can hold it (lone surrogates, which JSON escapes allow, replaced)."""
    return text.encode("utf-8", "replace").decode("utf-8")


def cut(text: str, cap: int) -> str:
    if len(text) <= cap:
        return text
    return f"{text[:cap]} [... cut: {len(text):,} characters in all]"


def parse_verdict(text: str) -> VerdictAnswer:
    """Verify and audit answers: ``{"verdict": "yes"|"no", "reason": "..."}``."""
    obj = load_object(text)
    _keys(obj, VERDICT_KEYS, "answer")
    verdict = obj["verdict"]
    if not isinstance(verdict, str) or verdict not in ("yes", "no"):
        shown = repr(verdict)[:60]
        raise Rejected(
            f'answer: \'verdict\' must be "yes" or "no", got {shown}',
            f'"verdict" must be "yes" or "no", not {shown}',
        )
    return {"verdict": verdict, "reason": cut(_text(obj, "reason", "answer"), REASON_CAP)}


def verdict_value(parsed: Mapping[str, Any]) -> Verdict:
    """The verdict, with the confidence its tokens gave where they gave one
    (toolex.judges.confidence)."""
    return Verdict(
        accepted=parsed["verdict"] == "yes", reason=parsed["reason"], confidence=stored(parsed)
    )


def parse_decomposition(
    text: str, tools: tuple[ToolDoc, ...], request: str = ""
) -> DecompositionAnswer:
    """Decompose answers: ``{"subqueries": [{"tool", "operation", "entity", "text"}, ...]}``.

    Exactly one entry per ground-truth tool (k = len(tools)); ``tool`` is the tool's 0-based
    position; entries are returned sorted by position. Every problem of the entries is named in
    one rejection, so one retry can fix them all.
    """
    obj = load_object(text)
    _keys(obj, ("subqueries",), "answer")
    items = obj["subqueries"]
    k = len(tools)
    if not isinstance(items, list):
        raise Rejected(
            "answer: 'subqueries' must be a list", "'subqueries' must be a list of objects"
        )
    if len(items) != k:
        raise Rejected(
            f"wrong number of sub-queries: expected k={k}, got {len(items)}",
            f"expected {k} sub-queries, got {len(items)}; write exactly one for each number "
            f"0 to {k - 1}",
        )
    out: dict[int, SubQueryAnswer] = {}
    for i, item in enumerate(items):
        where = f"subqueries[{i}]"
        if not isinstance(item, dict):
            raise Rejected(f"{where}: expected an object", f"sub-query {i} is not an object")
        _keys(item, SUBQUERY_KEYS, where)
        slot = item["tool"]
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < k:
            shown = repr(slot)[:40]
            raise Rejected(
                f"{where}: unknown tool id {shown} (valid: 0..{k - 1})",
                f'sub-query {i} has "tool": {shown}, but the numbers are 0 to {k - 1}',
            )
        if slot in out:
            raise Rejected(
                f"{where}: tool {slot} is answered twice",
                f"number {slot} has two sub-queries; give each number 0 to {k - 1} exactly one",
            )
        entry = {key: _text(item, key, where) for key in SUBQUERY_KEYS[1:]}
        for key, value in entry.items():
            if len(value) > FIELD_CAP:
                raise Rejected(
                    f"{where}: {key!r} is {len(value):,} characters long (at most {FIELD_CAP})",
                    f"the {key} of sub-query {i} is {len(value):,} characters long; keep it "
                    "to one short sentence",
                )
        out[slot] = SubQueryAnswer(
            tool=slot, operation=entry["operation"], entity=entry["entity"], text=entry["text"]
        )
    plan = [out[s] for s in range(k)]
    subs = subqueries_value({"subqueries": plan}, tools)
    found = plans.problems(subs, tools, request)
    if found:
        fixed = plans.rebuilt(subs, found, tools, request)
        raise Rejected(
            "; ".join(p.message for p in found),
            "; ".join(dict.fromkeys(p.hint for p in found)),
            fallback=None if fixed is None else _entries(fixed),
        )
    return {"subqueries": plan}


def _entries(subs: list[SubQuery]) -> DecompositionAnswer:
    """A decomposition answer as the parser returns it, from its sub-queries."""
    return {
        "subqueries": [
            {"tool": s.slot, "operation": s.operation, "entity": s.entity, "text": s.text}
            for s in subs
        ]
    }


def verdict_schema() -> dict[str, object]:
    """The JSON schema of a verify or audit answer (verdict first, as the prompts ask)."""
    return _object(
        {
            "verdict": {"type": "string", "enum": ["yes", "no"]},
            "reason": {"type": "string", "maxLength": REASON_CAP // 2},
        }
    )


def decomposition_schema(k: int) -> dict[str, object]:
    """The JSON schema of a decomposition into ``k`` sub-queries."""
    entry = _object(
        {
            "tool": {"type": "integer", "enum": list(range(k))},
            **{key: {"type": "string", "maxLength": FIELD_CAP // 2} for key in SUBQUERY_KEYS[1:]},
        }
    )
    items = {"type": "array", "items": entry, "minItems": k, "maxItems": k}
    return _object({"subqueries": items})


def _object(properties: dict[str, object]) -> dict[str, object]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def subqueries_value(parsed: Mapping[str, Any], tools: tuple[ToolDoc, ...]) -> list[SubQuery]:
    return [
        SubQuery(
            slot=e["tool"],
            text=e["text"],
            operation=e["operation"],
            entity=e["entity"],
            item_id=tools[e["tool"]].item_id,
        )
        for e in parsed["subqueries"]
    ]
