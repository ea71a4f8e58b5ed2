"""Issue 26.7: training triples whose hard negatives are never verified equivalents, on the
report fixture (tests/reports/fixtures.py): hand-computed negatives from the candidate pool and
from a run, the sentence-transformers JSONL and the Parquet form."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest
from reports.fixtures import ACCEPTED

from toolex.errors import InputError, ToolexError
from toolex.exports.triples import export_triples, training_triples


def negatives(table, query_id, slot=None):
    return [
        r["negative_id"]
        for r in table.to_pylist()
        if r["query_id"] == query_id and r["slot"] == slot
    ]


def test_pool_negatives_leave_out_the_ground_truth_and_every_equivalent(fixture_store):
    table = training_triples(fixture_store)
    # pools (fixtures.py): q1 w1 (GT) w2 (accepted) w3 (rejected); q4 c1 (GT) c2 c6 (accepted)
    # c7 (rejected); q2, q5, q6: nothing but their GT and equivalents
    assert negatives(table, "q1") == ["w3"] and negatives(table, "q4") == ["c7"]
    assert {r["query_id"] for r in table.to_pylist()} == {"q1", "q3", "q4"}
    assert negatives(table, "q3") == ["w7"]  # q3 has no equivalent: its rejected candidate
    excluded = {r["query_id"]: r["excluded_equivalents"] for r in table.to_pylist()}
    assert excluded == {"q1": 1, "q3": 0, "q4": 2}  # w2; c2 and c6
    every_equivalent = {i for items in ACCEPTED.values() for i in items}
    for row in table.to_pylist():
        assert row["negative_id"] not in every_equivalent | {"w1", "c1"}
        assert row["anchor"] and row["positive"].startswith("name: tool_")


def test_run_negatives_are_its_best_ranked_non_equivalents(fixture_store):
    table = training_triples(fixture_store, run_id="bm25", negatives=2)
    # bm25 ranks q1: w2 w9 w1 w3 w4 ...; w2 is an equivalent, w1 the ground truth
    assert negatives(table, "q1") == ["w9", "w3"]
    # q2 (GT w3, w4; w5 accepted): w5 w4 w8 w3 w1 ... -> one row per positive
    rows = [r for r in table.to_pylist() if r["query_id"] == "q2"]
    assert [(r["positive_id"], r["negative_id"]) for r in rows] == [
        ("w3", "w8"), ("w3", "w1"), ("w4", "w8"), ("w4", "w1")
    ]  # fmt: skip
    q1 = next(r for r in table.to_pylist() if r["query_id"] == "q1")
    assert q1["excluded_equivalents"] == 1 and q1["negative_rank"] == 2


def test_subquery_level_uses_each_step_s_own_list(fixture_store):
    table = training_triples(fixture_store, level="subquery")
    assert negatives(table, "q1", 0) == ["w3"]
    anchors = {r["anchor"] for r in table.to_pylist()}
    assert "What is the weather in Paris tomorrow? (part 1)" in anchors


def test_jsonl_is_what_sentence_transformers_reads(fixture_store, tmp_path):
    path = tmp_path / "t.jsonl"
    done = export_triples(fixture_store, path, run_id="bm25", negatives=3)
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == done.rows > 0
    assert all(list(line) == ["anchor", "positive", "negative"] for line in lines)
    parquet = tmp_path / "t.parquet"
    again = export_triples(fixture_store, parquet, run_id="bm25", negatives=3)
    assert again == done and pq.read_table(parquet).num_rows == done.rows
    assert done.anchors == 6 and done.excluded_equivalents > 0
    assert "kept out of the negatives" in done.summary(path)


def test_bad_requests_write_nothing(fixture_store, tmp_path):
    out = tmp_path / "out"
    with pytest.raises(InputError, match="name the file .parquet or .jsonl"):
        export_triples(fixture_store, out / "t.csv")
    with pytest.raises(InputError, match="--level must be one of"):
        training_triples(fixture_store, level="slot")
    fixture_store.con.execute("DELETE FROM candidates")
    with pytest.raises(ToolexError, match="no triples: the candidate pool"):
        export_triples(fixture_store, out / "t.parquet")
    assert not out.exists()
