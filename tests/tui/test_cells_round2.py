"""Issue 35.19 and 37.4/5 in the TUI: cells are clipped by terminal cells, not characters (an
emoji or a CJK letter takes two), with "…" when cut, so a name never loses its last letter
silently and two names never render as one; text from data is never markup and shows its
control and bidi characters as escapes."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.widgets import DataTable
from toolex_tui.app import ToolexApp
from toolex_tui.components.cells import clip, clip_id, escaped, item_label
from toolex_tui.components.widths import Column

from toolex.loaders import load_plain
from toolex.store import Store

pytestmark = pytest.mark.anyio
NAMES = ["🛒 Get Products", "🛒 Get Product", "商品を取得する", "商品を取得", "Get Products"]


@pytest.mark.parametrize("width", range(3, 17))
def test_a_clipped_cell_fits_its_cells_and_says_it_was_cut(width: int) -> None:
    for name in NAMES:
        shown = clip(name, width)
        assert cell_len(shown) <= width, (name, width, shown)
        assert shown == name or shown.endswith("…"), (name, width, shown)
        assert cell_len(clip_id(name, width)) <= width
        assert cell_len(item_label("id", name, width)) <= width
    # two names never show alike: either both whole and different, or one says it was cut
    for a, b in combinations(NAMES, 2):
        assert clip(a, width) != clip(b, width) or clip(a, width).endswith("…"), (a, b, width)


def test_the_old_character_count_lost_the_last_letter() -> None:
    """The name '🛒 Get Products' is 14 characters and 15 cells: at 14 it was returned whole
    (by characters it fit) and the table cut its "s"; now it says so."""
    assert clip("🛒 Get Products", 14) == "🛒 Get Produc…"  # 13 cells and the "…"
    assert clip("🛒 Get Products", 15) == "🛒 Get Products"
    assert Column.of("name", ["🛒 Get Products"]).natural == 15


def test_unshown_characters_are_escaped_in_cells_and_markup() -> None:
    assert clip("evil\u202etxt.exe", 30) == "evil\\u202etxt.exe"
    assert clip("a\x1b[2Jb", 30) == "a\\x1b[2Jb"
    assert escaped("[/INST] a\u202eb\nline") == "\\[/INST] a\\u202eb\nline"


def _jsonl(path: Path, rows: Sequence[Mapping[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    return path


@pytest.fixture
def hostile_store(tmp_path: Path) -> Iterator[Store]:
    items = [
        {"id": "shop::products", "name": "🛒 Get Products", "text": "[/INST] List products."},
        {"id": "shop::product", "name": "🛒 Get Product", "text": "tool[v2] One [bold] product."},
        {"id": "evil", "name": "evil\u202etxt.exe", "text": "Clears \x1b[2J the screen."},
    ]
    queries = [
        {
            "id": "q1",
            "text": "[/INST] find products [/x] \x1b[31mred\u202e",
            "category": "[/cat]",
            "task": "tool[v2]",
            "labels": ["shop::products", "shop::product", "evil"],
        }
    ]
    path = tmp_path / "h.duckdb"
    with Store.open(path) as store:
        load_plain(
            store,
            _jsonl(tmp_path / "items.jsonl", items),
            _jsonl(tmp_path / "queries.jsonl", queries),
            name="[/x]",
        )
    store = Store.open(path, read_only=True)
    yield store
    store.close()


def _rows(table: DataTable[Any]) -> list[list[str]]:
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def test_the_tui_shows_hostile_data_as_itself_at_80x24(hostile_store: Store) -> None:
    app = ToolexApp(hostile_store)
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.screen.query_one("#queries", DataTable)
        text = " ".join(" ".join(r) for r in _rows(table))
        assert "[/INST] find products [/x] \\x1b[3" in text  # clipped to the column
        await pilot.press("enter")  # the query's page: its ground-truth tools
        slots = app.screen.query_one("#q-slots", DataTable)
        widths = [c.width for c in slots.columns.values()]
        rows = _rows(slots)
        for row in rows:
            for value, width in zip(row, widths, strict=True):
                assert cell_len(value) <= width, (value, width)
        tools = [r[1] for r in rows]
        assert len(set(tools)) == 3  # "Get Products" and "Get Product" stay two
        assert any("evil\\u202etxt.exe" in t or t.endswith("…") for t in tools)
        header = str(app.screen.query_one("#q-header").render())
        assert "[/INST] find products [/x] \\x1b[31mred\\u202e" in header


async def test_the_filter_dialog_shows_hostile_facets_as_themselves(hostile_store: Store) -> None:
    from textual.widgets import Select, Static
    from toolex_tui.screens.filters import FilterScreen

    app = ToolexApp(hostile_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f")  # the categories and tasks of the data, as Select options
        assert isinstance(app.screen, FilterScreen)
        app.screen.query_one("#f-category", Select).value = "[/cat]"
        app.screen.query_one("#f-task", Select).value = "tool[v2]"
        await pilot.press("ctrl+s")
        status = str(app.screen.query_one("#list-status", Static).render())
        assert "task=tool[v2], category=[/cat]" in status and "1 of 1 queries" in status
