from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from loaders.conftest import DATA, store_state

from toolex.errors import InputError, ToolexError
from toolex.expansions.subqueries import import_subqueries
from toolex.loaders import load_toolret
from toolex.store import Store


@pytest.fixture
def mini(store: Store) -> Store:
    load_toolret(store, DATA / "toolret_mini")
    return store


ROWS = [
    {
        "query_id": "mini_query_0",
        "slot": 1,
        "text": "compute 3*7",
        "operation": "calculate",
        "entity": "3*7",
    },
    {"query_id": "mini_query_0", "slot": 0, "text": "weather in Rome"},
    {"query_id": "mini_query_1", "slot": 0, "text": "translate hello to French"},
]


def test_import_parquet_takes_ref_item_from_qrels(mini: Store, tmp_path: Path) -> None:
    f = tmp_path / "s.parquet"
    pq.write_table(pa.Table.from_pylist(ROWS), f)
    result = import_subqueries(mini, f, benchmark="toolret")
    assert (result.queries, result.subqueries) == (2, 3)
    got = mini.con.execute(
        "SELECT expansion, query_id, slot, text, operation, reference, judge FROM subqueries"
        " ORDER BY 2, 3"
    ).fetchall()
    assert got == [
        ("default", "mini_query_0", 0, "weather in Rome", None, "mini_tool_0", "import"),
        ("default", "mini_query_0", 1, "compute 3*7", "calculate", "mini_tool_1", "import"),
        ("default", "mini_query_1", 0, "translate hello to French", None, "mini_tool_2", "import"),
    ]
    with pytest.raises(ToolexError, match="--replace"):
        import_subqueries(mini, f, benchmark="toolret")
    import_subqueries(mini, f, benchmark="toolret", replace=True)
    assert mini.con.execute("SELECT count(*) FROM subqueries").fetchall()[0][0] == 3


def test_wrong_slot_count_names_the_query(mini: Store, tmp_path: Path) -> None:
    f = tmp_path / "s.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in ROWS[1:]))
    before = store_state(mini)
    with pytest.raises(
        InputError, match="query 'mini_query_0' has 1 sub-queries .* but 2 ground-truth tools"
    ) as exc:
        import_subqueries(mini, f, benchmark="toolret")
    assert (exc.value.record, exc.value.line) == ("mini_query_0", 1)
    assert store_state(mini) == before


def test_empty_text(mini: Store, tmp_path: Path) -> None:
    f = tmp_path / "s.jsonl"
    f.write_text(json.dumps(ROWS[2] | {"text": ""}))
    with pytest.raises(InputError, match="empty text") as exc:
        import_subqueries(mini, f, benchmark="toolret")
    assert exc.value.field == "text"


REFERENCES = {("mini_query_0", 0): "mini_tool_0", ("mini_query_0", 1): "mini_tool_1",
              ("mini_query_1", 0): "mini_tool_2"}  # fmt: skip


def _with(field: str, rows: list[dict[str, Any]] = ROWS) -> list[dict[str, Any]]:
    return [{**r, field: REFERENCES[(r["query_id"], r["slot"])]} for r in rows]


def test_a_file_s_reference_is_read_and_must_be_the_slot_s_tool(
    mini: Store, tmp_path: Path
) -> None:
    """A dump of the subqueries table (it has `reference`) imports again; a reference that is
    not the slot's ground-truth tool is refused at its line, nothing written."""
    f = tmp_path / "s.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in _with("reference")))
    result = import_subqueries(mini, f, benchmark="toolret")
    assert (result.subqueries, result.notes) == (3, [])
    got = mini.con.execute("SELECT query_id, slot, reference FROM subqueries ORDER BY 1, 2")
    assert {(q, s): r for q, s, r in got.fetchall()} == REFERENCES
    wrong = _with("reference")
    wrong[2]["reference"] = "mini_tool_0"
    f.write_text("\n".join(json.dumps(r) for r in wrong))
    before = store_state(mini)
    with pytest.raises(InputError) as exc:
        import_subqueries(mini, f, benchmark="toolret", expansion="other")
    assert (exc.value.line, exc.value.field) == (3, "reference")
    assert "'mini_tool_0' is not the ground-truth tool of slot 0 ('mini_tool_2')" in str(exc.value)
    assert store_state(mini) == before


def test_the_old_name_ref_item_id_is_read_as_reference_with_a_note(
    mini: Store, tmp_path: Path
) -> None:
    """A file written before schema 072 calls the field ref_item_id: read, checked, noted once."""
    f = tmp_path / "s.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in _with("ref_item_id")))
    result = import_subqueries(mini, f, benchmark="toolret")
    assert result.notes == [
        "3 row(s) give the reference as 'ref_item_id', its name before schema 072; "
        "read as 'reference'"
    ]
    got = mini.con.execute("SELECT query_id, slot, reference FROM subqueries ORDER BY 1, 2")
    assert {(q, s): r for q, s, r in got.fetchall()} == REFERENCES
    wrong = _with("ref_item_id")
    wrong[0]["ref_item_id"] = "mini_tool_0"  # slot 1's tool is mini_tool_1
    f.write_text("\n".join(json.dumps(r) for r in wrong))
    with pytest.raises(InputError, match="not the ground-truth tool of slot 1") as exc:
        import_subqueries(mini, f, benchmark="toolret", replace=True)
    assert (exc.value.line, exc.value.field) == (1, "ref_item_id")
