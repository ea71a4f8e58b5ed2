"""Issue 25.1: a review label is stored the moment it is given, so no way of leaving the TUI
loses it: quitting by any key, or the process killed (SIGKILL). Tested as a reviewer meets it:
keys pressed in the real app (Pilot, and the installed `toolex tui` on a terminal), then
``review_labels`` (and, at the verdict level, ``labels``) read back from the file."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest
from toolex_tui.app import ToolexApp
from toolex_tui.screens.review import ReviewScreen

from toolex.review import draw_sample, draw_verdict_sample
from toolex.snapshot import snapshot_copy
from toolex.store import Store

from .terminal import Terminal

pytestmark = pytest.mark.anyio
SIZE = (80, 24)
COMBINATION = ("benchmark", "expansion", "query_id", "combo_id")
POLLS = 120  # reads of the store at most, each after the TUI drew something or a silent second


def _draw(db: Path) -> list[tuple[Any, ...]]:
    """A 3-item combination sample ``audit``; its items' keys in the order reviewers see."""
    with Store.open(db) as store:
        draw_sample(store, "audit", benchmark="stabletoolbench", size=3, seed=7)
        rows = store.rows("review/20_combination_items.sql", {"sample_id": "audit"})
    return [tuple(r[k] for k in COMBINATION) for r in rows]


def _labels(db: Path, table: str = "review_labels") -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """(item key, role) -> (label, bucket, note), read from the file by a new connection."""
    with Store.open(db, read_only=True) as store:
        if table == "review_labels":
            sql = (
                "SELECT benchmark, expansion, query_id, combo_id, role, label, bucket, note "
                "FROM review_labels"
            )
        else:
            sql = (
                "SELECT benchmark, expansion, query_id, slot, item_id, role, label, bucket, note "
                "FROM review_verdict_labels"
            )
        rows = store.con.execute(sql).fetchall()
    return {(tuple(r[:-4]), r[-4]): tuple(r[-3:]) for r in rows}


async def _session(
    db: Path, role: str, reviewer: str, keys: list[str], sample: str = "audit"
) -> tuple[bool, list[str]]:
    """Open the review in the real app on the store file, press ``keys``; the app and what it
    said (its notifications). The app is left as the keys left it: quit, or still running
    when the session ends (the window closed under it)."""
    store = Store.open(db)
    app = ToolexApp(store, review={"sample_id": sample, "role": role, "reviewer": reviewer})
    said: list[str] = []
    try:
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, ReviewScreen)
            shown = app.screen.notify

            def notify(message: str, **kw: object) -> None:
                said.append(message)
                shown(message, **kw)  # type: ignore[arg-type]

            app.screen.notify = notify  # type: ignore[method-assign]
            await pilot.press(*keys)
            running = app.is_running and not app._exit
    finally:
        store.close()
    return running, said


@pytest.mark.parametrize("quit_key", ["ctrl+q", "q", None], ids=["ctrl+q", "q", "closed"])
async def test_the_issues_keys_store_both_labels_however_the_tui_ends(
    db_copy: Path, quit_key: str | None
) -> None:
    """`i`, `2`, `n`, `v`, then ctrl+q (the issue's session, which stored nothing), q, or no
    key at all: both labels are in the file."""
    items = _draw(db_copy)
    keys = ["i", "2", "n", "v"] + ([quit_key] if quit_key else [])
    running, said = await _session(db_copy, "reviewer1", "ann", keys)
    assert running is (quit_key is None) and said == []
    assert _labels(db_copy) == {
        (items[0], "reviewer1"): ("invalid", "near_synonym", None),
        (items[1], "reviewer1"): ("valid", None, None),
    }


async def test_a_changed_label_and_a_typed_note_are_stored_as_given(db_copy: Path) -> None:
    """The last label given wins; a note is stored as it is typed (no enter, no ctrl+s)."""
    items = _draw(db_copy)
    keys = ["v", "i", "3", "e", *"too narrow", "ctrl+q"]
    running, _ = await _session(db_copy, "reviewer1", "ann", keys)
    assert not running
    assert _labels(db_copy) == {
        (items[0], "reviewer1"): ("invalid", "incomplete_coverage", "too narrow"),
    }


