"""The shipped verdict label set: its shape, and every item resolves in the shared data."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from toolex.store import Store

LABELS = Path(__file__).resolve().parents[2] / "toolex" / "data" / "labels" / "verdicts.jsonl"
FIELDS = {
    "benchmark",
    "query_id",
    "slot",
    "subquery",
    "reference",
    "candidate",
    "label",
    "labeller",
    "note",
    "source",
    "stratum",
}


def rows():
    return [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines()]


def test_shape_size_and_balance():
    data = rows()
    assert all(set(r) == FIELDS for r in data)
    labels = Counter(r["label"] for r in data)
    assert len(data) >= 600 and labels["yes"] >= 100 and set(labels) == {"yes", "no"}
    keys = {(r["benchmark"], r["query_id"], r["reference"], r["candidate"]) for r in data}
    assert len(keys) == len(data)
    assert all(r["reference"] != r["candidate"] for r in data)
    assert {r["labeller"] for r in data} <= {"agreed", "adjudicated"}
    # every benchmark part of the shared data is in it
    parts = {r["stratum"]["part"] for r in data}
    assert parts == {"stb-G1", "stb-G2G3", "apigen", "toolink", "gorilla", "apibank"}
    assert all(r["subquery"] and r["note"] is not None for r in data)


@pytest.mark.shared_data
@pytest.mark.slow
def test_every_item_resolves_in_the_shared_data(shared_data, tmp_path):
    from click.testing import CliRunner

    from toolex.cli import cli

    db = str(tmp_path / "s.duckdb")
    runner = CliRunner()
    for fmt, path in (("toolret", "toolret"), ("stabletoolbench", "stabletoolbench")):
        res = runner.invoke(cli, ["load", fmt, str(shared_data / path), "--db", db])
        assert res.exit_code == 0, res.output
    store = Store.open(db, read_only=True)
    for bench in ("toolret", "stabletoolbench"):
        params = {"benchmark": bench}
        items = {r["item_id"] for r in store.rows("stages/0_run/01_item_docs.sql", params)}
        qrels = {
            (q["query_id"], q["item_id"])
            for q in store.rows("expansions/02_qrels_of_benchmark.sql", params)
        }
        for r in rows():
            if r["benchmark"] != bench:
                continue
            assert r["candidate"] in items and r["reference"] in items, r
            # the reference is the query's ground-truth tool
            assert (r["query_id"], r["reference"]) in qrels, r
