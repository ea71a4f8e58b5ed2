"""Issue 35.1 on the shared StableToolBench expansion: every exported task holds every relevant
API of its combination in its api_list, and the folder says exactly what the store says.

Before the fix, an equivalent that was another slot's original made the swap pop that API's
entry: 16 of the 287 alternatives of the whole benchmark lost a relevant API, all of them in
G1_tool (14 of G1_tool:16133, where ComfyFood::Get all Recipes 1 serves two slots, one of
G1_tool:77908 and one of G1_tool:9039), which the fixture expands."""

from __future__ import annotations

import json

import pytest

from toolex.exports.toolbench import export_toolbench
from toolex.exports.toolbench_tasks import check_toolbench, key

pytestmark = pytest.mark.shared_data
BROKEN = ("G1_tool:16133", "G1_tool:77908", "G1_tool:9039")


@pytest.fixture(scope="module")
def exported(stb_expansion, tmp_path_factory):
    folder = tmp_path_factory.mktemp("toolbench") / "out"
    done = export_toolbench(stb_expansion, folder, "stabletoolbench")
    tasks = json.loads((folder / "test_instruction" / "G1_tool.json").read_text())
    return done, folder, tasks


def test_every_relevant_api_is_in_its_api_list(exported):
    done, _, tasks = exported
    assert (done.originals, done.alternatives) == (765, 85)  # every query; G1_tool's alternatives
    missing = [
        (t["toolex"]["query_id"], t["toolex"]["combo_id"], tuple(r))
        for t in tasks
        for r in t["relevant APIs"]
        if tuple(r) not in {key(a) for a in t["api_list"]}
    ]
    assert missing == []


def test_the_broken_cases_are_in_the_data(exported):
    """The cases the fix is about are exercised: a slot whose original was replaced although
    that original serves another slot of the combination (so its entry must stay)."""
    _, _, tasks = exported
    truth = {
        t["toolex"]["query_id"]: t["toolex"]["members"]
        for t in tasks
        if t["toolex"]["combo_id"] == 0
    }
    cases: dict[str, int] = {}
    for t in tasks:
        query, members = t["toolex"]["query_id"], t["toolex"]["members"]
        gt = truth[query]
        if any(m != g and g in members for m, g in zip(members, gt, strict=True)):
            cases[query] = cases.get(query, 0) + 1
    assert set(BROKEN) <= set(cases)


def test_the_folder_holds_exactly_what_the_store_says(exported, stb_expansion):
    _, folder, _ = exported
    assert check_toolbench(stb_expansion, folder, "stabletoolbench") == []


def test_task_ids_are_unique_across_groups(exported):
    _, folder, _ = exported
    ids = [
        t["query_id"]
        for f in sorted((folder / "test_instruction").glob("*.json"))
        for t in json.loads(f.read_text())
    ]
    assert len(ids) == len(set(ids)) == 765 + 85
