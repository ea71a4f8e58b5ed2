"""ToolRet: every shared task loads with the README's counts; the Hugging Face layout too."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from toolex.errors import InputError
from toolex.loaders import load_toolret
from toolex.loaders.result import LoadResult
from toolex.loaders.toolret import TASK_CATEGORY, read_toolret
from toolex.store import Store

# From ../shared/data/README.md: queries, tools, labels per query (count of queries).
README = {
    "apibank": ("web", 101, 101, {1: 48, 2: 38, 3: 12, 4: 3}),
    "apigen": ("web", 1000, 3605, {1: 712, 2: 257, 3: 24, 4: 7}),
    "gorilla-huggingface": ("code", 500, 907, {1: 500}),
    "toolink": ("code", 497, 1804, {1: 149, 2: 186, 3: 148, 4: 13, 5: 1}),
}


@pytest.fixture(scope="module")
def loaded(
    shared_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Store, LoadResult]]:
    store = Store.open(tmp_path_factory.mktemp("toolret") / "t.duckdb")
    result = load_toolret(store, shared_data / "toolret")
    yield store, result
    store.close()


def test_task_map_is_toolrets_35_tasks() -> None:
    assert len(TASK_CATEGORY) == 35
    counts = {
        c: sum(1 for v in TASK_CATEGORY.values() if v == c) for c in ("code", "web", "customized")
    }
    assert counts == {"code": 7, "web": 19, "customized": 9}


@pytest.mark.parametrize("task", sorted(README))
def test_every_task_has_the_readme_counts(loaded: tuple[Store, LoadResult], task: str) -> None:
    store, _ = loaded
    category, n_queries, n_tools, hist = README[task]
    assert (
        store.con.execute(
            "SELECT count(*) FROM queries WHERE task = ? AND category = ?", [task, category]
        ).fetchall()[0][0]
        == n_queries
    )
    assert (
        store.con.execute(
            "SELECT count(*) FROM items WHERE task = ? AND category = ? AND kind = 'tool'",
            [task, category],
        ).fetchall()[0][0]
        == n_tools
    )
    rows = store.con.execute(
        "SELECT n, count(*) FROM (SELECT q.query_id, count(*) AS n FROM qrels r"
        " JOIN queries q USING (benchmark, query_id) WHERE q.task = ? GROUP BY 1) GROUP BY n",
        [task],
    ).fetchall()
    assert dict(rows) == hist


def test_totals_and_slots(loaded: tuple[Store, LoadResult]) -> None:
    store, result = loaded
    assert (result.items, result.queries, result.qrels) == (6417, 2098, 3020)
    # slots are 0..k-1 in label order for every query
    bad = store.con.execute(
        "SELECT query_id FROM qrels GROUP BY query_id"
        " HAVING max(slot) <> count(*) - 1 OR min(slot) <> 0"
    ).fetchall()
    assert bad == []
    first = store.con.execute(
        "SELECT item_id FROM qrels WHERE query_id = 'apibank_query_0' ORDER BY slot"
    ).fetchall()
    assert first == [("apibank_tool_33",), ("apibank_tool_53",)]
    instr = store.con.execute("SELECT count(*) FROM queries WHERE instruction IS NULL").fetchall()[
        0
    ][0]
    assert instr == 0


def test_one_task_and_unknown_task(shared_data: Path, store: Store) -> None:
    result = load_toolret(store, shared_data / "toolret", tasks=["apibank"])
    assert (result.items, result.queries, result.qrels) == (101, 101, 172)
    with pytest.raises(InputError, match="no task folder for \\['nope'\\]"):
        read_toolret(shared_data / "toolret", tasks=["nope"])


def _write_hub_layout(root: Path, data_dir: Path) -> None:
    """The mini task as Hugging Face Parquet configs: labels and documentation as JSON strings."""
    queries = json.loads((data_dir / "toolret_mini/mini/queries.json").read_text())
    tools = json.loads((data_dir / "toolret_mini/mini/tools.json").read_text())
    qdir = root / "ToolRet-Queries" / "mini"
    qdir.mkdir(parents=True)
    pq.write_table(
        pa.table(
            {
                "id": [q["id"] for q in queries],
                "query": [q["query"] for q in queries],
                "instruction": [q["instruction"] for q in queries],
                "labels": [json.dumps(q["labels"]) for q in queries],
            }
        ),
        qdir / "queries-00000-of-00001.parquet",
    )
    tdir = root / "ToolRet-Tools" / "web"
    tdir.mkdir(parents=True)
    other = {"id": "other_tool_0", "documentation": json.dumps({"name": "Other"})}
    pq.write_table(
        pa.Table.from_pylist(
            [{"id": t["id"], "documentation": json.dumps(t["documentation"])} for t in tools]
            + [other]
        ),
        tdir / "tools-00000-of-00001.parquet",
    )


def test_hugging_face_layout_matches_the_json_layout(tmp_path: Path, data_dir: Path) -> None:
    _write_hub_layout(tmp_path, data_dir)
    hub = read_toolret(tmp_path)
    ref = read_toolret(data_dir / "toolret_mini")
    assert [i["item_id"] for i in hub.items] == ["mini_tool_0", "mini_tool_1", "mini_tool_2"]
    # 'mini' is no ToolRet task, so its category comes from the tools config folder ('web')
    assert [i["category"] for i in hub.items] == ["web"] * 3
    assert hub.items == ref.items
    assert hub.queries == ref.queries  # category 'web' from the tools config, not the file
    assert hub.qrels == ref.qrels


def test_separate_snapshots_via_tools(tmp_path: Path, data_dir: Path) -> None:
    _write_hub_layout(tmp_path, data_dir)
    bench = read_toolret(tmp_path / "ToolRet-Queries", tools=tmp_path / "ToolRet-Tools")
    assert [i["item_id"] for i in bench.items] == ["mini_tool_0", "mini_tool_1", "mini_tool_2"]
    assert len(bench.qrels) == 3
