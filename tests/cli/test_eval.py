"""`toolex eval` on a tiny store whose scores are known by hand."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest
from click.testing import CliRunner

from toolex.cli import cli
from toolex.errors import NotFoundError, ToolexError
from toolex.store import Store

L3 = math.log2(3)


@pytest.fixture
def db(tmp_path):
    """q1 (code): GT a at rank 2. q2 (web): GT b missing, equivalent b2 (valid) at rank 1.
    q3 (web): no results."""
    path = tmp_path / "e.duckdb"
    with Store.open(path) as s:
        c = s.con
        c.execute("INSERT INTO benchmarks (benchmark, format, source) VALUES ('b', 'plain', 'x')")
        c.execute(
            "INSERT INTO queries (benchmark, query_id, task, category, text) VALUES "
            "('b', 'q1', 't1', 'code', 'x'), ('b', 'q2', 't2', 'web', 'y'), "
            "('b', 'q3', 't2', 'web', 'z')"
        )
        c.execute(
            "INSERT INTO qrels VALUES ('b', 'q1', 'a', 1, 0), ('b', 'q2', 'b', 1, 0), "
            "('b', 'q3', 'c', 1, 0)"
        )
        c.execute(
            "INSERT INTO runs (run_id, benchmark, level) VALUES ('bm25', 'b', 'query'), "
            "('dense', 'b', 'query')"
        )
        c.execute(
            "INSERT INTO run_results VALUES ('bm25', 'q1', 'x', 2.0, 1), "
            "('bm25', 'q1', 'a', 1.0, 2), ('bm25', 'q2', 'b2', 1.0, 1), "
            "('dense', 'q1', 'a', 1.0, 1)"
        )
        c.execute(
            "INSERT INTO combinations (benchmark, expansion, query_id, combo_id, status) "
            "VALUES ('b', 'default', 'q2', 1, 'valid')"
        )
        c.execute("INSERT INTO combination_items VALUES ('b', 'default', 'q2', 1, 0, 'b2')")
    return str(path)


def run(args):
    result = CliRunner().invoke(cli, args)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_json_rows_per_category_and_all(db):
    res = run(["eval", "--db", db, "--run", "bm25", "--k", "2", "--format", "json"])
    assert res.exit_code == 0
    rows = {(r["category"], r["metric"]): r for r in json.loads(res.stdout)}
    assert set(rows) == {(c, m) for c in ("code", "web", "all") for m in ("ndcg", "recall", "comp")}
    assert rows[("code", "ndcg")]["old"] == pytest.approx(1 / L3)
    assert (rows[("web", "recall")]["old"], rows[("web", "recall")]["new"]) == (0.0, 0.5)
    assert rows[("all", "ndcg")]["new"] == pytest.approx((1 / L3 + 1) / 3)
    assert rows[("all", "comp")]["n_no_results"] == 1
    assert {"run", "category", "metric", "k", "old", "new"} <= set(rows[("all", "comp")])
    assert "run bm25: 1 of 3 queries had no results" in res.stderr


def test_per_query_json_adds_query_rows(db):
    res = run(["eval", "--db", db, "--run", "bm25", "--k", "1", "--per-query", "--format", "json"])
    rows = json.loads(res.stdout)
    q2 = [r for r in rows if r["query"] == "q2" and r["metric"] == "ndcg"]
    assert q2 == [
        {
            "run": "bm25",
            "category": "web",
            "query": "q2",
            "metric": "ndcg",
            "k": 1,
            "old": 0.0,
            "new": 1.0,
            "gain": 1.0,
            "n_queries": 1,
            "n_no_results": 0,
        }
    ]
    assert sum(r["query"] is None for r in rows) == 9  # 3 groups x 3 metrics


def test_csv_by_task_several_runs_and_ks(db):
    res = run(
        [
            "eval",
            "--db",
            db,
            "--all-runs",
            "--k",
            "1",
            "--k",
            "2",
            "--by",
            "task",
            "--format",
            "csv",
        ]
    )
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    assert {r["run"] for r in rows} == {"bm25", "dense"}
    assert {r["task"] for r in rows} == {"t1", "t2", "all"}
    assert {r["k"] for r in rows} == {"1", "2"}
    dense = {(r["task"], r["metric"], r["k"]): r for r in rows if r["run"] == "dense"}
    assert float(dense[("t1", "ndcg", "1")]["old"]) == 1.0
    assert "run dense: 2 of 3 queries had no results" in res.stderr


def test_table_is_the_main_table(db):
    res = run(["eval", "--db", db, "--run", "bm25", "--k", "2"])
    out = res.stdout
    assert "N@2" in out and "R@2" in out and "C@2" in out and "Δ" in out
    # web: recall 0 -> 50, ndcg 0 -> 50, comp 0 -> 50 (percent points); delta +50.00
    web = next(line for line in out.splitlines() if " web " in line)
    assert "0.00/50.00" in web and "+50.00" in web


def test_note_when_the_expansion_has_no_valid_combination(db):
    with Store.open(db) as s:
        s.con.execute(
            "INSERT INTO combinations (benchmark, expansion, query_id, combo_id, status) "
            "VALUES ('b', 'strict', 'q2', 1, 'rejected_audit')"
        )
    res = run(["eval", "--db", db, "--run", "bm25", "--expansion", "strict", "--format", "json"])
    assert "no valid expanded combination" in res.stderr
    rows = json.loads(res.stdout)
    assert all(r["old"] == r["new"] for r in rows)


def test_unknown_expansion_is_a_clear_error(db):
    # A misspelled expansion used to score new == old with only a note on stderr.
    with pytest.raises(NotFoundError, match="no expansion named 'defualt'.*did you mean 'default'"):
        run(["eval", "--db", db, "--run", "bm25", "--expansion", "defualt"])


def test_unknown_run_is_a_clear_error(db):
    with pytest.raises(ToolexError, match="no run named 'ghost'"):
        run(["eval", "--db", db, "--run", "ghost"])
    with pytest.raises(ToolexError, match="no run to evaluate"):
        run(["eval", "--db", db])


def test_help_shows_an_example():
    res = run(["eval", "--help"])
    assert "toolex eval --run" in res.stdout
