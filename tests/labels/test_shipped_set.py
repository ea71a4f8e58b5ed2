"""The shipped verdict label sets: their shape, their provenance (the raw passes and the
adjudication under docs/labels/ give every final label), and every item resolves in the shared
data."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from toolex.labels.records import SHIPPED, SHIPPED_DEV, SHIPPED_SETS
from toolex.store import Store

ROOT = Path(__file__).resolve().parents[2]
PASSES = ROOT / "docs" / "labels" / "v2"
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


def rows(path: Path = SHIPPED) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def jsonl(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (PASSES / name).read_text(encoding="utf-8").splitlines()]


def key(r: dict[str, Any]) -> tuple[str, str, int, str, str]:
    return (r["benchmark"], r["query_id"], r["slot"], r["reference"], r["candidate"])


@pytest.mark.parametrize("path", SHIPPED_SETS, ids=lambda p: p.name)
def test_every_set_has_the_label_shape_and_no_repeated_or_trivial_pair(path: Path) -> None:
    data = rows(path)
    assert all(set(r) == FIELDS for r in data)
    assert len({(r["benchmark"], r["query_id"], r["reference"], r["candidate"]) for r in data}) == (
        len(data)
    )
    assert all(r["reference"] != r["candidate"] for r in data)
    # both passes agreed, or the adjudicator decided (the review protocol names the role)
    assert {r["labeller"] for r in data} <= {"agreed", "adjudicated", "adjudicator"}
    assert {r["label"] for r in data} == {"yes", "no"}
    assert all(r["subquery"] and r["note"] for r in data)


def test_the_pipeline_set_is_drawn_by_part_and_rank_band_with_its_populations() -> None:
    data = rows(SHIPPED)
    assert {r["source"] for r in data} == {"toolex-pipeline-v2"}
    labels = Counter(r["label"] for r in data)
    assert len(data) == 1380 and labels["yes"] == 334
    by_part = Counter((r["benchmark"], r["stratum"]["part"]) for r in data)
    assert by_part == {
        (b, part): n
        for b, n in (("stabletoolbench", 200), ("toolret", 260))
        for part in ("accepted", "rejected", "unjudged")
    }
    assert {r["stratum"]["rank_band"] for r in data} == {"1-3", "4-10", "11-20", "21+"}
    for r in data:  # a label stands for population / drawn candidates of its stratum
        s = r["stratum"]
        assert 0 < s["drawn"] <= s["population"], r
        same = [x for x in data if x["stratum"]["stratum"] == s["stratum"]]
        assert s["drawn"] == sum(x["benchmark"] == r["benchmark"] for x in same)


def test_every_final_label_is_the_passes_agreement_or_the_adjudication() -> None:
    items = {r["item"]: r for r in jsonl("items.jsonl")}
    a = {r["item"]: r for r in jsonl("passA.jsonl")}
    b = {r["item"]: r for r in jsonl("passB.jsonl")}
    adjudicated = {r["item"]: r for r in jsonl("adjudication.jsonl")}
    assert set(a) == set(b) == set(items) and len(items) == 1380
    disagree = {
        i for i in items if (a[i]["label"], a[i]["bucket"]) != (b[i]["label"], b[i]["bucket"])
    }
    assert set(adjudicated) == disagree
    assert sum(a[i]["label"] != b[i]["label"] for i in items) == 15  # kappa 0.970 (README)
    final = {key(r): r for r in rows(SHIPPED)}
    for item, it in items.items():
        label = final[key(it)]
        expected = adjudicated[item]["label"] if item in adjudicated else a[item]["label"]
        assert label["label"] == expected, item
        assert label["labeller"] == ("adjudicator" if item in adjudicated else "agreed"), item


def test_the_first_round_set_is_kept_as_it_was() -> None:
    data = rows(SHIPPED_DEV)
    labels = Counter(r["label"] for r in data)
    assert (len(data), labels["yes"]) == (910, 120)
    assert {r["source"] for r in data} == {"toolex-dev-v1"}
    parts = {r["stratum"]["part"] for r in data}
    assert parts == {"stb-G1", "stb-G2G3", "apigen", "toolink", "gorilla", "apibank"}


@pytest.mark.shared_data
@pytest.mark.slow
def test_every_item_resolves_in_the_shared_data(shared_data: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from toolex.cli import cli

    db = str(tmp_path / "s.duckdb")
    runner = CliRunner()
    for fmt in ("toolret", "stabletoolbench"):
        res = runner.invoke(cli, ["load", fmt, str(shared_data / fmt), "--db", db])
        assert res.exit_code == 0, res.output
    store = Store.open(db, read_only=True)
    for bench in ("toolret", "stabletoolbench"):
        params = {"benchmark": bench}
        items = {r["item_id"] for r in store.rows("judges/01_item_docs.sql", params)}
        qrels = {
            (q["query_id"], q["item_id"])
            for q in store.rows("expansions/02_qrels_of_benchmark.sql", params)
        }
        for r in (r for path in SHIPPED_SETS for r in rows(path)):
            if r["benchmark"] != bench:
                continue
            assert r["candidate"] in items and r["reference"] in items, r
            # the reference is the query's ground-truth tool
            assert (r["query_id"], r["reference"]) in qrels, r
