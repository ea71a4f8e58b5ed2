from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from loaders.conftest import DATA, store_state

from toolex.errors import InputError, ToolexError
from toolex.expansions.subqueries import import_subqueries
from toolex.loaders import load_toolret


@pytest.fixture
def mini(store):
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


def test_import_parquet_takes_ref_item_from_qrels(mini, tmp_path):
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
    assert mini.con.execute("SELECT count(*) FROM subqueries").fetchone()[0] == 3


def test_wrong_slot_count_names_the_query(mini, tmp_path):
    f = tmp_path / "s.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in ROWS[1:]))
    before = store_state(mini)
    with pytest.raises(
        InputError, match="query 'mini_query_0' has 1 sub-queries .* but 2 ground-truth tools"
    ) as exc:
        import_subqueries(mini, f, benchmark="toolret")
    assert (exc.value.record, exc.value.line) == ("mini_query_0", 1)
    assert store_state(mini) == before


def test_empty_text(mini, tmp_path):
    f = tmp_path / "s.jsonl"
    f.write_text(json.dumps(ROWS[2] | {"text": ""}))
    with pytest.raises(InputError, match="empty text") as exc:
        import_subqueries(mini, f, benchmark="toolret")
    assert exc.value.field == "text"
