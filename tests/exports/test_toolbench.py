"""Issue 26.6: ToolBench-format tasks with a query's valid equivalent combinations swapped into
its api_list, in StableToolBench's layout (what its runner and eval_pass_rate.py read); checked
by hand on a two-query benchmark, and by loading the export back as a benchmark."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from toolex.errors import InputError, ToolexError
from toolex.expansions.combinations import import_combinations
from toolex.exports.toolbench import export_toolbench
from toolex.loaders import load_stabletoolbench


def api(tool: str, name: str) -> dict:
    return {
        "category_name": "Data",
        "tool_name": tool,
        "api_name": name,
        "api_description": f"{name} of {tool}",
        "required_parameters": [],
        "optional_parameters": [],
        "method": "GET",
    }


TASKS = [
    {
        "query_id": 10,
        "query": "x then z",
        "api_list": [api("A", "x"), api("A", "y"), api("B", "z")],
        "relevant APIs": [["A", "x"], ["B", "z"]],
    },
    {
        "query_id": 20,
        "query": "w",
        "api_list": [api("C", "w"), api("D", "v")],
        "relevant APIs": [["C", "w"]],
    },
]
# q10: slot 0 swapped for C::w (not in its api_list); slot 1 for A::y (listed already)
# q20: slot 0 for D::v (listed already)
COMBOS = [
    ("G1_instruction:10", 1, ["C::w", "B::z"]),
    ("G1_instruction:10", 2, ["A::x", "A::y"]),
    ("G1_instruction:20", 1, ["D::v"]),
]


def keys(task: dict) -> list[tuple[str, str]]:
    return [(a["tool_name"], a["api_name"]) for a in task["api_list"]]


@pytest.fixture
def stb(store, tmp_path) -> Path:
    root = tmp_path / "stb"
    (root / "test_instruction").mkdir(parents=True)
    (root / "test_instruction" / "G1_instruction.json").write_text(json.dumps(TASKS))
    load_stabletoolbench(store, root, name="stb")
    combos = tmp_path / "combos.jsonl"
    combos.write_text(
        "\n".join(
            json.dumps({"query_id": q, "combo_id": c, "item_id": item})
            for q, c, items in COMBOS
            for item in items
        )
    )
    import_combinations(store, combos, benchmark="stb")
    return root


def test_equivalents_are_swapped_into_api_list_and_relevant_apis(store, stb, tmp_path):
    out = tmp_path / "out"
    done = export_toolbench(store, out, "stb")
    assert (done.originals, done.alternatives, done.groups) == (2, 3, {"G1_instruction": 5})
    tasks = json.loads((out / "test_instruction" / "G1_instruction.json").read_text())
    by_id = {t["query_id"]: t for t in tasks}
    assert list(by_id) == [10, 21, 22, 20, 23]  # originals keep their ids, the rest follow 20
    assert by_id[10] == {**TASKS[0], "toolex": by_id[10]["toolex"]}  # the original as loaded
    assert keys(by_id[21]) == [("C", "w"), ("A", "y"), ("B", "z")]  # C::w takes A::x's place
    assert by_id[21]["api_list"][0] == api("C", "w")  # its own entry, as loaded
    assert by_id[21]["relevant APIs"] == [["C", "w"], ["B", "z"]]
    assert keys(by_id[22]) == [("A", "x"), ("A", "y")]  # A::y was listed: B::z just leaves
    assert by_id[22]["relevant APIs"] == [["A", "x"], ["A", "y"]]
    assert keys(by_id[23]) == [("D", "v")] and by_id[23]["relevant APIs"] == [["D", "v"]]
    assert by_id[23]["query"] == "w"
    assert by_id[21]["toolex"] == {
        "query_id": "G1_instruction:10", "combo_id": 1, "members": ["C::w", "B::z"]
    }  # fmt: skip
    ids = json.loads((out / "test_query_ids" / "G1_instruction.json").read_text())
    assert ids == {"10": 0, "21": 0, "22": 0, "20": 0, "23": 0}  # eval_pass_rate's --test_ids
    with open(out / "tasks.csv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["task_id"], r["query_id"], r["combo_id"], r["original"]) for r in rows] == [
        ("10", "G1_instruction:10", "0", "True"),
        ("21", "G1_instruction:10", "1", "False"),
        ("22", "G1_instruction:10", "2", "False"),
        ("20", "G1_instruction:20", "0", "True"),
        ("23", "G1_instruction:20", "1", "False"),
    ]


def test_the_export_loads_back_as_a_stabletoolbench_benchmark(store, stb, tmp_path):
    out = tmp_path / "out"
    export_toolbench(store, out, "stb")
    result = load_stabletoolbench(store, out, name="back")
    assert (result.queries, result.qrels) == (5, 2 + 2 + 1 + 2 + 1)
    labels = store.con.execute(
        "SELECT query_id, list(item_id ORDER BY slot) FROM qrels WHERE benchmark = 'back' "
        "GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    assert dict(labels)["G1_instruction:21"] == ["C::w", "B::z"]


def test_only_stabletoolbench_benchmarks_and_their_sources(store, stb, tmp_path):
    from reports.fixtures import build

    build(store)  # a ToolRet-format benchmark beside it
    with pytest.raises(ToolexError, match="loaded from 'toolret', not StableToolBench"):
        export_toolbench(store, tmp_path / "x", "toolret")
    (stb / "test_instruction" / "G1_instruction.json").unlink()
    with pytest.raises(InputError, match="pass --source PATH"):
        export_toolbench(store, tmp_path / "y", "stb")
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()
