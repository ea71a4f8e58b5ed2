"""ToolRet-style JSONL: ToolRet's fields plus every valid combination; round trip through the
combinations import."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from toolex.errors import InputError
from toolex.expansions.combinations import import_combinations
from toolex.exports import export_qrels, export_toolret_jsonl, read_toolret_jsonl
from toolex.store import Store


def test_records(fixture_store: Store, tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    assert export_toolret_jsonl(fixture_store, path) == 6
    recs = {r["id"]: r for r in map(json.loads, path.read_text().splitlines())}
    q2 = recs["q2"]
    assert q2["query"].startswith("Book a flight") and q2["category"] == "web"
    assert q2["labels"] == [{"id": "w3", "relevance": 1}, {"id": "w4", "relevance": 1}]
    assert [[lab["id"] for lab in c["labels"]] for c in q2["combinations"]] == [
        ["w3", "w4"],
        ["w5", "w4"],
    ]
    assert [c["combo_id"] for c in recs["q5"]["combinations"]] == [0]  # combo 1 platform-rejected
    assert recs["q3"]["combinations"][0]["is_original"] is True


def test_round_trip(fixture_store: Store, tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    export_toolret_jsonl(fixture_store, path)
    members = read_toolret_jsonl(path)
    back = tmp_path / "members.parquet"
    pq.write_table(pa.Table.from_pylist(members), back)
    import_combinations(fixture_store, back, benchmark="toolret", expansion="from-jsonl")
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    export_qrels(fixture_store, a, valid_only=True)
    export_qrels(fixture_store, b, expansion="from-jsonl", valid_only=True)
    key = ("query_id", "combo_id", "slot", "item_id", "relevance")
    rows = [sorted(tuple(r[k] for k in key) for r in pq.read_table(p).to_pylist()) for p in (a, b)]
    assert rows[0] == rows[1]


def test_bad_line_is_located(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "q1", "labels": []}\n{not json\n')
    with pytest.raises(InputError, match=r"bad.jsonl:2"):
        read_toolret_jsonl(path)
