"""Issue 26.7: training triples whose hard negatives are never verified equivalents, on the
report fixture (tests/reports/fixtures.py): hand-computed negatives from the candidate pool and
from a run, the sentence-transformers JSONL and the Parquet form."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from reports.fixtures import ACCEPTED

from toolex.errors import InputError, ToolexError
from toolex.exports.triples import export_triples, training_triples
from toolex.store import Store


def negatives(table: pa.Table, query_id: str, slot: int | None = None) -> list[object]:
    return [
        r["negative_id"]
        for r in table.to_pylist()
        if r["query_id"] == query_id and r["slot"] == slot
    ]


def test_pool_negatives_leave_out_the_ground_truth_and_every_equivalent(
    fixture_store: Store,
) -> None:
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


def test_run_negatives_are_its_best_ranked_non_equivalents(fixture_store: Store) -> None:
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


def test_subquery_level_uses_each_step_s_own_list(fixture_store: Store) -> None:
    table = training_triples(fixture_store, level="subquery")
    assert negatives(table, "q1", 0) == ["w3"]
    anchors = {r["anchor"] for r in table.to_pylist()}
    assert "What is the weather in Paris tomorrow? (part 1)" in anchors


def test_jsonl_is_what_sentence_transformers_reads(fixture_store: Store, tmp_path: Path) -> None:
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


def test_bad_requests_write_nothing(fixture_store: Store, tmp_path: Path) -> None:
    out = tmp_path / "out"
    with pytest.raises(InputError, match="name the file .parquet or .jsonl"):
        export_triples(fixture_store, out / "t.csv")
    with pytest.raises(InputError, match="--level must be one of"):
        training_triples(fixture_store, level="slot")
    fixture_store.con.execute("DELETE FROM candidates")
    with pytest.raises(ToolexError, match="no triples: the candidate pool"):
        export_triples(fixture_store, out / "t.parquet")
    assert not out.exists()


def equivalents_anywhere(store: Store) -> set[tuple[str, str]]:
    """(a, b) for every pair of items the store holds as equivalent, in either direction: an
    accepted verdict (reference, candidate) of any query and expansion, a valid combination's
    member and the ground truth of its slot, a person's 'yes' label."""
    pairs = store.con.execute(
        "SELECT s.reference, v.item_id FROM verdicts v "
        "JOIN subqueries s USING (benchmark, expansion, query_id, slot) WHERE v.accepted "
        "UNION SELECT g.item_id, ci.item_id FROM combination_items ci "
        "JOIN combinations c USING (benchmark, expansion, query_id, combo_id) "
        "JOIN qrels g ON g.benchmark = ci.benchmark AND g.query_id = ci.query_id "
        "AND g.slot = ci.slot WHERE c.status = 'valid' "
        "UNION SELECT reference, candidate FROM labels WHERE label = 'yes'"
    ).fetchall()
    return {(a, b) for a, b in pairs} | {(b, a) for a, b in pairs}


def assert_no_equivalent_negative(store: Store, table: pa.Table) -> None:
    truth: dict[str, set[str]] = {}
    for q, i in store.con.execute("SELECT query_id, item_id FROM qrels").fetchall():
        truth.setdefault(q, set()).add(i)
    pairs = equivalents_anywhere(store)
    bad = [
        (r["query_id"], r["negative_id"])
        for r in table.to_pylist()
        if any((g, r["negative_id"]) in pairs for g in truth[r["query_id"]])
    ]
    assert bad == []


