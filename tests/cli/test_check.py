"""`toolex check`: exit 0 when every sql/checks/ query returns zero rows, 1 with the violations."""

from __future__ import annotations

import json

from click.testing import CliRunner

from toolex.cli import cli
from toolex.store import Store


def make(path, rank_of_a: int) -> str:
    with Store.open(path) as s:
        s.con.execute("INSERT INTO benchmarks (benchmark, format, source) VALUES ('b', 'p', 'x')")
        s.con.execute("INSERT INTO queries (benchmark, query_id, text) VALUES ('b', 'q', 't')")
        s.con.execute("INSERT INTO qrels VALUES ('b', 'q', 'a', 1, 0)")
        s.con.execute("INSERT INTO runs (run_id, benchmark, level) VALUES ('r', 'b', 'query')")
        s.con.execute(
            "INSERT INTO run_results VALUES ('r', 'q', 'a', 2.0, ?), ('r', 'q', 'z', 1.0, ?)",
            [rank_of_a, 3 - rank_of_a],
        )
    return str(path)


def test_healthy_store_passes(tmp_path):
    res = CliRunner().invoke(
        cli, ["check", "--db", make(tmp_path / "ok.duckdb", 1), "--format", "json"]
    )
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert rows and all(r["status"] == "ok" for r in rows)
    assert "checks hold" in res.stderr


def test_violation_exits_nonzero_and_lists_rows(tmp_path):
    res = CliRunner().invoke(cli, ["check", "--db", make(tmp_path / "bad.duckdb", 2)])
    assert res.exit_code == 1
    assert "FAIL run_results_rank_order" in res.stderr
    assert "1 of" in res.stderr and "checks failed" in res.stderr
    assert "run_results_rank_order: violating rows" in res.stdout
