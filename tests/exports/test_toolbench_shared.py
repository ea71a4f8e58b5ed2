"""Issue 35.1 on the shared StableToolBench expansion: every exported task holds every relevant
API of its combination in its api_list, and the folder says exactly what the store says.

Before the fix, an equivalent that was another slot's original made the swap pop that API's
entry: 16 of the 287 alternatives of the whole benchmark lost a relevant API, all of them in
G1_tool (14 of G1_tool:16133, where ComfyFood::Get all Recipes 1 went to slot 0 while its own
slot 1 went to another recipe list, one of G1_tool:77908 and one of G1_tool:9039), which the
fixture expands. Every one of the 16 repeated the tool set of a better-ranked combination or of
the original, so the assembly no longer stores them (issue 35.3); the 13 of them whose tool set
is not the original's are imported below as the pipeline stored them, arrangement and all."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolex.expansions.combinations import import_combinations
from toolex.exports.toolbench import ToolBenchExport, export_toolbench
from toolex.exports.toolbench_tasks import check_toolbench, key
from toolex.store import Store

pytestmark = pytest.mark.shared_data
QUERY = "G1_tool:16133"
R1, R2, R3 = (f"ComfyFood::Get all {n}" for n in ("Recipes 1", "Recipes 2", "recipes 3"))
CATEGORIES = (
    "ComfyFood::Get All Categories",
    "MotorsportApi::Categories",
    "CricketAPI2::Categories",
    "Hashtag::Categories",
    "asdfadsf::Get Categories",
    "👋 Onboarding Project::Get Categories",
    "👋 Demo Project::Get Categories",
)
# slot 0's original R2 replaced by R1, slot 1's original, itself replaced by R3 or R2
BROKEN = [[R1, second, third] for third in CATEGORIES for second in (R3, R2)]
BROKEN.remove([R1, R2, CATEGORIES[0]])  # the original's tool set: the import drops it


def missing(tasks: list[Any]) -> list[tuple[Any, Any, tuple[Any, ...]]]:
    return [
        (t["toolex"]["query_id"], t["toolex"]["combo_id"], tuple(r))
        for t in tasks
        for r in t["relevant APIs"]
        if tuple(r) not in {key(a) for a in t["api_list"]}
    ]


@pytest.fixture(scope="module")
def exported(
    stb_expansion: Store, tmp_path_factory: pytest.TempPathFactory
) -> tuple[ToolBenchExport, Path, Any]:
    folder = tmp_path_factory.mktemp("toolbench") / "out"
    done = export_toolbench(stb_expansion, folder, "stabletoolbench")
    tasks = json.loads((folder / "test_instruction" / "G1_tool.json").read_text())
    return done, folder, tasks


def test_every_relevant_api_is_in_its_api_list(
    exported: tuple[ToolBenchExport, Path, Any], stb_expansion: Store
) -> None:
    done, folder, tasks = exported
    # every query; G1_tool's distinct alternatives: 62 with the verifier of issue 24, 17 with the
    # six-point verifier of issue 32 (the "Categories" equivalents of G1_tool:16133 are gone)
    assert (done.originals, done.alternatives) == (765, 17)
    assert missing(tasks) == []
    assert check_toolbench(stb_expansion, folder, "stabletoolbench") == []


def test_the_broken_arrangements_export_whole(stb_expansion: Store, tmp_path: Path) -> None:
    """The 13 combinations as the pipeline stored them before issue 35.3, imported: R1 stands
    in slot 0 while slot 1, its own, holds another recipe list. The old swap dropped R1."""
    path = tmp_path / "broken.jsonl"
    path.write_text(
        "\n".join(
            json.dumps({"query_id": QUERY, "combo_id": n, "slot": s, "item_id": item})
            for n, members in enumerate(BROKEN, start=1)
            for s, item in enumerate(members)
        ),
        encoding="utf-8",
    )
    done = import_combinations(
        stb_expansion, path, benchmark="stabletoolbench", expansion="arranged"
    )
    assert (done.combinations, done.notes) == (13, [])
    out = tmp_path / "out"
    export_toolbench(stb_expansion, out, "stabletoolbench", "arranged")
    tasks = json.loads((out / "test_instruction" / "G1_tool.json").read_text())
    alternatives = [t for t in tasks if t["toolex"]["combo_id"]]
    assert len(alternatives) == 13
    assert missing(alternatives) == []
    assert all(["ComfyFood", "Get all Recipes 1"] in t["relevant APIs"] for t in alternatives)
    assert check_toolbench(stb_expansion, out, "stabletoolbench", "arranged") == []


def test_task_ids_are_unique_across_groups(exported: tuple[ToolBenchExport, Path, Any]) -> None:
    _, folder, _ = exported
    ids = [
        t["query_id"]
        for f in sorted((folder / "test_instruction").glob("*.json"))
        for t in json.loads(f.read_text())
    ]
    assert len(ids) == len(set(ids)) == 765 + 17
