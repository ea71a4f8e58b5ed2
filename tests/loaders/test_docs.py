from __future__ import annotations

import json
from pathlib import Path

import pytest

from loaders.conftest import store_state
from toolex.errors import InputError, NotFoundError, ToolexError
from toolex.loaders import load_docs, load_toolret
from toolex.store import Store


def test_real_augmented_apibank_docs(store: Store, shared_data: Path) -> None:
    load_toolret(store, shared_data / "toolret", tasks=["apibank"])
    f = shared_data / "toolret/augmented_tools_apibank/gpt-4o-mini_tools.json"
    assert load_docs(store, f, benchmark="toolret", rendering="gpt-4o-mini").items == 101
    assert load_docs(store, f, benchmark="toolret", rendering="gpt-4o-mini").status == "unchanged"
    text = store.con.execute(
        "SELECT text FROM item_docs WHERE item_id = 'apibank_tool_0' AND rendering = 'gpt-4o-mini'"
    ).fetchall()[0][0]
    assert text.startswith(
        "name: GetUserToken\ndescription: Authenticate a user by verifying their username"
        " and password"
    )


def test_unknown_id_is_an_error_naming_the_record(
    store: Store, data_dir: Path, tmp_path: Path
) -> None:
    load_toolret(store, data_dir / "toolret_mini")
    f = tmp_path / "aug.json"
    f.write_text(
        json.dumps(
            [
                {"id": "mini_tool_0", "augmented": {"description": "x"}},
                {"id": "mini_tool_9", "augmented": {"description": "y"}},
            ],
            indent=1,
        )
    )
    before = store_state(store)
    with pytest.raises(InputError) as exc:
        load_docs(store, f, benchmark="toolret", rendering="exp")
    assert (exc.value.record, exc.value.field, exc.value.line) == ("mini_tool_9", "id", 8)
    assert store_state(store) == before


def test_different_docs_need_replace(store: Store, data_dir: Path, tmp_path: Path) -> None:
    load_toolret(store, data_dir / "toolret_mini")
    f = tmp_path / "aug.jsonl"
    f.write_text(json.dumps({"id": "mini_tool_1", "augmented": {"description": "adds"}}))
    load_docs(store, f, benchmark="toolret", rendering="exp")
    f.write_text(json.dumps({"id": "mini_tool_1", "augmented": {"description": "sums"}}))
    with pytest.raises(ToolexError, match="--replace"):
        load_docs(store, f, benchmark="toolret", rendering="exp")
    assert (
        load_docs(store, f, benchmark="toolret", rendering="exp", replace=True).status == "replaced"
    )
    assert store.con.execute("SELECT text FROM item_docs").fetchall() == [
        ("name: Calculator\ndescription: sums",)
    ]


def test_unknown_benchmark_is_a_not_found_error(
    store: Store, data_dir: Path, tmp_path: Path
) -> None:
    load_toolret(store, data_dir / "toolret_mini")
    f = tmp_path / "aug.jsonl"
    f.write_text(json.dumps({"id": "mini_tool_1", "augmented": {"description": "adds"}}))
    before = store_state(store)
    with pytest.raises(
        NotFoundError, match="no benchmark named 'toolrett'.*did you mean 'toolret'"
    ):
        load_docs(store, f, benchmark="toolrett", rendering="exp")
    assert store_state(store) == before
