"""Issue 15: `toolex eval` speaks the IR ecosystem's language (ir_measures names, trec_eval
semantics checked against pytrec_eval), scores run files with no benchmark loaded, compares runs
as ranx does (paired test, Holm correction), and prints tables like every other command."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pytest
import pytrec_eval
from click.testing import CliRunner, Result

from toolex.cli import cli
from toolex.runs.plain import plain_scoring
from toolex.store import Store

L3 = math.log2(3)
QRELS = {"q1": {"a": 1, "c": 2}, "q2": {"b": 1}, "q3": {"d": 1}}
RUN = {"q1": {"x": 3.0, "a": 2.0, "c": 1.0}, "q2": {"b": 1.0, "y": 0.5}, "q3": {"z": 1.0}}


def run(args: list[str]) -> Result:
    result = CliRunner().invoke(cli, args)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    qrels = tmp_path / "test.qrels"
    qrels.write_text(
        "".join(f"{q} 0 {d} {r}\n" for q, docs in QRELS.items() for d, r in docs.items())
        + "q1 0 a 1\n"  # a repeated pair, as BEIR files have them: merged
    )
    trec = tmp_path / "bm25.trec"
    lines = []
    for q, docs in RUN.items():
        ranked = sorted(docs, key=lambda d: -docs[d])
        lines += [f"{q} Q0 {d} {i} {docs[d]} bm25\n" for i, d in enumerate(ranked, 1)]
    trec.write_text("".join(lines))
    return qrels, trec


def test_run_file_against_a_qrels_file_matches_pytrec_eval(files: tuple[Path, Path]) -> None:
    qrels, trec = files
    res = run(
        ["eval", "--run-file", str(trec), "--qrels-file", str(qrels), "--format", "json"]
        + ["-m", "nDCG@2", "-m", "R@2", "-m", "P@2", "-m", "RR", "-m", "AP@3"]
    )
    assert res.exit_code == 0, res.output
    got = {r["metric"]: r["old"] for r in json.loads(res.stdout) if r["category"] == "all"}
    assert set(got) == {"nDCG@2", "R@2", "P@2", "RR", "AP@3"}
    ev = pytrec_eval.RelevanceEvaluator(
        QRELS, {"ndcg_cut.2", "recall.2", "P.2", "recip_rank", "map_cut.3"}
    )
    per = ev.evaluate(RUN)
    want = {
        "nDCG@2": "ndcg_cut_2",
        "R@2": "recall_2",
        "P@2": "P_2",
        "RR": "recip_rank",
        "AP@3": "map_cut_3",
    }
    for name, measure in want.items():
        mean = sum(per[q][measure] for q in QRELS) / len(QRELS)
        assert got[name] == pytest.approx(mean, abs=1e-9), name
    assert "1 qrels line(s) repeat" in res.stderr


def test_plain_files_with_tabs_and_crlf_match_pytrec_eval(files: tuple[Path, Path]) -> None:
    """Files with nothing to merge or decode are read by DuckDB (toolex.runs.plain): tabs, runs
    of spaces and CRLF split as line.split() splits them."""
    qrels, trec = files
    qrels.write_text(
        "".join(f"{q}\t0  {d} {r}\r\n" for q, docs in QRELS.items() for d, r in docs.items())
    )
    trec.write_text(trec.read_text().replace(" Q0 ", "\tQ0\t \t").replace("\n", " \r\n"))
    res = run(["eval", "--run-file", str(trec), "--qrels-file", str(qrels), "--format", "json"]
              + ["-m", "nDCG@2", "-m", "AP@3"])  # fmt: skip
    assert res.exit_code == 0, res.output
    got = {r["metric"]: r["old"] for r in json.loads(res.stdout) if r["category"] == "all"}
    per = pytrec_eval.RelevanceEvaluator(QRELS, {"ndcg_cut.2", "map_cut.3"}).evaluate(RUN)
    for name, measure in (("nDCG@2", "ndcg_cut_2"), ("AP@3", "map_cut_3")):
        mean = sum(per[q][measure] for q in QRELS) / len(QRELS)
        assert got[name] == pytest.approx(mean, abs=1e-9), name
    assert "repeat" not in res.stderr
    plain = plain_scoring(qrels, [trec], ["bm25"], "qrels")  # the way it was scored
    assert plain is not None
    plain[0].close()


def test_run_file_against_a_stored_expansion_writes_nothing(
    files: tuple[Path, Path], tmp_path: Path
) -> None:
    _, trec = files
    db = str(tmp_path / "s.duckdb")
    with Store.open(db) as s:
        c = s.con
        c.execute("INSERT INTO benchmarks (benchmark, format, source) VALUES ('b', 'plain', 'x')")
        for q in QRELS:
            c.execute("INSERT INTO queries (benchmark, query_id, text) VALUES ('b', ?, 'x')", [q])
        c.execute("INSERT INTO qrels VALUES ('b', 'q3', 'd', 1, 0)")
        c.execute(
            "INSERT INTO combinations (benchmark, expansion, query_id, combo_id, status) "
            "VALUES ('b', 'default', 'q3', 1, 'valid')"
        )
        c.execute("INSERT INTO combination_items VALUES ('b', 'default', 'q3', 1, 0, 'z')")
    res = run(
        ["eval", "--db", db, "--run-file", str(trec), "--benchmark", "b", "--format", "json"]
        + ["-m", "R@1"]
    )
    assert res.exit_code == 0, res.output
    (row,) = [r for r in json.loads(res.stdout) if r["category"] == "all"]
    assert (row["old"], row["new"]) == (0.0, 1.0)  # z, q3's valid equivalent, is at rank 1
    with Store.open(db, read_only=True) as s:
        assert s.runs() == []  # scored in TEMP tables: the store is as it was


def _two_runs(tmp_path: Path) -> str:
    db = str(tmp_path / "c.duckdb")
    with Store.open(db) as s:
        c = s.con
        c.execute("INSERT INTO benchmarks (benchmark, format, source) VALUES ('b', 'plain', 'x')")
        c.execute("INSERT INTO runs (run_id, benchmark, level) VALUES ('good', 'b', 'query')")
        c.execute("INSERT INTO runs (run_id, benchmark, level) VALUES ('bad', 'b', 'query')")
        c.execute("INSERT INTO runs (run_id, benchmark, level) VALUES ('mid', 'b', 'query')")
        for n in range(10):
            q = f"q{n}"
            c.execute(
                "INSERT INTO queries (benchmark, query_id, category, text) VALUES ('b', ?, ?, 'x')",
                [q, "c1" if n % 2 else "c2"],
            )
            c.execute("INSERT INTO qrels VALUES ('b', ?, 'gt', 1, 0)", [q])
            c.execute("INSERT INTO run_results VALUES ('good', ?, 'gt', 1.0, 1)", [q])
            c.execute("INSERT INTO run_results VALUES ('bad', ?, 'zz', 1.0, 1)", [q])
            hit = "gt" if n % 2 else "zz"
            c.execute("INSERT INTO run_results VALUES ('mid', ?, ?, 1.0, 1)", [q, hit])
    return db


def test_compare_tests_every_pair_with_holm_correction(tmp_path: Path) -> None:
    db = _two_runs(tmp_path)
    res = run(
        ["eval", "--db", db, "--run", "good", "--run", "bad", "--run", "mid", "--compare"]
        + ["-m", "nDCG@1", "--format", "csv"]
    )
    assert res.exit_code == 0, res.output
    rows = [r for r in csv.DictReader(io.StringIO(res.stdout)) if r["measure"] == "old"]
    pairs = {(r["run_a"], r["run_b"]): r for r in rows}
    assert set(pairs) == {("good", "bad"), ("good", "mid"), ("bad", "mid")}
    gb = pairs[("good", "bad")]
    # 10 queries all +1: the exact sign-flip test gives 2 / 2^10; Holm multiplies the smallest
    # of the three p-values by 3
    assert float(gb["mean_diff"]) == 1.0
    assert float(gb["p_value"]) == pytest.approx(2 / 2**10)
    assert float(gb["p_holm"]) == pytest.approx(3 * 2 / 2**10)
    assert gb["significant"] == "true" and gb["metric"] == "nDCG@1"
    p = sorted(float(r["p_value"]) for r in rows)
    holm = sorted(float(r["p_holm"]) for r in rows)
    # Holm: the i-th smallest becomes max over j <= i of min(1, (m - j + 1) * p_j)
    steps = [min(1.0, (3 - j) * p[j]) for j in range(3)]
    assert holm == pytest.approx([max(steps[: i + 1]) for i in range(3)])


def test_per_query_table_drops_constant_columns_and_the_empty_line_only_when_needed(
    tmp_path: Path,
) -> None:
    db = _two_runs(tmp_path)
    res = run(["eval", "--db", db, "--run", "mid", "--per-query", "--k", "1"])
    per_query = res.stdout[res.stdout.index("per query") :]
    header = next(line for line in per_query.splitlines() if "query" in line and "old" in line)
    assert "n_queries" not in header and "run" not in header.split()  # constant: in the title
    assert "run mid" in per_query and "k 1" in per_query
    assert "had no results" not in res.stderr  # every query has results: no "0 of 10" line
