"""`toolex eval` on a tiny store whose scores are known by hand."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from toolex.cli import cli
from toolex.errors import NotFoundError, ToolexError
from toolex.store import Store

L3 = math.log2(3)


@pytest.fixture
def db(tmp_path: Path) -> str:
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


def run(args: list[str]) -> Result:
    result = CliRunner().invoke(cli, args)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_json_rows_per_category_and_all(db: str) -> None:
    res = run(["eval", "--db", db, "--run", "bm25", "--k", "2", "--format", "json"])
    assert res.exit_code == 0
    rows = {(r["category"], r["metric"]): r for r in json.loads(res.stdout)}
    groups = ("code", "web", "all", "avg (category mean)")
    # metrics are named as ir_measures names them
    assert set(rows) == {(c, m) for c in groups for m in ("nDCG@2", "R@2", "Comp@2")}
    assert rows[("code", "nDCG@2")]["old"] == pytest.approx(1 / L3)
    assert (rows[("web", "R@2")]["old"], rows[("web", "R@2")]["new"]) == (0.0, 0.5)
    assert rows[("all", "nDCG@2")]["new"] == pytest.approx((1 / L3 + 1) / 3)
    assert rows[("all", "Comp@2")]["n_no_results"] == 1
    assert {"run", "category", "metric", "k", "old", "new"} <= set(rows[("all", "Comp@2")])
    assert "run bm25: 1 of 3 queries had no results" in res.stderr


def test_per_query_json_adds_query_rows(db: str) -> None:
    res = run(["eval", "--db", db, "--run", "bm25", "--k", "1", "--per-query", "--format", "json"])
    rows = json.loads(res.stdout)
    q2 = [r for r in rows if r["query"] == "q2" and r["metric"] == "nDCG@1"]
    assert q2 == [
        {
            "run": "bm25",
            "category": "web",
            "query": "q2",
            "metric": "nDCG@1",
            "k": 1,
            "old": 0.0,
            "new": 1.0,
            "gain": 1.0,
            "n_queries": 1,
            "n_no_results": 0,
            "oracle": False,
        }
    ]
    assert sum(r["query"] is None for r in rows) == 12  # 4 groups x 3 metrics


def test_csv_by_task_several_runs_and_ks(db: str) -> None:
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
    assert {r["task"] for r in rows} == {"t1", "t2", "all", "avg (task mean)"}
    assert {r["k"] for r in rows} == {"1", "2"}
    dense = {(r["task"], r["metric"], r["k"]): r for r in rows if r["run"] == "dense"}
    assert float(dense[("t1", "nDCG@1", "1")]["old"]) == 1.0
    assert "run dense: 2 of 3 queries had no results" in res.stderr


def test_table_shows_the_json_rows_on_the_same_scale(db: str) -> None:
    """issue 15: eval's table is the rows JSON and CSV give (same scale, the one renderer):
    headers as typed, 0..1 scores, and no column that is the same on every row."""
    out = run(["eval", "--db", db, "--run", "bm25", "--k", "2"]).stdout
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if "metric" in line)
    header = lines[at].split()
    # n_queries breaks at its underscore (80 columns: issue 35.18)
    assert header[:4] == ["run", "category", "metric", "old"]
    assert "n_queries" in header or (header[-1] == "queries" and lines[at - 1].split() == ["n_"])
    assert "query" not in header and "k" not in header  # all None / all 2: said in the title
    web = {line.split()[2]: line.split() for line in out.splitlines() if " web " in line}
    assert set(web) == {"nDCG@2", "R@2", "Comp@2"}
    assert web["R@2"][3:6] == ["0", "0.5", "0.5"]  # old, new, gain: no ×100, no forced digits


def test_note_when_the_expansion_has_no_valid_combination(db: str) -> None:
    with Store.open(db) as s:
        s.con.execute(
            "INSERT INTO combinations (benchmark, expansion, query_id, combo_id, status) "
            "VALUES ('b', 'strict', 'q2', 1, 'rejected_audit')"
        )
    res = run(["eval", "--db", db, "--run", "bm25", "--expansion", "strict", "--format", "json"])
    assert "no valid expanded combination" in res.stderr
    rows = json.loads(res.stdout)
    assert all(r["old"] == r["new"] for r in rows)


def test_unknown_expansion_is_a_clear_error(db: str) -> None:
    # A misspelled expansion used to score new == old with only a note on stderr.
    with pytest.raises(NotFoundError, match="no expansion named 'defualt'.*did you mean 'default'"):
        run(["eval", "--db", db, "--run", "bm25", "--expansion", "defualt"])


def test_unknown_run_is_a_clear_error(db: str) -> None:
    with pytest.raises(ToolexError, match="no run named 'ghost'"):
        run(["eval", "--db", db, "--run", "ghost"])
    with pytest.raises(ToolexError, match="no run to evaluate"):
        run(["eval", "--db", db])


def test_help_shows_an_example() -> None:
    res = run(["eval", "--help"])
    assert "toolex eval --run" in res.stdout


# -- issue 14: the paper's average, the oracle mark, pool bias, the paper layout ----------------


def test_category_mean_row_is_the_mean_of_the_category_rows(db: str) -> None:
    """Table 2's average: (code + web) / 2, not the mean over the three queries. At K=2, code
    (q1: a at rank 2) has NDCG 1/log2(3), recall 1; web (q2 misses b, its equivalent b2 at 1;
    q3 empty) has old 0 and new 1/2."""
    res = run(["eval", "--db", db, "--run", "bm25", "--k", "2", "--format", "json"])
    rows = {(r["category"], r["metric"]): r for r in json.loads(res.stdout)}
    for metric in ("nDCG@2", "R@2", "Comp@2"):
        mean = rows[("avg (category mean)", metric)]
        for side in ("old", "new", "gain"):
            by_hand = (rows[("code", metric)][side] + rows[("web", metric)][side]) / 2
            assert mean[side] == pytest.approx(by_hand)
        assert mean["n_queries"] == 3 and mean["n_no_results"] == 1
    assert rows[("avg (category mean)", "nDCG@2")]["old"] == pytest.approx(1 / L3 / 2)
    assert rows[("avg (category mean)", "R@2")]["new"] == pytest.approx(0.75)
    assert rows[("all", "R@2")]["new"] == pytest.approx(2 / 3)  # query-weighted: differs


def test_table_shows_the_category_mean_beside_all(db: str) -> None:
    out = run(["eval", "--db", db, "--run", "bm25", "--k", "2"]).stdout
    lines = [line for line in out.splitlines() if line.strip().startswith("bm25")]
    assert list(dict.fromkeys(line.split()[1] for line in lines)) == ["all", "avg", "code", "web"]
    mean = next(line for line in lines if "avg (category mean)" in line and "R@2" in line)
    assert mean.split()[5:7] == ["0.5", "0.75"]  # recall: (1 + 0) / 2 -> (1 + 0.5) / 2


def _add_subquery_run(db: str) -> None:
    with Store.open(db) as s:
        s.con.execute(
            "INSERT INTO runs (run_id, benchmark, level, retriever) "
            "VALUES ('sub', 'b', 'subquery', 'bm25')"
        )
        s.con.execute("INSERT INTO run_results VALUES ('sub', 'q1', 'a', 1.0, 1)")


def test_subquery_runs_are_marked_oracle_in_every_format(db: str) -> None:
    _add_subquery_run(db)
    out = run(["eval", "--db", db, "--run", "bm25", "--run", "sub", "--k", "2"]).stdout
    assert "sub †" in out and "bm25 †" not in out and "oracle-assisted" in out
    rows = json.loads(
        run(["eval", "--db", db, "--all-runs", "--k", "2", "--format", "json"]).stdout
    )
    assert {r["run"] for r in rows if r["oracle"]} == {"sub"}
    flat = run(["eval", "--db", db, "--all-runs", "--layout", "paper", "--format", "csv"]).stdout
    oracle = {r["run"]: r["oracle"].lower() for r in csv.DictReader(io.StringIO(flat))}
    assert oracle == {"bm25": "false", "dense": "false", "sub": "true"}


def test_pool_bias_warning_names_the_candidate_retriever(db: str) -> None:
    with Store.open(db) as s:
        s.con.execute(
            "INSERT INTO expansions (benchmark, expansion, config) "
            """VALUES ('b', 'default', '{"retriever": "bm25", "depth": 20}')"""
        )
        s.con.execute("UPDATE runs SET retriever = 'bm25' WHERE run_id = 'bm25'")
        s.con.execute("UPDATE runs SET retriever = 'hybrid:wordllama+bm25' WHERE run_id = 'dense'")
    res = run(["eval", "--db", db, "--all-runs", "--format", "json"])
    warnings = [line for line in res.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 2
    assert "run bm25 uses bm25, the retriever that drew the candidates of expansion " in warnings[0]
    assert "pool bias" in warnings[0]
    assert "hybrid:wordllama+bm25, which shares a component with bm25" in warnings[1]
    assert not any(line.startswith("warning:") for line in res.stdout.splitlines())


def test_paper_layout_markdown_and_latex(db: str) -> None:
    _add_subquery_run(db)
    args = ["eval", "--db", db, "--all-runs", "--k", "2", "--layout", "paper"]
    md = run([*args, "--format", "markdown"]).stdout
    header, rule, *body = md.split("\n\n")[0].splitlines()
    assert header.split(" | ")[1:5] == ["Code N@2", "Code R@2", "Code C@2", "Code Δ"]
    assert "Avg N@2" in header and "all" not in header.lower()
    assert [r.split(" | ")[0] for r in body] == ["| bm25", "| dense", "| sub †"]
    bm25 = body[0].split(" | ")
    # Avg recall = the category mean: (100 + 0) / 2 -> (100 + 50) / 2
    assert bm25[header.split(" | ").index("Avg R@2")] == "50.00→75.00"
    assert "Avg = mean of the category means" in md and "oracle-assisted" in md
    tex = run([*args, "--format", "latex"]).stdout
    assert "\\begin{tabular}{lcccccccccccc}" in tex and "\\toprule" in tex
    assert "\\multicolumn{4}{c}{Avg}" in tex and "sub$^\\dagger$ &" in tex
    assert "50.00$\\to$75.00" in tex


def test_paper_only_formats_need_the_paper_layout(db: str) -> None:
    for args, message in (
        (["--format", "latex"], "add --layout paper"),
        (["--layout", "paper", "--per-query"], "long layout only"),
    ):
        res = CliRunner().invoke(cli, ["eval", "--db", db, "--run", "bm25", *args])
        assert res.exit_code == 2 and message in res.output


def test_by_all_is_accepted_as_stats_accepts_it(db: str) -> None:
    """Issue 25, point 12: `eval --by all` was refused while `stats --by all` was accepted and
    its help said "as `eval --by` does". Both take it: the 'all' rows alone."""
    every = json.loads(run(["eval", "--db", db, "--run", "bm25", "--format", "json"]).stdout)
    res = run(["eval", "--db", db, "--run", "bm25", "--by", "all", "--format", "json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert {r["category"] for r in rows} == {"all"} and len(rows) == 3  # nDCG, R, Comp
    assert rows == [r for r in every if r["category"] == "all"]
    table = run(["eval", "--db", db, "--run", "bm25", "--by", "all"]).stdout
    assert "avg (category mean)" not in table and "web" not in table
    stats = run(["stats", "--db", db, "--benchmark", "b", "--by", "all", "--format", "json"])
    assert stats.exit_code == 0 and [r["category"] for r in json.loads(stats.stdout)] == ["all"]
    res = CliRunner().invoke(
        cli, ["eval", "--db", db, "--all-runs", "--by", "all", "--layout", "paper"]
    )
    assert res.exit_code == 2 and "drop --by all" in res.output
