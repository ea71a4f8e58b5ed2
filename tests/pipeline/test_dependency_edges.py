"""Explicit producer->consumer edges: loaded with the plain schema, checked at assembly (platform,
and whether a replacement documents the value handed over), put on the audit's checklist, and
reported per query; what cannot be checked is said, never passed silently."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from toolex.errors import InputError
from toolex.loaders import load_plain
from toolex.loaders.result import LoadResult
from toolex.pipeline import assemble, audit
from toolex.pipeline.stage import StageContext
from toolex.pipeline.stats import edges_per_query, notes
from toolex.store import Store

RETURNS_TOKEN = {"template_response": {"token": "str"}}
ITEMS = [
    # slot 0 (log in) and its candidates
    {"id": "a::login", "platform": "A", "doc": {"name": "login", **RETURNS_TOKEN}},
    {"id": "b::login", "platform": "B", "doc": {"name": "sign in", **RETURNS_TOKEN}},
    {"id": "x::login", "doc": {"name": "log on", **RETURNS_TOKEN}},  # no platform known
    {
        "id": "a::session",
        "platform": "A",
        "doc": {"name": "open session", "template_response": {"session": "str"}},
    },
    {"id": "a::signin", "platform": "A", "doc": {"name": "authenticate", **RETURNS_TOKEN}},
    # slot 1 (balance), which takes the token
    {
        "id": "a::balance",
        "platform": "A",
        "doc": {"name": "balance", "required_parameters": [{"name": "token"}]},
    },
]
QUERIES = [
    {
        "id": "q",
        "text": "log in and show my balance",
        "dependencies": [{"from": "a::login", "to": 1, "value": "token"}],
    },
]
QRELS = [{"query_id": "q", "item_id": "a::login"}, {"query_id": "q", "item_id": "a::balance"}]


def write(tmp_path: Path, name: str, rows: Sequence[Mapping[str, object]]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return path


def load(
    store: Store, tmp_path: Path, queries: list[dict[str, Sequence[Collection[str]]]] = QUERIES
) -> LoadResult:
    return load_plain(
        store,
        write(tmp_path, "items.jsonl", ITEMS),
        write(tmp_path, "queries.jsonl", queries),
        write(tmp_path, "qrels.jsonl", QRELS),
        name="b",
    )


def accept(store: Store, query_id: str, slot: int, ref: str, items: list[str]) -> None:
    """Stage 1-2 outcomes by hand: sub-query ``slot`` accepts ``items`` (its reference first)."""
    store.con.execute(
        "INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, reference) "
        "VALUES ('b', 'default', ?, ?, ?, ?)",
        [query_id, slot, f"step {slot}", ref],
    )
    for rank, item in enumerate([ref, *items], start=1):
        store.con.execute(
            "INSERT INTO candidates VALUES ('b', 'default', ?, ?, ?, ?, 1.0, 'x')",
            [query_id, slot, item, rank],
        )
        store.con.execute(
            "INSERT INTO verdicts VALUES ('b', 'default', ?, ?, ?, true, NULL, 'j', NULL, NULL)",
            [query_id, slot, item],
        )


def fates(store: Store) -> dict[Any, tuple[Any, Any, Any]]:
    rows = store.con.execute(
        "SELECT list(ci.item_id ORDER BY ci.slot), c.status, c.dependency_check, c.reason "
        "FROM combinations c JOIN combination_items ci USING (benchmark, expansion, query_id, "
        "combo_id) GROUP BY c.combo_id, c.status, c.dependency_check, c.reason"
    ).fetchall()
    return {items[0]: (status, check, reason) for items, status, check, reason in rows}


@pytest.fixture
def assembled(store: Store, tmp_path: Path) -> LoadResult:
    result = load(store, tmp_path)
    accept(store, "q", 0, "a::login", ["b::login", "x::login", "a::session", "a::signin"])
    accept(store, "q", 1, "a::balance", [])
    assemble.run(StageContext(store, "b", "default", ["q"]))
    return result


def test_the_plain_schema_loads_edges_by_slot_or_item(store: Store, assembled: LoadResult) -> None:
    assert "dependency edges: 1 loaded, in 1 queries" in assembled.summary()
    edges = store.con.execute(
        "SELECT query_id, producer_slot, consumer_slot, value, source FROM dependency_edges"
    ).fetchall()
    assert edges == [("q", 0, 1, "token", "loaded")]


def test_each_replacement_is_checked_against_the_edge(store: Store, assembled: LoadResult) -> None:
    got = fates(store)
    assert got["a::login"][:2] == ("valid", "passed")  # the original
    assert got["a::signin"][:2] == ("pending", "passed")  # same platform, returns the token
    # b::login is on platform B, a::session documents no token: both rejected before any
    # audit call, counted (schema 066), never stored
    assert "b::login" not in got and "a::session" not in got
    assert store.con.execute(
        "SELECT product, stored, rejected_platform, unstored FROM combination_products"
    ).fetchall() == [(5, 3, 2, 0)]
    # no platform known for x: the check could not run, and says so instead of passing
    assert got["x::login"][:2] == ("pending", "unknown")
    dep = store.con.execute(
        "SELECT slot_a, slot_b, source, producer_slot, value FROM dependencies"
    ).fetchall()
    assert dep == [(0, 1, "loaded", 0, "token")]


def test_the_audit_checklist_names_the_hand_off(store: Store, assembled: LoadResult) -> None:
    tasks = audit.pending_tasks(StageContext(store, "b", "default", ["q"]))
    assert tasks and all(
        t.subqueries == ("step 0", "step 1 (using the token that step 1 returns)") for t in tasks
    )


def test_edges_are_reported_per_query_and_unchecked_ones_are_said(
    store: Store, assembled: LoadResult
) -> None:
    rows = edges_per_query(store, "b")
    assert [(r.query_id, r.edges_loaded, r.derived_from_docs) for r in rows] == [("q", 1, 0)]
    assert rows[0].dependency_unchecked == 1
    said = "\n".join(notes(store, "b"))
    assert "1 edge(s) loaded and 0 imported in 1 queries" in said
    assert "1 combination(s) replace a tool on a dependent pair whose platform" in said


def test_a_bad_edge_names_its_file_line_and_field(store: Store, tmp_path: Path) -> None:
    bad = [{**QUERIES[0], "dependencies": [{"from": "a::login", "to": "nope"}]}]
    with pytest.raises(InputError) as err:
        load(store, tmp_path, bad)
    assert err.value.field == "dependencies" and err.value.line == 1
    assert "'nope' is neither a slot nor a judged item" in str(err.value)
