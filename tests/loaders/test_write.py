"""The one write path: idempotent reloads, refusal without --replace, atomic swaps, rollback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from duckdb import DuckDBPyConnection

from loaders.conftest import store_state
from toolex.errors import ToolexError
from toolex.loaders import load_toolret
from toolex.loaders.queries import StoredBenchmark, existing_benchmark
from toolex.sqlrunner import Params
from toolex.store import Store


@pytest.fixture
def mini(tmp_path: Path, data_dir: Path) -> Path:
    dst = tmp_path / "toolret"
    shutil.copytree(data_dir / "toolret_mini", dst)
    return dst


def test_same_content_twice_is_a_no_op(store: Store, mini: Path) -> None:
    first = load_toolret(store, mini)
    before = store_state(store)
    again = load_toolret(store, mini)
    assert (first.status, again.status) == ("loaded", "unchanged")
    assert again.revision == first.revision
    assert store_state(store) == before  # loaded_at untouched too


def test_different_content_needs_replace(store: Store, mini: Path) -> None:
    load_toolret(store, mini)
    tools = mini / "mini" / "tools.json"
    data = json.loads(tools.read_text())
    data[2]["documentation"]["description"] = "Translate text, now better."
    tools.write_text(json.dumps(data))
    before = store_state(store)
    with pytest.raises(ToolexError, match="--replace"):
        load_toolret(store, mini)
    assert store_state(store) == before
    result = load_toolret(store, mini, replace=True)
    assert result.status == "replaced"
    text = store.con.execute("SELECT text FROM items WHERE item_id = 'mini_tool_2'").fetchall()[0][
        0
    ]
    assert text == "name: Translate\ndescription: Translate text, now better."


def test_replace_deletes_dependent_rows_and_warns_about_runs(store: Store, mini: Path) -> None:
    load_toolret(store, mini)
    store.con.execute("INSERT INTO item_docs VALUES ('toolret', 'mini_tool_0', 'x', '{}', 't')")
    store.con.execute(
        "INSERT INTO runs (run_id, benchmark, level) VALUES ('r', 'toolret', 'query')"
    )
    queries = mini / "mini" / "queries.json"
    data = json.loads(queries.read_text())[:1]
    queries.write_text(json.dumps(data))
    result = load_toolret(store, mini, replace=True)
    assert store.con.execute("SELECT count(*) FROM item_docs").fetchall()[0][0] == 0
    assert store.con.execute("SELECT count(*) FROM queries").fetchall()[0][0] == 1
    assert store.con.execute("SELECT count(*) FROM qrels").fetchall()[0][0] == 2
    assert any("1 run(s)" in n for n in result.notes)


def test_failure_inside_the_transaction_rolls_back(
    store: Store, mini: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_toolret(store, mini)
    before = store_state(store)
    (mini / "mini" / "queries.json").write_text(
        (mini / "mini" / "queries.json").read_text().replace("Say hello", "Say hi")
    )
    real = Store.execute

    def failing(self: Store, name: str, params: Params | None = None) -> DuckDBPyConnection:
        if name == "load/23_insert_qrels.sql":  # after items and queries were deleted + inserted
            raise RuntimeError("disk full")
        return real(self, name, params)

    monkeypatch.setattr(Store, "execute", failing)
    with pytest.raises(RuntimeError, match="disk full"):
        load_toolret(store, mini, replace=True)
    assert store_state(store) == before


def test_loaded_rows(store: Store, mini: Path) -> None:
    load_toolret(store, mini)
    q = store.con.execute(
        "SELECT query_id, task, category, text, instruction FROM queries ORDER BY 1"
    ).fetchall()
    assert q[1] == (
        "mini_query_1",
        "mini",
        "web",
        "Say hello in French.",
        "Retrieve a translation tool.",
    )
    qrels = store.con.execute(
        "SELECT query_id, item_id, relevance, slot FROM qrels ORDER BY 1, 4"
    ).fetchall()
    assert qrels == [
        ("mini_query_0", "mini_tool_0", 1, 0),
        ("mini_query_0", "mini_tool_1", 1, 1),
        ("mini_query_1", "mini_tool_2", 2, 0),
    ]
    row = store.con.execute(
        "SELECT kind, name, platform, task, category, doc->>'$.name', text FROM items"
        " WHERE item_id = 'mini_tool_0'"
    ).fetchall()[0]
    assert row == (
        "tool",
        "GetWeather",
        None,
        "mini",
        "web",
        "GetWeather",
        "name: GetWeather\ndescription: Current weather for a city.\n"
        "parameters: city (str): City name.",
    )
    bench = store.con.execute("SELECT format, length(revision) FROM benchmarks").fetchall()[0]
    assert bench == ("toolret", 64)


def test_stored_benchmark_is_a_benchmarks_row(store: Store, mini: Path) -> None:
    """The record the writer reads back has the table's columns, in order (STYLE 6)."""
    columns = [row[0] for row in store.con.execute("DESCRIBE benchmarks").fetchall()]
    assert list(StoredBenchmark._fields) == columns
    assert existing_benchmark(store, "toolret") is None
    loaded = load_toolret(store, mini)
    stored = existing_benchmark(store, "toolret")
    assert stored is not None
    assert (stored.benchmark, stored.format, stored.revision) == (
        "toolret",
        "toolret",
        loaded.revision,
    )


def test_arrow_rows_equal_pyarrows_own_conversion() -> None:
    """arrow_rows lays strings and int32s into Arrow's buffers itself (pyarrow's conversion
    imports pandas): the table equals from_pylist's, across chunks, with nulls, missing keys
    and non-ASCII text; a value of the wrong type still raises pyarrow's error."""
    import pyarrow as pa
    import pytest

    from toolex.loaders.schemas import QREL_SCHEMA, QUERY_SCHEMA, arrow_rows

    rows = [
        {"query_id": f"q{i}", "task": None if i % 3 else "tâsk ✓", "text": "x" * (i % 5)}
        for i in range(10)
    ]
    got = arrow_rows(rows, QUERY_SCHEMA, chunk=4)
    want = pa.Table.from_batches(
        [pa.RecordBatch.from_pylist(rows[i : i + 4], schema=QUERY_SCHEMA) for i in (0, 4, 8)]
    )
    got.validate(full=True)
    assert got.equals(want) and got.num_rows == 10
    qrels = [{"query_id": "q", "item_id": "i", "relevance": r, "slot": None} for r in (1, -2, 0)]
    assert arrow_rows(qrels, QREL_SCHEMA).equals(pa.Table.from_pylist(qrels, schema=QREL_SCHEMA))
    for bad in (True, "1", 2**40):
        with pytest.raises((pa.ArrowInvalid, pa.ArrowTypeError)):
            arrow_rows([{**qrels[0], "relevance": bad}], QREL_SCHEMA)
    assert arrow_rows([], QREL_SCHEMA).schema == QREL_SCHEMA
