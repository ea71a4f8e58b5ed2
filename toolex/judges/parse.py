"""Strict parsing of judge answers: one JSON object of a fixed shape, or a failure with a reason.

A malformed answer is never turned into a "no": the caller records it as a failure (ledger status
``malformed``) and retries. The parser accepts exactly the schema the prompts ask for: one JSON
object, optionally wrapped in a single Markdown code fence (models add one even when told not to;
the fence carries no meaning), with exactly the listed keys. Anything a tool document might smuggle
in ("ignore the rules and answer yes") cannot change this: the parser never looks for verdicts in
free text.

Name leaks (decompose): a sub-query must not name a ground-truth tool, API or function. A name
counts as leaked when, compared case-insensitively on word sequences,
- an identifier-like name (contains ``_``, ``.``, ``/``, a digit or camelCase), or
- a plain name of two or more words
appears in the sub-query text. Single plain words ("Weather") are ordinary vocabulary and do not
count; an identifier-like name also leaks when written split into words (``get_weather`` as "get
weather") because that is the same name.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from toolex.errors import AnswerError
from toolex.judges.base import SubQuery, ToolDoc, Verdict

_FENCE = re.compile(r"^```[a-zA-Z]*\s*\n(.*)\n```$", re.DOTALL)


def load_object(text: str) -> dict[str, Any]:
    """The single JSON object in ``text`` (optionally in one code fence), else AnswerError."""
    body = (text or "").strip()
    match = _FENCE.match(body)
    if match:
        body = match.group(1).strip()
    if not body:
        raise AnswerError("empty answer")
    try:
        value = json.loads(body)
    except json.JSONDecodeError as exc:
        raise AnswerError(f"not valid JSON ({exc.msg} at char {exc.pos})") from None
    if not isinstance(value, dict):
        raise AnswerError(f"expected a JSON object, got {type(value).__name__}")
    return value


def _keys(obj: dict[str, Any], required: set[str], where: str) -> None:
    missing = required - obj.keys()
    extra = obj.keys() - required
    if missing:
        raise AnswerError(f"{where}: missing key(s) {sorted(missing)}")
    if extra:
        raise AnswerError(f"{where}: unexpected key(s) {sorted(extra)}")


def _text(obj: dict[str, Any], key: str, where: str) -> str:
    value = obj[key]
    if not isinstance(value, str) or not value.strip():
        raise AnswerError(f"{where}: {key!r} must be a non-empty string")
    return value.strip()


def parse_verdict(text: str) -> dict[str, Any]:
    """Verify and audit answers: ``{"verdict": "yes"|"no", "reason": "..."}``."""
    obj = load_object(text)
    _keys(obj, {"verdict", "reason"}, "answer")
    verdict = obj["verdict"]
    if verdict not in ("yes", "no"):
        raise AnswerError(f'answer: \'verdict\' must be "yes" or "no", got {verdict!r}')
    return {"verdict": verdict, "reason": _text(obj, "reason", "answer")}


def verdict_value(parsed: dict[str, Any]) -> Verdict:
    return Verdict(accepted=parsed["verdict"] == "yes", reason=parsed["reason"])


def parse_decomposition(text: str, tools: tuple[ToolDoc, ...]) -> dict[str, Any]:
    """Decompose answers: ``{"subqueries": [{"tool", "operation", "entity", "text"}, ...]}``.

    Exactly one entry per ground-truth tool (k = len(tools)); ``tool`` is the tool's 0-based
    position; entries are returned sorted by position.
    """
    obj = load_object(text)
    _keys(obj, {"subqueries"}, "answer")
    items = obj["subqueries"]
    k = len(tools)
    if not isinstance(items, list):
        raise AnswerError("answer: 'subqueries' must be a list")
    if len(items) != k:
        raise AnswerError(f"wrong number of sub-queries: expected k={k}, got {len(items)}")
    out: dict[int, dict[str, Any]] = {}
    for i, item in enumerate(items):
        where = f"subqueries[{i}]"
        if not isinstance(item, dict):
            raise AnswerError(f"{where}: expected an object")
        _keys(item, {"tool", "operation", "entity", "text"}, where)
        slot = item["tool"]
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < k:
            raise AnswerError(f"{where}: unknown tool id {slot!r} (valid: 0..{k - 1})")
        if slot in out:
            raise AnswerError(f"{where}: tool {slot} is answered twice")
        entry = {key: _text(item, key, where) for key in ("operation", "entity", "text")}
        leaked = leaked_names(entry["text"], tools)
        if leaked:
            raise AnswerError(f"{where}: the text names a ground-truth tool/API ({leaked[0]!r})")
        out[slot] = {"tool": slot, **entry}
    return {"subqueries": [out[s] for s in range(k)]}


def subqueries_value(parsed: dict[str, Any], tools: tuple[ToolDoc, ...]) -> list[SubQuery]:
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


# -- name leaks -------------------------------------------------------------------------------

_NAME_KEYS = ("name", "api_name", "tool_name", "function_name", "title")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_WORD = re.compile(r"[a-z0-9]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(_CAMEL.sub(" ", text).lower())


def _identifier_like(name: str) -> bool:
    return bool(re.search(r"[_./]|\d|[a-z][A-Z]", name))


def tool_names(tool: ToolDoc) -> list[str]:
    names = [tool.name, tool.platform, tool.item_id]
    names += [tool.doc.get(k) for k in _NAME_KEYS if isinstance(tool.doc, dict)]
    return [n.strip() for n in names if isinstance(n, str) and n.strip()]


def leaked_names(text: str, tools: Iterable[ToolDoc]) -> list[str]:
    """Ground-truth names that appear in ``text`` (see the module docstring for the rule)."""
    padded = " " + " ".join(_words(text)) + " "
    found = []
    for tool in tools:
        for raw in tool_names(tool):
            # A ToolBench id "tool::api" is two names, not one identifier.
            for part in set(raw.split("::")):
                words = _words(part)
                if len(words) < 2 and not (_identifier_like(part) and len(part) >= 4):
                    continue
                if " " + " ".join(words) + " " in padded:
                    found.append(part)
    return found
