"""SVG snapshots of the verdict-level review screen at 80x24 (pytest-textual-snapshot): the
reviewer's and the adjudicator's view, the two documentations side by side. Refresh after a
deliberate visual change with `pytest tests/tui/test_review_snapshots.py --snapshot-update`."""

from __future__ import annotations

from toolex_tui.app import ToolexApp

from toolex.review import Label, draw_verdict_sample, items_for, save_label
from toolex.store import Store

from .conftest import SnapCompare


def _draw(store: Store) -> None:
    draw_verdict_sample(
        store, "vaudit", benchmark="stabletoolbench", size=6, seed=7, retriever="bm25"
    )


def test_verdict_reviewer(snap_compare: SnapCompare, rw_store: Store) -> None:
    _draw(rw_store)
    app = ToolexApp(
        rw_store, review={"sample_id": "vaudit", "role": "reviewer1", "reviewer": "ann"}
    )
    assert snap_compare(app, press=["n"], terminal_size=(80, 24))


def test_verdict_adjudicator(snap_compare: SnapCompare, rw_store: Store) -> None:
    _draw(rw_store)
    item = items_for(rw_store, "vaudit", "reviewer1")[0]
    save_label(rw_store, "vaudit", item, role="reviewer1", reviewer="ann", label=Label("yes"))
    save_label(
        rw_store,
        "vaudit",
        item,
        role="reviewer2",
        reviewer="bob",
        label=Label("no", "different_entity", "another channel"),
    )
    app = ToolexApp(
        rw_store, review={"sample_id": "vaudit", "role": "adjudicator", "reviewer": "cat"}
    )
    assert snap_compare(app, terminal_size=(80, 24))
