"""Platforms of ToolRet items, derived from their docs and recorded with their source."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from toolex.loaders import load_toolret
from toolex.loaders.platforms import coverage, fold, toolret_platform
from toolex.store import Store


@pytest.mark.parametrize(
    ("item_id", "task", "category", "doc", "expected"),
    [
        ("toolbench_tool_1", "toolbench", "web", {"tool_name": "Spotify"},
         ("Spotify", "doc.tool_name")),
        ("apibank_tool_3", "apibank", "web", {"name": "AddAlarm"},
         ("API-Bank", "task apibank: every tool is an API of the API-Bank sandbox")),
        # a tool another task's label pulled in is not one of apibank's
        ("apigen_tool_3", "apibank", "web", {"name": "x"}, (None, None)),
        ("apigen_tool_9", "apigen", "web",
         {"description": "Fetches music posts from the TikTok API."},
         ("TikTok", "description: 'the TikTok API'")),
        ("t_tool_1", "toolbench", "web",
         {"description": 'This is the subfunction for tool "youtube_search", you can use it.'},
         ("youtube_search", 'description: subfunction for tool "youtube_search"')),
        # generic names are no provider; code tasks name libraries, not providers
        ("apigen_tool_5", "apigen", "web",
         {"description": "Checks a domain using the Toolbench RapidAPI API."}, (None, None)),
        ("gorilla_huggingface_tool_49", "gorilla-huggingface", "code",
         {"description": "Use the Hugging Face Inference API."}, (None, None)),
    ],
)  # fmt: skip
def test_derivation_rules(
    item_id: str,
    task: str,
    category: str,
    doc: dict[str, str],
    expected: tuple[str | None, str | None],
) -> None:
    prefix = task.replace("-", "_") + "_tool_"
    assert toolret_platform(item_id, task, category, doc, prefix) == expected


def test_spellings_differing_in_case_are_one_provider() -> None:
    rows: list[dict[str, Any]] = [
        {"platform": "TikTok"},
        {"platform": "Tiktok"},
        {"platform": None},
    ]
    fold(rows)
    assert [r["platform"] for r in rows] == ["TikTok", "TikTok", None]


def test_shared_toolret_tasks_per_task_coverage_in_the_load_summary(
    store: Store, shared_data: Path
) -> None:
    result = load_toolret(store, shared_data / "toolret")
    got = {c["task"]: (c["with_platform"], c["items"], c["sources"]) for c in result.platforms}
    assert got == {
        "apibank": (101, 101, {"task": 101}),
        "apigen": (956, 3605, {"description": 956}),
        "gorilla-huggingface": (0, 907, {}),
        "toolink": (0, 1804, {}),
    }
    assert "toolink 0/1804 (none: hand-offs cannot be checked)" in result.summary(), (
        result.summary()
    )
    stored = store.con.execute(
        "SELECT count(*) FROM items WHERE platform IS NOT NULL AND platform_source IS NULL"
    ).fetchall()[0]
    assert stored == (0,)  # every platform says where it came from
    assert coverage([]) == []
