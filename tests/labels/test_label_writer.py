"""One label at a time through the labels table's one writer (what a verdict-level review
publishes): written, replaced under its key, removed."""

from __future__ import annotations

from typing import Any

from toolex.labels import Label, remove_label, replace_label, stored_labels
from toolex.store import Store


def _label(label: str = "yes", labeller: str = "agreed", note: str | None = None) -> Label:
    return Label(
        benchmark="b",
        query_id="q1",
        slot=0,
        subquery="find the weather",
        reference="r",
        candidate="c",
        label=label,
        labeller=labeller,
        note=note,
        source="v1",
        stratum={"sample": "v1", "part": "accepted", "rank": 2},
    )


def _stored(store: Store) -> list[tuple[str, str, str | None, dict[str, Any] | None]]:
    return [(x.label, x.labeller, x.note, x.stratum) for x in stored_labels(store, source="v1")]


def test_replace_then_remove_one_label(store: Store) -> None:
    with store.transaction():
        replace_label(store, _label())
    assert _stored(store) == [
        ("yes", "agreed", None, {"sample": "v1", "part": "accepted", "rank": 2})
    ]
    with store.transaction():
        replace_label(store, _label("no", "cat", "different_entity: C# not C"))
    assert [s[:3] for s in _stored(store)] == [("no", "cat", "different_entity: C# not C")]
    with store.transaction():
        remove_label(store, _label().key)
        remove_label(store, _label().key)  # nothing left: still fine
    assert _stored(store) == []
