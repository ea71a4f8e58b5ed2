"""`toolex export ...` commands write what the Python API writes and name bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
from click.testing import CliRunner
from reports.fixtures import build

from toolex.cli.export import export
from toolex.store import Store


def test_every_export_command(tmp_path: Path) -> None:
    db = str(tmp_path / "s.duckdb")
    build(Store.open(db)).close()
    runner = CliRunner()
    cases = [
        (["qrels", "--out", str(tmp_path / "e.parquet")], "wrote 16 rows"),
        (["qrels", "--out", str(tmp_path / "f.parquet"), "--flat"], "wrote 11 rows"),
        (["trec-qrels", "--out", str(tmp_path / "o.qrels")], "wrote 8 lines"),
        (
            ["trec-qrels", "--out", str(tmp_path / "c.qrels"), "--mode", "per-combination"],
            "wrote 12 lines",
        ),
        (["trec-run", "--run", "bm25", "--out", str(tmp_path / "b.run")], "wrote 84 lines"),
        (["toolret-jsonl", "--out", str(tmp_path / "q.jsonl")], "wrote 6 queries"),
    ]
    for args, message in cases:
        res = runner.invoke(export, [args[0], "--db", db, *args[1:]])
        assert res.exit_code == 0, res.output
        assert message in res.output
    assert pq.read_table(tmp_path / "f.parquet").num_rows == 11
    assert json.loads((tmp_path / "q.jsonl").read_text().splitlines()[0])["id"] == "q1"
    res = runner.invoke(export, ["trec-run", "--db", db, "--run", "nope", "--out", "x.run"])
    assert res.exit_code != 0 and "no run named 'nope'" in str(res.exception)
