"""Issue 15: runs from elsewhere. ToolRet's result JSON keyed by task imports; ids with spaces go
out to TREC and come back unchanged (the one mapping of toolex.loaders.trec_ids)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from loaders.conftest import DATA

from toolex.errors import InputError
from toolex.exports import export_trec_run
from toolex.loaders import load_plain, load_toolret
from toolex.runs import import_run
from toolex.store import Store

BY_TASK = {
    "mini": {
        "mini_query_0": {"mini_tool_0": 0.5, "mini_tool_1": 0.9, "mini_tool_2": 0.5},
        "mini_query_1": {"mini_tool_2": 3},
    }
}


def _results(store: Store, run: str) -> list[tuple[Any, ...]]:
    return store.con.execute(
        "SELECT query_id, item_id, score, rank FROM run_results WHERE run_id = ? ORDER BY 1, 4",
        [run],
    ).fetchall()


def test_toolret_json_keyed_by_task_imports_like_the_flat_form(
    store: Store, tmp_path: Path
) -> None:
    load_toolret(store, DATA / "toolret_mini")
    by_task, flat = tmp_path / "by_task.json", tmp_path / "flat.json"
    by_task.write_text(json.dumps(BY_TASK))
    flat.write_text(json.dumps(BY_TASK["mini"]))
    done = import_run(store, by_task, run="a", benchmark="toolret")
    import_run(store, flat, run="b", benchmark="toolret")
    assert (done.format, done.queries, done.results) == ("toolret-json", 2, 4)
    assert _results(store, "a") == _results(store, "b")


def test_a_query_under_two_tasks_is_refused_by_its_id(store: Store, tmp_path: Path) -> None:
    load_toolret(store, DATA / "toolret_mini")
    f = tmp_path / "r.json"
    f.write_text(json.dumps({"t1": {"mini_query_0": {"a": 1}}, "t2": {"mini_query_0": {"b": 1}}}))
    with pytest.raises(InputError, match="query id 'mini_query_0' appears under tasks"):
        import_run(store, f, run="a", benchmark="toolret")


def test_ids_with_spaces_go_to_trec_and_back(store: Store, tmp_path: Path) -> None:
    items, queries, qrels = (tmp_path / f"{n}.jsonl" for n in ("items", "queries", "qrels"))
    ids = ["Pack & Send::/api/Tracking/", "CEP Brazil::Retorna Dados", "plain_id"]
    items.write_text("\n".join(json.dumps({"id": i, "text": f"tool {i}"}) for i in ids))
    queries.write_text(json.dumps({"id": "q 1", "text": "track my parcel"}))
    qrels.write_text(json.dumps({"query_id": "q 1", "item_id": ids[0]}))
    load_plain(store, items, queries, qrels, name="spaces")
    run = tmp_path / "r.csv"
    run.write_text(
        "query_id,item_id,score\n" + "".join(f"q 1,{i},{n}\n" for n, i in enumerate(ids))
    )
    import_run(store, run, run="r", benchmark="spaces")
    out = tmp_path / "r.trec"
    assert export_trec_run(store, out, "r") == 3
    lines = out.read_text().splitlines()
    assert all(len(line.split()) == 6 for line in lines)
    assert lines[0].startswith("q%201 Q0 plain_id 1 ")
    import_run(store, out, run="back", benchmark="spaces")
    assert _results(store, "back") == _results(store, "r")
