"""`toolex export equivalences`: accepted verdicts as edges between items (Parquet, GraphML,
JSON node-link) and the provider pairs they make redundant, on hand-written verdicts.

    q1 slot 0 (reference wx_a::forecast, "Get forecast"): wx_b::forecast yes, wx_c::forecast
       yes (reused), wx_a::delete no
    q1 slot 1 (reference cv::c2f, "Convert c2f"): cv2::c2f yes
    q3 slot 0 (reference wx_b::forecast, "Fetch forecast"): wx_a::forecast yes
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from pipeline.fixtures import build
from pipeline.helpers import add_query

from toolex.cli.export import export
from toolex.exports.equivalences import graph, redundant_platforms
from toolex.store import Store

NS = {"g": "http://graphml.graphdrawing.org/xmlns"}


def fill(store: Store) -> Store:
    build(store)
    add_query(store, "q3", "Weather forecast in Berlin", ["wx_b::forecast"])
    subs = [
        ("q1", 0, "Get forecast", "wx_a::forecast"),
        ("q1", 1, "Convert c2f", "cv::c2f"),
        ("q3", 0, "Fetch forecast", "wx_b::forecast"),
    ]
    for q, slot, text, ref in subs:
        store.con.execute(
            "INSERT INTO subqueries VALUES ('b', 'default', ?, ?, ?, NULL, NULL, ?, 'x', NULL)",
            [q, slot, text, ref],
        )
    verdicts = [
        ("q1", 0, "wx_a::forecast", True, "reference", None),
        ("q1", 0, "wx_b::forecast", True, "x", 0.9),
        ("q1", 0, "wx_c::forecast", True, "reused", 0.7),
        ("q1", 0, "wx_a::delete", False, "x", 0.1),
        ("q1", 1, "cv::c2f", True, "reference", None),
        ("q1", 1, "cv2::c2f", True, "x", 0.8),
        ("q3", 0, "wx_b::forecast", True, "reference", None),
        ("q3", 0, "wx_a::forecast", True, "x", 0.6),
    ]
    for q, slot, item, accepted, judge, conf in verdicts:
        store.con.execute(
            "INSERT INTO verdicts (benchmark, expansion, query_id, slot, item_id, accepted, "
            "reason, judge, call_id, confidence) VALUES ('b', 'default', ?, ?, ?, ?, 'r', ?, "
            "NULL, ?)",
            [q, slot, item, accepted, judge, conf],
        )
    return store


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "eq.duckdb")
    with Store.open(path) as store:
        fill(store)
    return path


def test_edges_graph_and_files(db: str, tmp_path: Path) -> None:
    runner = CliRunner()
    out, gml, js = tmp_path / "e.parquet", tmp_path / "g.graphml", tmp_path / "g.json"
    res = runner.invoke(
        export, ["equivalences", "--db", db, "--out", str(out), "--graph", str(gml)]
    )
    assert res.exit_code == 0, res.output
    assert "wrote 4 edges" in res.stderr and "wrote 4 item pairs" in res.stderr
    rows = pq.read_table(out).to_pylist()
    assert [(r["reference"], r["candidate"], r["query_id"], r["subquery"]) for r in rows] == [
        ("cv::c2f", "cv2::c2f", "q1", "Convert c2f"),
        ("wx_a::forecast", "wx_b::forecast", "q1", "Get forecast"),
        ("wx_a::forecast", "wx_c::forecast", "q1", "Get forecast"),
        ("wx_b::forecast", "wx_a::forecast", "q3", "Fetch forecast"),
    ]
    assert {r["judge"] for r in rows} == {"x", "reused"}  # reused verdicts are edges, marked

    root = ET.parse(gml).getroot()
    nodes = root.findall("g:graph/g:node", NS)
    edges = root.findall("g:graph/g:edge", NS)
    assert len(nodes) == 5 and len(edges) == 4
    degree = {n.get("id"): n.findtext("g:data[@key='n_degree']", None, NS) for n in nodes}
    assert degree["wx_a::forecast"] == "2" and degree["cv2::c2f"] == "1"

    res = runner.invoke(export, ["equivalences", "--db", db, "--out", str(out), "--graph", str(js)])
    assert res.exit_code == 0, res.output
    data = json.loads(js.read_text())
    assert data["directed"] and len(data["nodes"]) == 5
    link = next(x for x in data["links"] if x["source"] == "wx_b::forecast")
    assert link == {
        "source": "wx_b::forecast",
        "target": "wx_a::forecast",
        "steps": 1,
        "queries": 1,
        "subqueries": ["Fetch forecast"],
        "judges": ["x"],
        "mean_confidence": 0.6,
    }


def test_redundant_providers(db: str) -> None:
    with Store.open(db, read_only=True) as store:
        rows = redundant_platforms(store)
        nodes, links = graph(store)
    assert len(nodes) == 5 and len(links) == 4
    pairs = {(r.platform_a, r.platform_b): r for r in rows}
    assert set(pairs) == {("WxA", "WxB"), ("WxA", "WxC"), ("Conv", "Conv2")}
    wx = pairs[("WxA", "WxB")]
    # one endpoint pair, equivalent both ways (two steps); WxA has 2 endpoints, one covered
    assert (wx.equivalent_pairs, wx.steps, wx.covered_a, wx.endpoints_a) == (1, 2, 1, 2)
    assert (wx.share_a, wx.share_b) == (0.5, 1.0)
    assert rows[0].platform_a == "WxA" and rows[0].platform_b == "WxB"  # most steps first

    res = CliRunner().invoke(
        export, ["equivalences", "--db", db, "--by", "platform", "--format", "csv"]
    )
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[0].startswith("platform_a,platform_b,equivalent_pairs")
    assert len(res.stdout.splitlines()) == 4


def test_bad_graph_suffix_and_missing_out(db: str, tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(
        export, ["equivalences", "--db", db, "--out", "e.parquet", "--graph", "g.txt"]
    )
    assert res.exit_code != 0 and ".graphml or .json" in res.output
    res = runner.invoke(export, ["equivalences", "--db", db])
    assert res.exit_code != 0 and "--out" in res.output
