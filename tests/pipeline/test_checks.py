"""The pipeline's invariants in sql/checks hold on an expanded store and catch real breakage."""

from __future__ import annotations

from pipeline.fixtures import build
from pipeline.test_runner import expand
from toolex.checks import violations
from toolex.store import Store


def _expanded(store: Store) -> Store:
    build(store)
    expand(store)
    assert store.con.execute("SELECT count(*) FROM combinations WHERE combo_id > 0").fetchall()[0][
        0
    ]
    return store


def test_an_expanded_store_has_no_violation(store: Store) -> None:
    assert violations(_expanded(store)) == []


def test_a_combination_missing_a_slot_is_caught(store: Store) -> None:
    _expanded(store)
    query_id, combo_id = store.con.execute(
        "SELECT query_id, combo_id FROM combinations WHERE combo_id > 0 ORDER BY ALL LIMIT 1"
    ).fetchall()[0]
    store.con.execute(
        "DELETE FROM combination_items WHERE query_id = ? AND combo_id = ? AND slot = 0",
        [query_id, combo_id],
    )
    (bad,) = violations(store)
    assert bad.name == "pipeline_combination_shape"
    assert [(row[2], row[3]) for row in bad.rows] == [(query_id, combo_id)]


def test_a_rejected_reference_is_caught(store: Store) -> None:
    _expanded(store)
    query_id, slot, ref = store.con.execute(
        "SELECT query_id, slot, reference FROM subqueries ORDER BY ALL LIMIT 1"
    ).fetchall()[0]
    store.con.execute(
        "UPDATE verdicts SET accepted = false WHERE query_id = ? AND slot = ? AND item_id = ?",
        [query_id, slot, ref],
    )
    (bad,) = violations(store)
    assert bad.name == "pipeline_reference_passes"
    assert [(row[2], row[3], row[4]) for row in bad.rows] == [(query_id, slot, ref)]
