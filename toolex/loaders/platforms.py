"""Where an item's platform comes from when its benchmark has no platform field: ToolRet.

The platform is the provider that issues the ids, tokens and sessions one call hands to another
(ToolBench's ``tool_name``); the dependency rule (toolex.pipeline.platform_rule) needs it to tell
a same-provider hand-off from a broken one. ToolRet's items carry none, but their documentation
often says it. Rules, first match wins, each recorded in ``items.platform_source``:

* ``doc.tool_name``: the doc names its ToolBench tool (the provider), as StableToolBench does.
* ``task``: every tool of a task is an endpoint of one provider's API: apibank (the API-Bank
  sandbox, ``url: apis/<name>.py``, whose GetUserToken issues the token its other APIs check),
  restgpt-spotify (Spotify's Web API), restgpt-tmdb (TMDB's API).
* ``description``: ToolBench-derived web tools name their API: "... using the Spotify API"
  (apigen), 'This is the subfunction for tool "youtube_search"' (ToolBench's function texts).
  Generic names ("Toolbench", "RapidAPI", "REST") are not providers. Code tasks (model cards,
  Python functions) are skipped: "the Hugging Face Inference API" there names a library.

An item none of these fit has no platform, and the stats say so (toolex.pipeline.stats).
Spellings differing only in case are folded to the first one met (``fold``), so "TikTok" and
"Tiktok" are one provider.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

TASK_PLATFORMS: dict[str, tuple[str, str]] = {
    "apibank": ("API-Bank", "task apibank: every tool is an API of the API-Bank sandbox"),
    "restgpt-spotify": ("Spotify", "task restgpt-spotify: endpoints of Spotify's Web API"),
    "restgpt-tmdb": ("TMDB", "task restgpt-tmdb: endpoints of the TMDB API"),
}
_NAME = r"((?:[A-Z0-9][\w.&'+-]*\s+){0,4}?[A-Z0-9][\w.&'+-]*)"
_API_PHRASE = re.compile(r"\b(?:the|via|using|from|with|by|of)\s+(?:the\s+)?" + _NAME + r"\s+API\b")
_SUBFUNCTION = re.compile(r'subfunction for tool "([^"]+)"')
_GENERIC = frozenset(
    {"toolbench", "rapidapi", "rest", "restful", "json", "http", "https", "web", "openapi"}
    | {"external", "public"}
)


def toolret_platform(
    item_id: str, task: str, category: str | None, doc: Mapping[str, object], prefix: str
) -> tuple[str | None, str | None]:
    """(platform, platform_source) of one ToolRet item, or (None, None)."""
    tool_name = doc.get("tool_name")
    if isinstance(tool_name, str) and tool_name.strip():
        return tool_name.strip(), "doc.tool_name"
    if task in TASK_PLATFORMS and item_id.startswith(prefix):
        return TASK_PLATFORMS[task]
    if category == "code":
        return None, None
    description = doc.get("description")
    if not isinstance(description, str):
        return None, None
    if match := _SUBFUNCTION.search(description):
        return match.group(1), f'description: subfunction for tool "{match.group(1)}"'
    for match in _API_PHRASE.finditer(description):
        name = match.group(1)
        if name.lower() not in _GENERIC and name.split()[0].lower() not in _GENERIC:
            return name, f"description: 'the {name} API'"
    return None, None


class PlatformCoverage(TypedDict):
    """One task's line of :func:`coverage`."""

    task: str
    items: int
    with_platform: int
    sources: dict[str, int]  # the first word of platform_source -> items


def rendered_platform(item: dict[str, Any]) -> str | None:
    """The platform a rendering of ``item`` shows (:func:`shown_platform`)."""
    return shown_platform(item.get("platform"), item.get("platform_source"))


def shown_platform(platform: str | None, source: str | None) -> str | None:
    """The platform a rendering shows: one its format gave, never a derived one (the text must
    stay what the benchmark's own retrievers index); ``source``: where ``platform`` came from."""
    given = source is None or source in ("field platform", "doc.tool_name")
    return platform if given else None


def fold(items: Iterable[dict[str, Any]]) -> None:
    """Spell each platform as the first item with the same name in another case spells it."""
    first: dict[str, str] = {}
    for row in items:
        platform = row.get("platform")
        if platform:
            row["platform"] = first.setdefault(platform.lower(), platform)


def coverage(items: Iterable[dict[str, Any]]) -> list[PlatformCoverage]:
    """Per task ('(none)' when the items have none): items, items with a platform, and how many
    came from each kind of source (the first word of platform_source: doc.tool_name, field,
    task, description)."""
    out: dict[str, PlatformCoverage] = {}
    for row in items:
        task = row.get("task") or "(none)"
        blank: PlatformCoverage = {"task": task, "items": 0, "with_platform": 0, "sources": {}}
        entry = out.setdefault(task, blank)
        entry["items"] += 1
        if row.get("platform"):
            entry["with_platform"] += 1
            kind = (row.get("platform_source") or "unknown").split(":")[0].split()[0]
            entry["sources"][kind] = entry["sources"].get(kind, 0) + 1
    return [out[t] for t in sorted(out)]
