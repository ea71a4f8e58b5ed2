"""Expanded qrels Parquet (per member and flat), and the round trip through the combinations
import (toolex.expansions.combinations.import_combinations)."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from toolex.errors import NotFoundError
from toolex.expansions.combinations import import_combinations
from toolex.exports import export_qrels
from toolex.store import Store


def test_expanded_rows_by_hand(fixture_store: Store, tmp_path: Path) -> None:
    path = tmp_path / "expanded.parquet"
    # 8 original members (q1:1, q2:2, q3:1, q4:1, q5:2, q6:1) + 8 members of combos 1..2
    assert export_qrels(fixture_store, path) == 16
    rows = pq.read_table(path).to_pylist()
    q2 = [
        (r["combo_id"], r["slot"], r["item_id"], r["status"]) for r in rows if r["query_id"] == "q2"
    ]
    assert q2 == [
        (0, 0, "w3", "valid"),
        (0, 1, "w4", "valid"),
        (1, 0, "w5", "valid"),
        (1, 1, "w4", "valid"),
    ]
    q5 = {r["combo_id"]: r for r in rows if r["query_id"] == "q5"}
    assert (
        q5[1]["status"] == "rejected_platform"
        and q5[1]["audit_reason"] == "fixture rejected_platform"
    )
    assert q5[0]["is_original"] and not q5[1]["is_original"]
    assert q5[1]["rrf"] == pytest.approx(1 / 62 + 1 / 63) and q5[1]["rrf_rank"] == 2
    assert {r["status"] for r in rows if r["query_id"] == "q4" and r["combo_id"] == 2} == {"cut"}
    valid = tmp_path / "valid.parquet"
    assert export_qrels(fixture_store, valid, valid_only=True) == 12  # drops cut/rejected: 4 rows


def test_flat_form(fixture_store: Store, tmp_path: Path) -> None:
    path = tmp_path / "flat.parquet"
    assert export_qrels(fixture_store, path, flat=True) == 11
    rows = {(r["query_id"], r["item_id"]): r for r in pq.read_table(path).to_pylist()}
    assert rows[("q2", "w4")]["n_combinations"] == 2 and rows[("q2", "w4")]["combo_ids"] == [0, 1]
    assert rows[("q2", "w5")]["in_original"] is False and rows[("q2", "w5")]["slots"] == [0]
    assert ("q5", "c5") not in rows  # only in a platform-rejected combination
    assert ("q6", "c1") not in rows  # only in an audit-rejected combination


def test_round_trip_through_the_combinations_import(fixture_store: Store, tmp_path: Path) -> None:
    first = tmp_path / "first.parquet"
    export_qrels(fixture_store, first, valid_only=True)
    result = import_combinations(fixture_store, first, benchmark="toolret", expansion="copy")
    assert result.combinations == 3  # q1#1, q2#1, q4#1; combo 0 of each query is the original
    again = tmp_path / "again.parquet"
    export_qrels(fixture_store, again, expansion="copy", valid_only=True)
    key = ("query_id", "combo_id", "slot", "item_id", "relevance", "is_original", "status")
    a = sorted(tuple(r[k] for k in key) for r in pq.read_table(first).to_pylist())
    b = sorted(tuple(r[k] for k in key) for r in pq.read_table(again).to_pylist())
    assert a == b


def test_benchmark_must_exist(fixture_store: Store, tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match="no benchmark named 'nope'"):
        export_qrels(fixture_store, tmp_path / "x.parquet", benchmark="nope")
    with pytest.raises(NotFoundError, match="did you mean 'toolret'"):
        export_qrels(fixture_store, tmp_path / "x.parquet", benchmark="toolrett")
    assert not (tmp_path / "x.parquet").exists()


def test_expansion_must_exist(fixture_store: Store, tmp_path: Path) -> None:
    # A misspelled expansion used to export the original labels alone, silently.
    with pytest.raises(NotFoundError, match="no expansion named 'defualt'.*did you mean 'default'"):
        export_qrels(fixture_store, tmp_path / "x.parquet", expansion="defualt")
    assert not (tmp_path / "x.parquet").exists()
