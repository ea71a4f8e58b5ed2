"""StableToolBench: every group with its README query count, the 2,479-API library, and the
labels-per-query histograms read off the files (distinct relevant APIs per query)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolex.loaders import load_stabletoolbench
from toolex.loaders.result import LoadResult
from toolex.loaders.stabletoolbench import read_stabletoolbench
from toolex.store import Store

GROUPS = {  # queries (README), labels-per-query histogram (counted independently with json)
    "G1_category": (153, {1: 11, 2: 117, 3: 20, 4: 2, 5: 3}),
    "G1_instruction": (163, {1: 6, 2: 124, 3: 20, 4: 10, 5: 1, 6: 2}),
    "G1_tool": (158, {1: 10, 2: 113, 3: 22, 4: 9, 5: 4}),
    "G2_category": (124, {2: 84, 3: 34, 4: 2, 5: 3, 6: 1}),
    "G2_instruction": (106, {2: 69, 3: 27, 4: 10}),
    "G3_instruction": (61, {2: 20, 3: 28, 4: 9, 5: 4}),
}


@pytest.fixture(scope="module")
def loaded(
    shared_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Store, LoadResult]]:
    store = Store.open(tmp_path_factory.mktemp("stb") / "t.duckdb")
    result = load_stabletoolbench(store, shared_data / "stabletoolbench")
    yield store, result
    store.close()


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_every_group_has_its_counts(loaded: tuple[Store, LoadResult], group: str) -> None:
    store, _ = loaded
    n_queries, hist = GROUPS[group]
    assert (
        store.con.execute(
            "SELECT count(*) FROM queries WHERE task = ? AND category = ?", [group, group[:2]]
        ).fetchall()[0][0]
        == n_queries
    )
    rows = store.con.execute(
        "SELECT n, count(*) FROM (SELECT r.query_id, count(*) AS n FROM qrels r"
        " JOIN queries q USING (benchmark, query_id) WHERE q.task = ? GROUP BY 1) GROUP BY n",
        [group],
    ).fetchall()
    assert dict(rows) == hist


def test_library_is_the_union_of_api_lists(loaded: tuple[Store, LoadResult]) -> None:
    store, result = loaded
    assert result.items == 2479
    assert (result.queries, result.qrels) == (765, 1795)
    assert (
        store.con.execute(
            "SELECT count(*) FROM items"
            " WHERE item_id <> platform || '::' || name OR category IS NULL"
        ).fetchall()[0][0]
        == 0
    )
    # notes report what was merged: 12 conflicting api_list docs, 4 repeated relevant APIs
    assert result.notes[0].startswith("12 api_list entries repeat an API id")
    assert result.notes[1].startswith("4 repeated 'relevant APIs'")


def test_ids_and_label_order(loaded: tuple[Store, LoadResult], shared_data: Path) -> None:
    store, _ = loaded
    rec = json.loads((shared_data / "stabletoolbench/test_instruction/G1_tool.json").read_text())[0]
    qid = f"G1_tool:{rec['query_id']}"
    got = store.con.execute(
        "SELECT item_id FROM qrels WHERE query_id = ? ORDER BY slot", [qid]
    ).fetchall()
    assert [g[0] for g in got] == [f"{t}::{a}" for t, a in rec["relevant APIs"]]
    item = store.con.execute(
        "SELECT platform, category, text FROM items WHERE item_id = 'Simple YouTube Search::Search'"
    ).fetchall()[0]
    assert item[:2] == ("Simple YouTube Search", "Data")
    assert item[2].startswith(
        "name: Search\nplatform: Simple YouTube Search\ndescription: Make youtube search\n"
    )


def test_solvable_ids_filter_and_repeated_labels(tmp_path: Path) -> None:
    api = {"category_name": "Data", "tool_name": "T", "api_name": "a", "api_description": "d"}
    api_b = api | {"api_name": "b"}
    recs = [
        {
            "query_id": 1,
            "query": "q one",
            "api_list": [api, api_b],
            "relevant APIs": [["T", "b"], ["T", "a"], ["T", "b"]],
        },
        {
            "query_id": 2,
            "query": "q two",
            "api_list": [api | {"api_description": "other"}],
            "relevant APIs": [["T", "a"]],
        },
    ]
    (tmp_path / "test_instruction").mkdir()
    (tmp_path / "test_query_ids").mkdir()
    (tmp_path / "test_instruction/G2_tool.json").write_text(json.dumps(recs))
    (tmp_path / "test_query_ids/G2_tool.json").write_text(json.dumps({"1": 0}))
    bench = read_stabletoolbench(tmp_path)
    assert [q["query_id"] for q in bench.queries] == ["G2_tool:1"]
    assert [(r["item_id"], r["slot"]) for r in bench.qrels] == [("T::b", 0), ("T::a", 1)]
    assert bench.notes == ["1 repeated 'relevant APIs' entry dropped"]
    (tmp_path / "test_query_ids/G2_tool.json").unlink()
    bench = read_stabletoolbench(tmp_path)
    assert len(bench.queries) == 2
    assert bench.notes[0].startswith("1 api_list entry repeat")
