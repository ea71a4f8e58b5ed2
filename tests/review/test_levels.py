"""The Level records mirror the DDL (toolex.review.levels). The protocol's SQL for both levels
(sql/review/24_role_labels.sql, 30_final_labels.sql) keys a label by every column of the level's
labels table but the label's own, and Python joins those rows to the sample's items by
``Level.key``: the two must name the same columns, or labels would silently attach to nothing."""

from __future__ import annotations

from typing import Any

import pytest

from toolex.review.levels import LEVELS
from toolex.store import Store

# the columns of a label itself, excluded from its key by the protocol's SQL
LABEL_OWN = ("role", "reviewer", "label", "bucket", "note", "labelled_at")


def _columns(store: Store, table: str) -> list[Any]:
    return [row[0] for row in store.con.execute(f"DESCRIBE {table}").fetchall()]


@pytest.mark.parametrize("name", sorted(LEVELS))
def test_a_labels_key_is_its_levels_key(store: Store, name: str) -> None:
    level = LEVELS[name]
    cols = _columns(store, level.tables.labels)
    assert tuple(c for c in cols if c not in LABEL_OWN) == ("sample_id", *level.key)
    assert set(LABEL_OWN) <= set(cols)


@pytest.mark.parametrize("name", sorted(LEVELS))
def test_a_samples_table_holds_the_key_and_the_position(store: Store, name: str) -> None:
    level = LEVELS[name]
    assert {"sample_id", "position", *level.key} <= set(_columns(store, level.tables.samples))
