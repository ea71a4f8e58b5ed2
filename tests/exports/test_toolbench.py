"""Issue 26.6: ToolBench-format tasks with a query's valid equivalent combinations swapped into
its api_list, in StableToolBench's layout (what its runner and eval_pass_rate.py read); checked
by hand on a two-query benchmark, and by loading the export back as a benchmark."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from toolex.errors import InputError, ToolexError
from toolex.expansions.combinations import import_combinations
from toolex.exports.toolbench import export_toolbench
from toolex.exports.toolbench_tasks import check_toolbench
from toolex.loaders import load_stabletoolbench
from toolex.store import Store


def api(tool: str, name: str) -> dict[str, Any]:
    return {
        "category_name": "Data",
        "tool_name": tool,
        "api_name": name,
        "api_description": f"{name} of {tool}",
        "required_parameters": [],
        "optional_parameters": [],
        "method": "GET",
    }


TASKS: list[dict[str, Any]] = [
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


def keys(task: dict[str, Any]) -> list[tuple[str, str]]:
    return [(a["tool_name"], a["api_name"]) for a in task["api_list"]]


@pytest.fixture
def stb(store: Store, tmp_path: Path) -> Path:
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


def test_equivalents_are_swapped_into_api_list_and_relevant_apis(
    store: Store, stb: Path, tmp_path: Path
) -> None:
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


def test_the_export_loads_back_as_a_stabletoolbench_benchmark(
    store: Store, stb: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    export_toolbench(store, out, "stb")
    result = load_stabletoolbench(store, out, name="back")
    assert (result.queries, result.qrels) == (5, 2 + 2 + 1 + 2 + 1)
    labels = store.con.execute(
        "SELECT query_id, list(item_id ORDER BY slot) FROM qrels WHERE benchmark = 'back' "
        "GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    assert dict(labels)["G1_instruction:21"] == ["C::w", "B::z"]


def test_only_stabletoolbench_benchmarks_and_their_sources(
    store: Store, stb: Path, tmp_path: Path
) -> None:
    from reports.fixtures import build

    build(store)  # a ToolRet-format benchmark beside it
    with pytest.raises(ToolexError, match="loaded from 'toolret', not StableToolBench"):
        export_toolbench(store, tmp_path / "x", "toolret")
    (stb / "test_instruction" / "G1_instruction.json").unlink()
    with pytest.raises(InputError, match="pass --source PATH"):
        export_toolbench(store, tmp_path / "y", "stb")
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_an_equivalent_that_is_another_slots_original_keeps_its_entry(
    store: Store, tmp_path: Path
) -> None:
    """Issue 35.1: B::z replaces A::x in slot 0 while slot 1 (B::z's own) goes to C::w. The old
    swap popped B::z for C::w, and a relevant API left api_list."""
    root = tmp_path / "stb"
    (root / "test_instruction").mkdir(parents=True)
    (root / "test_instruction" / "G1_instruction.json").write_text(json.dumps(TASKS))
    load_stabletoolbench(store, root, name="stb")
    combos = tmp_path / "combos.jsonl"
    rows = [("G1_instruction:10", 1, ["B::z", "C::w"]), ("G1_instruction:10", 2, ["A::x", "A::x"])]
    combos.write_text(
        "\n".join(
            json.dumps({"query_id": q, "combo_id": c, "item_id": i})
            for q, c, its in rows
            for i in its
        )
    )
    import_combinations(store, combos, benchmark="stb")
    out = tmp_path / "out"
    export_toolbench(store, out, "stb")
    by_id = {
        t["query_id"]: t
        for t in json.loads((out / "test_instruction" / "G1_instruction.json").read_text())
    }
    assert keys(by_id[21]) == [("A", "y"), ("B", "z"), ("C", "w")]
    assert by_id[21]["relevant APIs"] == [["B", "z"], ["C", "w"]]
    # A::x serves both slots: B::z leaves, A::x stays once
    assert keys(by_id[22]) == [("A", "x"), ("A", "y")]
    assert by_id[22]["relevant APIs"] == [["A", "x"]]
    assert check_toolbench(store, out, "stb") == []


def test_task_ids_are_unique_across_groups(store: Store, tmp_path: Path) -> None:
    """Alternatives are numbered after the largest id of every group: StableToolBench's ids are
    unique across groups, and tasks.csv is joined to pass rates on the id alone."""
    root = tmp_path / "stb"
    (root / "test_instruction").mkdir(parents=True)
    (root / "test_instruction" / "G1_instruction.json").write_text(json.dumps(TASKS))
    other = {**TASKS[1], "query_id": 30}
    (root / "test_instruction" / "G1_tool.json").write_text(json.dumps([other]))
    load_stabletoolbench(store, root, name="stb")
    combos = tmp_path / "combos.jsonl"
    rows = [("G1_instruction:20", 1, "D::v"), ("G1_tool:30", 1, "D::v")]
    combos.write_text(
        "\n".join(json.dumps({"query_id": q, "combo_id": c, "item_id": i}) for q, c, i in rows)
    )
    import_combinations(store, combos, benchmark="stb")
    out = tmp_path / "out"
    export_toolbench(store, out, "stb")
    ids = [
        t["query_id"]
        for group in ("G1_instruction", "G1_tool")
        for t in json.loads((out / "test_instruction" / f"{group}.json").read_text())
    ]
    assert ids == [10, 20, 31, 30, 32]  # was 21 for both alternatives
    assert check_toolbench(store, out, "stb") == []


def test_the_check_finds_what_a_folder_gets_wrong(store: Store, stb: Path, tmp_path: Path) -> None:
    """The check can fail: a relevant API dropped, an entry that is neither the store's nor the
    original's, a task id that repeats, a combination left out."""
    out = tmp_path / "out"
    export_toolbench(store, out, "stb")
    assert check_toolbench(store, out, "stb") == []
    path = out / "test_instruction" / "G1_instruction.json"
    tasks = json.loads(path.read_text())
    by_id = {t["query_id"]: t for t in tasks}
    by_id[21]["api_list"] = [a for a in by_id[21]["api_list"] if a["tool_name"] != "B"]
    by_id[22]["api_list"][0]["api_description"] = "edited"
    tasks.remove(by_id[23])
    path.write_text(json.dumps(tasks))
    found = [(p.task_id, p.combo_id, p.problem) for p in check_toolbench(store, out, "stb")]
    assert found == [
        ("21", 1, "relevant API(s) missing from api_list: B::z"),
        (
            "22",
            2,
            "api_list entry A::x is neither the store's documentation of it nor the "
            "original's entry",
        ),
        ("-", 1, "valid combination not exported"),
    ]


def test_a_relevant_api_the_source_never_listed_is_added(store: Store, tmp_path: Path) -> None:
    """Every relevant API of an alternative is in its api_list, even one its source task left
    out of its own (the original is exported as loaded)."""
    task = {**TASKS[0], "api_list": [api("A", "x"), api("A", "y")]}  # B::z relevant, unlisted
    root = tmp_path / "stb"
    (root / "test_instruction").mkdir(parents=True)
    other = {**TASKS[1], "api_list": [*TASKS[1]["api_list"], api("B", "z")]}  # in the library
    (root / "test_instruction" / "G1_instruction.json").write_text(json.dumps([task, other]))
    load_stabletoolbench(store, root, name="stb")
    combos = tmp_path / "combos.jsonl"
    combos.write_text(
        "\n".join(
            json.dumps({"query_id": "G1_instruction:10", "combo_id": 1, "item_id": i})
            for i in ("C::w", "B::z")
        )
    )
    import_combinations(store, combos, benchmark="stb")
    out = tmp_path / "out"
    export_toolbench(store, out, "stb")
    by_id = {
        t["query_id"]: t
        for t in json.loads((out / "test_instruction" / "G1_instruction.json").read_text())
    }
    assert keys(by_id[10]) == [("A", "x"), ("A", "y")]  # as loaded
    assert keys(by_id[21]) == [("C", "w"), ("A", "y"), ("B", "z")]
    assert check_toolbench(store, out, "stb") == []
