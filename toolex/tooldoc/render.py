"""How a tool's documentation becomes text: one function, the same for every retriever.

Benchmarks document tools in different shapes (OpenAPI-like dicts with a ``parameters`` list,
RapidAPI endpoints with required/optional parameters, function signatures, model cards). Every
retriever and every judge sees the same rendering so their differences come from the model, not
from the text. The rendering is versioned (``RENDER_VERSION``) and recorded with each run.

Layout, one field per line, in this order, skipping absent or empty fields::

    name: <name>
    platform: <platform>                 (when the loader knows it)
    description: <description>
    parameters: <name> (<type>, required): <description>; ...
    returns: <responses / output parameters / template_response, compact JSON>
    <any other scalar field>: <value>

Truncation to a model's limit is by whitespace tokens (``max_words``), applied last, so the name
and description survive.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

RENDER_VERSION = "render-v1"

_NAME_KEYS = ("name", "api_name", "tool_name", "title")
_DESC_KEYS = ("description", "api_description", "func_description", "functionality")
_PARAM_KEYS = ("parameters", "required_parameters", "optional_parameters", "api_arguments")
_RETURN_KEYS = ("responses", "response", "output_parameters", "template_response", "returns")
_SKIP = {"platform", "tool_name", "category", "category_name", "path", "url", "method", "type"}


def render_doc(
    doc: Mapping[str, object], *, platform: str | None = None, max_words: int | None = None
) -> str:
    """Render raw documentation ``doc`` as retrieval text (see module docstring)."""
    lines: list[str] = []
    used: set[str] = set()

    name = _first(doc, _NAME_KEYS, used)
    if name:
        lines.append(f"name: {name}")
    if platform:
        lines.append(f"platform: {platform}")
    desc = _first(doc, _DESC_KEYS, used)
    if desc:
        lines.append(f"description: {_clean(desc)}")
    params = [p for key in _PARAM_KEYS if key in doc for p in _params(doc[key], key)]
    used.update(_PARAM_KEYS)
    if params:
        lines.append("parameters: " + "; ".join(params))
    for key in _RETURN_KEYS:
        if doc.get(key):
            lines.append(f"returns: {_compact(doc[key])}")
            used.add(key)
            break
    used.update(_RETURN_KEYS)
    for key, value in doc.items():
        if key in used or key in _SKIP or value in (None, "", [], {}):
            continue
        lines.append(f"{key}: {_compact(value)}")

    text = "\n".join(lines) if lines else _compact(doc)
    return truncate(text, max_words)


def truncate(text: str, max_words: int | None) -> str:
    """Cut ``text`` to its first ``max_words`` space-separated words (None: keep it whole).

    Retrievers call this on stored renderings to fit a model's limit, so the cut is the same
    whether it happens at render time or at embedding time.
    """
    if max_words is None:
        return text
    words = text.split(" ")
    return " ".join(words[:max_words]) if len(words) > max_words else text


def _first(doc: Mapping[str, object], keys: tuple[str, ...], used: set[str]) -> str | None:
    for key in keys:
        value = doc.get(key)
        if isinstance(value, str) and value.strip():
            used.add(key)
            return value.strip()
    return None


def _clean(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    return " ".join(text.split())


def _params(value: object, key: str) -> list[str]:
    required = key == "required_parameters"
    if isinstance(value, list):
        out = []
        for p in value:
            if isinstance(p, dict):
                name = p.get("name", "?")
                raw_schema = p.get("schema")
                schema = raw_schema if isinstance(raw_schema, dict) else {}
                ptype = p.get("type") or schema.get("type")
                is_required = required or p.get("required") is True
                parts = (str(ptype or "").lower(), "required" * is_required)
                flags = ", ".join(x for x in parts if x)
                desc = _clean(str(p.get("description", "")))
                out.append(f"{name}{f' ({flags})' if flags else ''}{f': {desc}' if desc else ''}")
            else:
                out.append(_compact(p))
        return out
    if isinstance(value, dict):
        return [f"{k}: {_compact(v)}" for k, v in value.items()]
    if isinstance(value, str) and value.strip():
        return [_clean(value)]
    return []


def _compact(value: object) -> str:
    if isinstance(value, str):
        return _clean(value)
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)
