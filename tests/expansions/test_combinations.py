from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from loaders.conftest import DATA, store_state

from toolex.errors import InputError, ToolexError
from toolex.expansions.combinations import import_combinations
from toolex.loaders import load_toolret
from toolex.store import Store


@pytest.fixture
def mini(store: Store) -> Store:
    load_toolret(store, DATA / "toolret_mini")
    return store


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in rows))
    return path


def _combos(store: Store) -> list[tuple[Any, ...]]:
    return store.con.execute(
        "SELECT c.query_id, c.combo_id, c.is_original, c.status, c.judge,"
        " list(ci.item_id ORDER BY ci.slot) FROM combinations c"
        " JOIN combination_items ci USING (benchmark, expansion, query_id, combo_id)"
        " GROUP BY ALL ORDER BY 1, 2"
    ).fetchall()


def test_import_adds_original_and_drops_repeats(mini: Store, tmp_path: Path) -> None:
    f = _write(
        tmp_path / "c.jsonl",
        [
            {"query_id": "mini_query_0", "combo_id": 1, "item_id": "mini_tool_2", "slot": 1},
            {"query_id": "mini_query_0", "combo_id": 1, "item_id": "mini_tool_0", "slot": 0},
            {"query_id": "mini_query_0", "combo_id": 2, "item_id": "mini_tool_1"},  # = the original
            {"query_id": "mini_query_0", "combo_id": 2, "item_id": "mini_tool_0"},
            {
                "query_id": "mini_query_1",
                "combo_id": 0,
                "item_id": "mini_tool_2",
            },  # the original, given
        ],
    )
    result = import_combinations(mini, f, benchmark="toolret", expansion="paper")
    assert (result.queries, result.combinations) == (2, 1)
    assert result.notes == [
        "dropped 1 combination(s) repeating the tool set of the original or of another one"
    ]
    assert _combos(mini) == [
        ("mini_query_0", 0, True, "valid", "import", ["mini_tool_0", "mini_tool_1"]),
        ("mini_query_0", 1, False, "valid", "import", ["mini_tool_0", "mini_tool_2"]),
        ("mini_query_1", 0, True, "valid", "import", ["mini_tool_2"]),
    ]
    assert mini.con.execute("SELECT expansion FROM expansions").fetchall() == [("paper",)]
    with pytest.raises(ToolexError, match="--replace"):
        import_combinations(mini, f, benchmark="toolret", expansion="paper")
    import_combinations(mini, f, benchmark="toolret", expansion="paper", replace=True)
    assert len(_combos(mini)) == 3


def test_a_swap_across_graded_slots_is_another_tool_set(mini: Store, tmp_path: Path) -> None:
    """Issue 35.3: combo 2 swaps the original's two tools; with its slots graded alike it is the
    original's tool set (dropped above), graded 2 and 1 it scores otherwise, and is kept."""
    mini.con.execute("UPDATE qrels SET relevance = 2 WHERE query_id = 'mini_query_0' AND slot = 0")
    f = _write(
        tmp_path / "c.jsonl",
        [
            {"query_id": "mini_query_0", "combo_id": 2, "item_id": "mini_tool_1"},
            {"query_id": "mini_query_0", "combo_id": 2, "item_id": "mini_tool_0"},
        ],
    )
    result = import_combinations(mini, f, benchmark="toolret", expansion="paper")
    assert (result.combinations, result.notes) == (1, [])
    assert mini.rows("checks/pipeline_combinations_distinct.sql") == []


@pytest.mark.parametrize(
    ("row", "field", "message"),
    [
        (
            {"query_id": "nope", "combo_id": 1, "item_id": "mini_tool_0"},
            "query_id",
            "not in benchmark",
        ),
        (
            {"query_id": "mini_query_1", "combo_id": 1, "item_id": "nope"},
            "item_id",
            "not in benchmark",
        ),
        (
            {"query_id": "mini_query_1", "combo_id": 0, "item_id": "mini_tool_0"},
            "combo_id",
            "reserved",
        ),
        ({"query_id": "mini_query_1", "item_id": "mini_tool_0"}, "combo_id", "missing"),
    ],
)
def test_bad_rows_name_line_and_field(
    mini: Store, tmp_path: Path, row: dict[str, object], field: str, message: str
) -> None:
    f = _write(
        tmp_path / "c.jsonl",
        [{"query_id": "mini_query_1", "combo_id": 1, "item_id": "mini_tool_0"}, row],
    )
    before = store_state(mini)
    with pytest.raises(InputError, match=message) as exc:
        import_combinations(mini, f, benchmark="toolret")
    assert (exc.value.line, exc.value.field) == (2, field)
    assert store_state(mini) == before


def test_edges_and_a_tool_serving_two_steps_import(mini: Store, tmp_path: Path) -> None:
    f = _write(
        tmp_path / "c.jsonl",
        [
            {"query_id": "mini_query_0", "combo_id": 1, "item_id": "mini_tool_2", "slot": 0},
            # one tool serving both steps is a plan, as the pipeline assembles it
            {
                "query_id": "mini_query_0",
                "combo_id": 1,
                "item_id": "mini_tool_2",
                "slot": 1,
                "dependencies": [{"from": "mini_tool_0", "to": 1, "value": "session_id"}],
            },
        ],
    )
    result = import_combinations(mini, f, benchmark="toolret", expansion="paper")
    assert (result.combinations, result.edges) == (1, 1)
    assert "1 dependency edge(s)" in result.summary()
    assert ("mini_query_0", 1, False, "valid", "import", ["mini_tool_2", "mini_tool_2"]) in (
        _combos(mini)
    )
    assert mini.con.execute(
        "SELECT query_id, producer_slot, consumer_slot, value, source FROM dependency_edges"
    ).fetchall() == [("mini_query_0", 0, 1, "session_id", "imported")]


def test_an_edge_naming_no_slot_is_refused_with_its_line(mini: Store, tmp_path: Path) -> None:
    f = _write(
        tmp_path / "c.jsonl",
        [
            {"query_id": "mini_query_0", "combo_id": 1, "item_id": "mini_tool_2"},
            {
                "query_id": "mini_query_0",
                "combo_id": 1,
                "item_id": "mini_tool_1",
                "dependencies": [{"from": 0, "to": 7}],
            },
        ],
    )
    before = store_state(mini)
    with pytest.raises(InputError, match="neither a slot nor an item") as exc:
        import_combinations(mini, f, benchmark="toolret")
    assert (exc.value.line, exc.value.field) == (2, "dependencies")
    assert store_state(mini) == before