async def test_what_cannot_be_stored_yet_is_never_dropped_silently(db_copy: Path) -> None:
    """`i` without a bucket is not a label yet: moving on or quitting warns and stays; the
    same key again leaves it (nothing stored). A note typed before a label is stored with the
    label given next."""
    items = _draw(db_copy)
    running, said = await _session(db_copy, "reviewer1", "ann", ["i", "n", "ctrl+q"])
    assert running and len(said) == 2
    needs = "item 1 is not stored: its 'invalid' label needs a failure bucket (1-4)"
    assert all(needs in s for s in said)
    assert _labels(db_copy) == {}
    running, said = await _session(db_copy, "reviewer1", "ann", ["i", "ctrl+q", "ctrl+q"])
    assert not running and len(said) == 1 and "The same key again will quit" in said[0]
    assert _labels(db_copy) == {}
    keys = ["e", *"odd", "escape", "ctrl+q", "v", "ctrl+q"]
    running, said = await _session(db_copy, "reviewer1", "ann", keys)
    assert not running and len(said) == 1 and "a note is stored with a label" in said[0]
    assert _labels(db_copy) == {(items[0], "reviewer1"): ("valid", None, "odd")}


async def test_ctrl_s_still_moves_on_and_stores_nothing_twice(db_copy: Path) -> None:
    items = _draw(db_copy)
    running, said = await _session(db_copy, "reviewer1", "ann", ["ctrl+s", "v", "ctrl+s", "v"])
    assert running and said == ["choose a label first: v valid, i invalid"]
    assert _labels(db_copy) == {
        (items[0], "reviewer1"): ("valid", None, None),
        (items[1], "reviewer1"): ("valid", None, None),
    }


@pytest.mark.slow
async def test_verdict_labels_are_stored_and_published_as_given(db_copy: Path) -> None:
    """At the verdict level the final label (both reviewers agree) reaches ``labels`` in the
    same transaction as the second reviewer's label: no ctrl+s, quit by ctrl+q."""
    with Store.open(db_copy) as store:
        draw_verdict_sample(
            store, "vaudit", benchmark="stabletoolbench", size=6, seed=7, retriever="bm25"
        )
    keys = ["y", "right_square_bracket", "n", "3", "ctrl+q"]
    for role, who in (("reviewer1", "ann"), ("reviewer2", "bob")):
        running, said = await _session(db_copy, role, who, keys, sample="vaudit")
        assert not running and said == []
    stored = _labels(db_copy, "review_verdict_labels")
    assert sorted(v for v in stored.values()) == [
        ("no", "missing_input", None),
        ("no", "missing_input", None),
        ("yes", None, None),
        ("yes", None, None),
    ]
    with Store.open(db_copy, read_only=True) as store:
        published = store.con.execute(
            "SELECT label, labeller, note FROM labels WHERE source = 'vaudit' ORDER BY label"
        ).fetchall()
    assert published == [("no", "agreed", "missing_input"), ("yes", "agreed", None)]


def _stored_rows(db: Path, into: Path) -> int:
    """How many review labels the file holds now, read from a copy (the TUI holds the lock)."""
    copy = snapshot_copy(db, into)
    try:
        with Store.open(copy, read_only=True) as store:
            [(n,)] = store.con.execute("SELECT count(*) FROM review_labels").fetchall()
            return int(n)
    finally:
        for leftover in into.iterdir():
            leftover.unlink()


@pytest.mark.slow
def test_labels_survive_a_kill_9_of_the_tui(db_copy: Path, tmp_path: Path) -> None:
    """The installed `toolex tui --review` on a terminal: i 2 n v, then SIGKILL (no quit, no
    save, no chance to flush anything) once the store holds the second label."""
    items = _draw(db_copy)
    copies = tmp_path / "copies"
    copies.mkdir()
    args = ["tui", "--db", str(db_copy), "--review", "audit"]
    with Terminal(*args, "--role", "reviewer1", "--reviewer", "ann", size=SIZE) as term:
        term.wait_for_text("labelled 0/3")
        term.press("i", "2", "n", "v")
        for _ in range(POLLS):  # each poll after the screen changed, or a silent second
            if _stored_rows(db_copy, copies) == 2:
                break
            assert term.read(), term.after_exit
        else:
            raise AssertionError("the labels never reached the store")
        term.kill(signal.SIGKILL)
        assert term.wait_exit() == -signal.SIGKILL
    assert _labels(db_copy) == {
        (items[0], "reviewer1"): ("invalid", "near_synonym", None),
        (items[1], "reviewer1"): ("valid", None, None),
    }
