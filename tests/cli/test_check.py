"""`toolex check`: exit 0 when every sql/checks/ query returns zero rows, 1 with the violations."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from toolex.cli import cli
from toolex.store import Store


def make(path: Path, rank_of_a: int) -> str:
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


def test_healthy_store_passes(tmp_path: Path) -> None:
    res = CliRunner().invoke(
        cli, ["check", "--db", make(tmp_path / "ok.duckdb", 1), "--format", "json"]
    )
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert rows and all(r["status"] == "ok" for r in rows)
    assert "checks hold" in res.stderr


def test_violation_exits_nonzero_and_lists_rows(tmp_path: Path) -> None:
    res = CliRunner().invoke(cli, ["check", "--db", make(tmp_path / "bad.duckdb", 2)])
    assert res.exit_code == 1
    assert "FAIL run_results_rank_order" in res.stderr
    assert "1 of" in res.stderr and "checks failed" in res.stderr
    assert "run_results_rank_order: violating rows" in res.stdout


def test_one_line_per_check_and_the_invariant_only_on_failure_or_verbose(tmp_path: Path) -> None:
    """Issue 25, point 8: 91 lines for 9 checks, names cut; now a line each, whole names."""
    from toolex.resources import sql_files

    n = len(list(sql_files("checks"))) + 1  # and store_readable
    res = CliRunner().invoke(cli, ["check", "--db", make(tmp_path / "ok.duckdb", 1)])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert len(lines) == n and all(line.startswith("ok    ") for line in lines)
    assert "ok    pipeline_combination_items_unique" in lines  # a long name, whole
    verbose = CliRunner().invoke(cli, ["check", "-v", "--db", make(tmp_path / "v.duckdb", 1)])
    assert "trec_eval's order" in verbose.stdout and "trec_eval's order" not in res.stdout
    assert max(len(line) for line in verbose.stdout.splitlines()) <= 80


def test_a_failing_check_says_what_it_guards_and_shows_its_rows(tmp_path: Path) -> None:
    db = make(tmp_path / "bad.duckdb", 2)
    res = CliRunner().invoke(cli, ["check", "--db", db])
    lines = res.stdout.splitlines()
    failing = lines.index("FAIL  run_results_rank_order  (2 violating rows)")
    assert "trec_eval's order" in lines[failing + 1] and lines[failing + 1].startswith(" " * 6)
    assert sum(line.startswith("FAIL") for line in lines) == 1
    res = CliRunner().invoke(cli, ["check", "--db", db, "--limit", "0"])
    assert res.exit_code == 1  # a violation still fails with no row shown
    assert "FAIL  run_results_rank_order  (more than 0 violating rows)" in res.stdout
    assert "violating rows" not in res.stdout.split("(more than 0 violating rows)")[1]
    res = CliRunner().invoke(cli, ["check", "--db", db, "--format", "json"])
    (bad,) = [r for r in json.loads(res.stdout) if r["status"] == "FAIL"]
    assert bad["check"] == "run_results_rank_order" and bad["violations"] == 2
    assert [r["item_id"] for r in bad["violating_rows"]] == ["a", "z"]
    res = CliRunner().invoke(cli, ["check", "--db", db, "--limit", "1", "--format", "csv"])
    assert "FAIL,more than 1," in res.stdout and res.exit_code == 1