def test_an_equivalent_of_the_reference_in_another_query_is_never_a_negative(
    fixture_store: Store,
) -> None:
    """Issue 35.2, trap one: the verifier accepted w7 for w6 in another query (q7), and in q3,
    whose ground truth is w6, w7 was the pool's only negative; and q6 accepted c1 for c5, so
    for q4 (ground truth c1) c5 does the job too (either direction)."""
    con = fixture_store.con
    con.execute(
        "INSERT INTO queries (benchmark, query_id, task, category, text) "
        "VALUES ('toolret', 'q7', 'apibank', 'web', 'Euros to dollars, please')"
    )
    con.execute("INSERT INTO qrels VALUES ('toolret', 'q7', 'w6', 1, 0)")
    con.execute(
        "INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, reference) "
        "VALUES ('toolret', 'default', 'q7', 0, 'convert euros', 'w6')"
    )
    con.execute(
        "INSERT INTO verdicts (benchmark, expansion, query_id, slot, item_id, accepted, "
        "judge) VALUES ('toolret', 'default', 'q7', 0, 'w7', true, 'heuristic')"
    )
    pool = training_triples(fixture_store)
    assert negatives(pool, "q3") == []  # was ["w7"]
    run = training_triples(fixture_store, run_id="bm25")
    assert "w7" not in negatives(run, "q3") and "c5" not in negatives(run, "q4")
    assert negatives(run, "q4") == ["c9", "c8", "c3", "c4", "c7"]  # was c9 c8 c3 c4 c5
    assert_no_equivalent_negative(fixture_store, run)
    sub = training_triples(fixture_store, run_id="sub-bm25", level="subquery")
    assert_no_equivalent_negative(fixture_store, sub)


def test_a_labelled_substitute_is_never_a_negative_whatever_the_expansion(
    fixture_store: Store, tmp_path: Path
) -> None:
    """Issue 35.2, trap two: SkillRet's substitutable labels are the valid combinations of the
    expansion `substitutable`; exporting `default` made them hard negatives. Here w3 is q1's
    substitute, and a person labelled w9 a 'yes' for w1."""
    from toolex.expansions.combinations import import_combinations

    path = tmp_path / "substitutes.jsonl"
    path.write_text(json.dumps({"query_id": "q1", "combo_id": 1, "item_id": "w3"}) + "\n")
    import_combinations(fixture_store, path, benchmark="toolret", expansion="substitutable")
    fixture_store.con.execute(
        "INSERT INTO labels (benchmark, query_id, reference, candidate, label, labeller, source) "
        "VALUES ('toolret', 'q1', 'w1', 'w9', 'yes', 'ann', 'test')"
    )
    assert negatives(training_triples(fixture_store), "q1") == []  # was ["w3"]
    run = training_triples(fixture_store, run_id="bm25", negatives=2)
    assert negatives(run, "q1") == ["w4", "w5"]  # was w9 w3
    assert_no_equivalent_negative(fixture_store, run)


def test_skillret_substitutes_are_not_negatives_of_the_pipelines_expansion(tmp_path: Path) -> None:
    """The loader's own path, end to end: `load skillret` imports sq4's substitute
    (git-commit-review for pre-commit-lint) into `substitutable`; the offline judge's `default`
    expansion accepts nothing. Before, sq4 trained against git-commit-review, and sq1 (whose
    ground truth it is) against pre-commit-lint."""
    from click.testing import CliRunner

    from toolex.cli import cli
    from toolex.judges.heuristic import HeuristicJudge
    from toolex.pipeline.runner import run_expansion
    from toolex.store import Store

    db = str(tmp_path / "s.duckdb")
    data = Path(__file__).resolve().parents[1] / "data" / "skillret"
    assert CliRunner().invoke(cli, ["load", "skillret", str(data), "--db", db]).exit_code == 0
    with Store.open(db) as store:
        run_expansion(store, "skillret", HeuristicJudge(store, benchmark="skillret"))
        table = training_triples(store, "skillret")
        assert_no_equivalent_negative(store, table)
    pairs = {(r["query_id"], r["negative_id"]) for r in table.to_pylist()}
    assert ("sq4", "git-commit-review") not in pairs and ("sq1", "pre-commit-lint") not in pairs
    assert ("sq4", "pdf-merge") in pairs  # the rest of the pool stays


@pytest.mark.shared_data
@pytest.mark.parametrize("level", ["query", "subquery"])
def test_no_negative_is_an_equivalent_on_the_shared_expansion(
    stb_expansion: Store, level: str
) -> None:
    """On the shared StableToolBench expansion, where the old export took 33 of 8,975 rows (whole
    benchmark, query level) from tools accepted for the same reference in another query."""
    table = training_triples(stb_expansion, "stabletoolbench", level=level)
    assert table.num_rows > 0
    assert_no_equivalent_negative(stb_expansion, table)
