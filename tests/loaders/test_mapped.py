"""Issue 25.10: files in other public libraries' shapes load with `load plain --map` alone.

The fixtures in tests/data/mapped/ are small, written for these tests in the shapes of:
* taskbench/: TaskBench (microsoft/JARVIS) — tools under "nodes" of one pretty-printed object
  ({id, desc, parameters}); requests as JSON Lines under a .json name, each with its gold tools
  (task_nodes[*].task, one tool used twice in 10004) and its call chain by tool name
  (task_links {source, target});
* toolbench/: ToolBench tool records nesting their APIs (api_list), a query's gold tools as
  [tool_name, api_name] pairs (relevant APIs);
* functions/: OpenAI-style function tools ({type, function: {name, description, parameters}}),
  gold tools as the names of the answer's calls, with HuggingGPT-style step references
  (dep: [-1] for none, [0] for the first step's output).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from toolex.cli import cli
from toolex.errors import InputError
from toolex.loaders import load_plain
from toolex.loaders.fieldmap import FIELDS, SUBFIELDS
from toolex.store import Store

MAPPED = Path(__file__).resolve().parents[1] / "data" / "mapped"
TASKBENCH = [
    "--items", str(MAPPED / "taskbench" / "tool_desc.json"),
    "--queries", str(MAPPED / "taskbench" / "data.json"),
    "--map", "items=nodes", "--map", "items.doc.name=id",
    "--map", "items.doc.description=desc", "--map", "items.doc.parameters=parameters",
    "--map", "queries.text=user_request", "--map", "queries.labels=task_nodes[*].task",
    "--map", "queries.dependencies=task_links", "--map", "queries.dependencies.from=source",
    "--map", "queries.dependencies.to=target",
]  # fmt: skip
TOOLBENCH = [
    "--items", str(MAPPED / "toolbench" / "tools.json"),
    "--queries", str(MAPPED / "toolbench" / "queries.jsonl"),
    "--map", "items=api_list", "--map", "items.id={^.tool_name}::{name}",
    "--map", "items.platform=^.tool_name", "--map", "items.category=^.category_name",
    "--map", "items.doc=$", "--map", "queries.id=query_id", "--map", "queries.text=query",
    "--map", "queries.labels=relevant APIs", "--map", "queries.labels.id={[0]}::{[1]}",
]  # fmt: skip
FUNCTIONS = [
    "--items", str(MAPPED / "functions" / "tools.jsonl"),
    "--queries", str(MAPPED / "functions" / "queries.jsonl"),
    "--map", "items.id=function.name", "--map", "items.doc=function",
    "--map", "queries.text=query", "--map", "queries.labels=answers",
    "--map", "queries.labels.id=name", "--map", "queries.labels.from=dep",
]  # fmt: skip


def _load(tmp_path: Path, name: str, args: list[str]) -> tuple[Store, str]:
    db = tmp_path / "s.duckdb"
    res = CliRunner().invoke(cli, ["load", "plain", "--name", name, *args, "--db", str(db)])
    assert res.exit_code == 0, res.output
    return Store.open(db), res.stderr


def _rows(store: Store, sql: str) -> list[tuple[Any, ...]]:
    return store.con.execute(sql).fetchall()


def test_a_taskbench_shape_loads_with_options_alone(tmp_path: Path) -> None:
    store, said = _load(tmp_path, "taskbench", TASKBENCH)
    assert "5 items, 4 queries, 8 qrels" in said and "1 qrel(s) repeat" in said
    text = _rows(store, "SELECT text FROM items WHERE item_id = 'send_sms'")[0][0]
    assert text == (
        "name: send_sms\ndescription: Send a text message to a phone number\n"
        "parameters: phone_number (string); content (string)"
    )
    assert _rows(store, "SELECT query_id, item_id, slot FROM qrels ORDER BY 1, 3") == [
        ("10001", "get_weather", 0), ("10001", "send_sms", 1),
        ("10002", "take_note", 0),
        ("10003", "book_taxi", 0), ("10003", "take_note", 1), ("10003", "send_email", 2),
        ("10004", "get_weather", 0), ("10004", "send_sms", 1),  # send_sms twice: one label
    ]  # fmt: skip
    assert _rows(store, "SELECT query_id, producer_slot, consumer_slot FROM dependency_edges "
                 "ORDER BY ALL") == [("10001", 0, 1), ("10003", 0, 1), ("10003", 1, 2),
                                     ("10004", 0, 1)]  # fmt: skip
    assert _rows(store, "SELECT text FROM queries WHERE query_id = '10002'") == [
        ("Write down that the meeting moved to Friday.",)
    ]
    store.close()


def test_a_toolbench_shape_nests_apis_in_tools_and_names_gold_tools_by_pairs(
    tmp_path: Path,
) -> None:
    store, _ = _load(tmp_path, "toolbench", TOOLBENCH)
    assert _rows(store, "SELECT item_id, name, platform, category FROM items ORDER BY 1") == [
        ("Mailer::send", "send", "Mailer", "Email"),
        ("Quick Mail::send", "send", "Quick Mail", "Email"),
        ("Weather Pro::current", "current", "Weather Pro", "Weather"),
        ("Weather Pro::forecast", "forecast", "Weather Pro", "Weather"),
    ]
    text = _rows(store, "SELECT text FROM items WHERE item_id = 'Weather Pro::forecast'")[0][0]
    assert "parameters: city (string, required): City name; units (string)" in text
    assert _rows(store, "SELECT query_id, item_id, slot FROM qrels ORDER BY 1, 3") == [
        ("7001", "Weather Pro::current", 0), ("7001", "Mailer::send", 1),
        ("7002", "Weather Pro::forecast", 0),
    ]  # fmt: skip
    store.close()


def test_function_tools_and_step_references_load(tmp_path: Path) -> None:
    store, _ = _load(tmp_path, "fc", FUNCTIONS)
    assert _rows(store, "SELECT item_id, name FROM items ORDER BY 1") == [
        ("book_flight", "book_flight"), ("convert_currency", "convert_currency"),
        ("search_flights", "search_flights"),
    ]  # fmt: skip
    assert _rows(store, "SELECT query_id, item_id, slot FROM qrels ORDER BY 1, 3") == [
        ("1", "search_flights", 0), ("1", "book_flight", 1), ("2", "convert_currency", 0),
    ]  # fmt: skip
    # dep [0] on the second call: the first call's output feeds it; dep [-1]: no producer
    assert _rows(store, "SELECT query_id, producer_slot, consumer_slot FROM dependency_edges") == [
        ("1", 0, 1)
    ]
    store.close()


def test_mapped_stores_expand_and_pass_check(tmp_path: Path) -> None:
    db = str(tmp_path / "s.duckdb")
    runner = CliRunner()
    for name, args in (("taskbench", TASKBENCH), ("toolbench", TOOLBENCH)):
        res = runner.invoke(cli, ["load", "plain", "--name", name, *args, "--db", db])
        assert res.exit_code == 0, res.output
        res = runner.invoke(cli, ["expand", "--benchmark", name, "--db", db, "-q"])
        assert res.exit_code == 0, res.output
    res = runner.invoke(cli, ["check", "--db", db])
    assert res.exit_code == 0, res.output


def test_load_plain_help_lists_every_field_the_loader_reads() -> None:
    out = CliRunner().invoke(cli, ["load", "plain", "--help"], terminal_width=100).output
    block = out.split("FIELDS READ")[1].split("One record of each")[0]
    for file, fields in FIELDS.items():
        part = block.split(f"\n  {file} ")[1].split("\n  qrels ")[0]
        for field in fields:
            assert re.search(rf"\b{field}\b", part), (file, field)
    for (_, field), subs in SUBFIELDS.items():
        assert all(f"{s}" in block for s in subs) and field in block
    assert "dependencies" in block and "FIELD MAPPING" in out and "--map" in out


def test_a_plain_file_loads_as_it_always_did(tmp_path: Path, data_dir: Path) -> None:
    """No mapping: the same rows and the same revision as before --map existed, so loading
    the fixture again on an upgraded toolex is the no-op it was."""
    with Store.open(tmp_path / "s.duckdb") as store:
        d = data_dir / "plain"
        result = load_plain(store, d / "items.jsonl", d / "queries.jsonl", d / "qrels.jsonl",
                            name="x")  # fmt: skip
    assert result.revision == "696512954d5745b2d28e28c384f5c66b5d2e3ce7e67e7292132469ffc1b99f9a"


def _with(args: list[str], spec: str, replace: bool) -> list[str]:
    """``args`` with ``--map spec`` replacing the mapping of its target, or added."""
    target = spec.split("=")[0]
    out = [a for a in args]
    for i, value in enumerate(out):
        if replace and out[i - 1] == "--map" and value.split("=")[0] == target:
            out[i] = spec
            return out
    return [*out, "--map", spec]


@pytest.mark.parametrize(
    ("spec", "replace", "message", "field"),
    [
        ("queries.text=user_requst", True, "missing required field", "user_requst"),
        ("items.category=cat", False, "found nothing in any record", "cat"),
        ("queries.dependencies.from=sourc", True, "'sourc' finds nothing in", "sourc"),
        ("queries.txt=x", False, "queries have no field 'txt'; they read id, text", "--map"),
        ("items.text=desc", False, "map items.text or items.doc, not both", "--map"),
        (
            "queries.labels.rank=x",
            False,
            "has id, relevance, from, outputs, arguments, not 'rank'",
            "--map",
        ),
        ("items=nodes", False, "where the items are is mapped twice", "--map"),
        ("queries.labels=task_nodes[*].task", False, "mapped twice", "--map"),
        ("items.id=nodes[*", False, "cannot read path", "--map"),
        ("nodes=x", False, "'nodes' is not a file", "--map"),
    ],
)
def test_a_wrong_mapping_is_refused_where_it_goes_wrong(
    tmp_path: Path, spec: str, replace: bool, message: str, field: str
) -> None:
    args = _with(TASKBENCH, spec, replace)
    db = tmp_path / "s.duckdb"
    res = CliRunner().invoke(cli, ["load", "plain", "--name", "t", *args, "--db", str(db)])
    said = str(res.exception)  # toolex's main() prints an InputError as this one line
    assert isinstance(res.exception, InputError), res.exception
    assert message in said and f"field {field!r}" in said, said
    if field != "--map":  # a data error names the file (and the line, for a record's field)
        assert "data.json" in said or "tool_desc.json" in said, said


def test_a_hole_in_a_list_of_gold_tools_is_located(tmp_path: Path) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_text(
        '{"id": "a", "user_request": "x", "task_nodes": [{"task": "take_note"}]}\n'
        '{"id": "b", "user_request": "y", "task_nodes": [{"task": "take_note"}, {"args": 1}]}\n'
    )
    args = [a if not a.endswith("data.json") else str(queries) for a in TASKBENCH[:16]]
    res = CliRunner().invoke(cli, ["load", "plain", "--name", "t", *args,
                                   "--db", str(tmp_path / "s.duckdb")])  # fmt: skip
    assert isinstance(res.exception, InputError)
    assert f"{queries}:2" in str(res.exception)
    assert "task_nodes[1] has no 'task'" in str(res.exception)


def test_labels_come_from_one_place(tmp_path: Path, data_dir: Path) -> None:
    d = data_dir / "plain"
    res = CliRunner().invoke(cli, [
        "load", "plain", "--name", "t", "--items", str(d / "items.jsonl"),
        "--queries", str(d / "queries.jsonl"), "--qrels", str(d / "qrels.jsonl"),
        "--map", "queries.labels=gold", "--db", str(tmp_path / "s.duckdb"),
    ])  # fmt: skip
    assert isinstance(res.exception, InputError)
    assert "from --qrels or from --map queries.labels" in str(res.exception)


def test_no_qrels_and_no_labels_says_where_labels_come_from(tmp_path: Path, data_dir: Path) -> None:
    d = data_dir / "plain"
    res = CliRunner().invoke(cli, [
        "load", "plain", "--name", "t", "--items", str(d / "items.jsonl"),
        "--queries", str(d / "queries.jsonl"), "--db", str(tmp_path / "s.duckdb"),
    ])  # fmt: skip
    assert isinstance(res.exception, InputError)
    assert "give a --qrels file, or each query's gold tools in a labels field" in str(res.exception)
