"""SVG snapshots of the main screens at 80x24 (pytest-textual-snapshot). Refresh after a
deliberate visual change with `pytest tests/tui/test_snapshots.py --snapshot-update` and review
the SVGs in the diff."""

from __future__ import annotations

from toolex_tui.app import ToolexApp
from toolex_tui.data import QueryFilter

from toolex.review import draw_sample, save_label
from toolex.review.labels import Label, items_for
from toolex.store import Store

from .conftest import SnapCompare


def test_query_list(snap_compare: SnapCompare, ro_store: Store) -> None:
    assert snap_compare(ToolexApp(ro_store), terminal_size=(80, 24))


def test_query_list_filtered_with_scores(snap_compare: SnapCompare, ro_store: Store) -> None:
    app = ToolexApp(ro_store, initial_filter=QueryFilter(score_run="swap", beats=True))
    assert snap_compare(app, press=["S"], terminal_size=(80, 24))


def test_filter_dialog(snap_compare: SnapCompare, ro_store: Store) -> None:
    assert snap_compare(ToolexApp(ro_store), press=["f"], terminal_size=(80, 24))


def test_query_detail(snap_compare: SnapCompare, ro_store: Store) -> None:
    # G1_instruction:1073: an accepted equivalent, two valid combinations
    assert snap_compare(ToolexApp(ro_store), press=["enter"], terminal_size=(80, 24))


def test_tool_detail(snap_compare: SnapCompare, ro_store: Store) -> None:
    assert snap_compare(ToolexApp(ro_store), press=["enter", "enter"], terminal_size=(80, 24))


def test_help(snap_compare: SnapCompare, ro_store: Store) -> None:
    assert snap_compare(ToolexApp(ro_store), press=["question_mark"], terminal_size=(80, 24))


def test_review_adjudicator(snap_compare: SnapCompare, rw_store: Store) -> None:
    draw_sample(rw_store, "audit", benchmark="stabletoolbench", size=3, seed=7)
    item = next(
        i
        for i in items_for(rw_store, "audit", "reviewer1")
        if i.item.query_id == "G2_instruction:1643"
    )
    save_label(rw_store, "audit", item, role="reviewer1", reviewer="ann", label=Label("valid"))
    save_label(
        rw_store,
        "audit",
        item,
        role="reviewer2",
        reviewer="bob",
        label=Label("invalid", "incomplete_coverage", "the length is not covered"),
    )
    app = ToolexApp(
        rw_store, review={"sample_id": "audit", "role": "adjudicator", "reviewer": "cat"}
    )
    assert snap_compare(app, press=["i", "3"], terminal_size=(80, 24))


def test_toolret_query_list(snap_compare: SnapCompare, toolret_store: Store) -> None:
    """Issue 25.9: ids in natural order (apibank_query_2 before _10), "] Next page"."""
    assert snap_compare(ToolexApp(toolret_store), terminal_size=(80, 24))


def test_toolret_query_detail(snap_compare: SnapCompare, toolret_store: Store) -> None:
    """Issue 25.9: each tool's name beside its opaque id, a usable reason column, whole run
    names; nothing past the right edge."""
    app = ToolexApp(toolret_store)
    assert snap_compare(app, press=["enter", "tab", "tab", "tab"], terminal_size=(80, 24))


def test_a_segment_without_text_does_not_change_a_snapshot() -> None:
    """Issue 34: test_query_detail failed under load on <rect width="0"> alone (a segment of no
    text, drawn or not depending on how often the page was drawn); a cell that paints stays."""
    import pytest_textual_snapshot

    row = '<rect fill="#1e1e1e" x="0" y="1" width="24.4" height="24.65"/>'
    empty = '<rect fill="#2d3740" x="939.4" y="196.7" width="0" height="24.65"/>'
    painted = '<rect fill="#2d3740" x="939.4" y="196.7" width="12.2" height="24.65"/>'
    normalize = pytest_textual_snapshot.normalize_svg
    assert normalize(f"<svg>{row}{empty}</svg>") == normalize(f"<svg>{row}</svg>")
    assert normalize(f"<svg>{row}{painted}</svg>") != normalize(f"<svg>{row}</svg>")
