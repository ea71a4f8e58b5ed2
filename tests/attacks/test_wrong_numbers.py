"""Issue 27.1, no wrong number from an odd label: stores built only with toolex commands from
label files that repeat a tool in two slots (tests/attacks/label_shapes.py) pass `toolex check`,
and every new (and old) score equals pytrec_eval's on the exported expanded qrels: the max over
the per-combination pseudo-queries, as `toolex export trec-qrels --help` documents it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import pytest
import pytrec_eval

from attacks.conftest import Ran
from attacks.label_shapes import LABELS, RUNS, STORED, WRITERS, write_run
from attacks.tally import Tally
from toolex import metrics
from toolex.exports import read_trec_qrels, read_trec_run
from toolex.store import Store

MEASURES = {"ndcg": "ndcg_cut_10", "recall": "recall_10"}


def _build(toolex: Callable[..., Ran], tmp_path: Path, loader: str) -> tuple[str, dict[str, Path]]:
    """load, expand with the offline judge, import the runs: the commands a user runs."""
    db = str(tmp_path / "s.duckdb")
    ran = toolex(*WRITERS[loader](tmp_path / "in"), "--db", db)
    assert ran.code == 0, ran.err
    ran = toolex("expand", "--benchmark", "b", "--judge", "heuristic", "--db", db, "-q")
    assert ran.code == 0, ran.err
    query_ids = _query_ids(db)
    runs = {}
    for name, ranking in RUNS.items():
        runs[name] = write_run(tmp_path / f"{name}.trec", query_ids, ranking)
        ran = toolex("runs", "import", str(runs[name]), "--run", name, "--benchmark", "b",
                     "--db", db, "-q")  # fmt: skip
        assert ran.code == 0, ran.err
    return db, runs


def _query_ids(db: str) -> list[str]:
    import duckdb

    con = duckdb.connect(db, read_only=True)
    try:
        return [r[0] for r in con.execute("SELECT query_id FROM queries ORDER BY 1").fetchall()]
    finally:
        con.close()


def _pytrec(
    qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]], measure: str
) -> dict[str, float]:
    """pytrec_eval per query: on pseudo-queries q#c, the max over them (the new score)."""
    pseudo = {q: run.get(q.rsplit("#", 1)[0], {}) for q in qrels}
    scores = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(pseudo)
    best: dict[str, float] = defaultdict(float)
    for q, s in scores.items():
        best[q.rsplit("#", 1)[0]] = max(best[q.rsplit("#", 1)[0]], s[measure])
    return dict(best)


@pytest.mark.slow
@pytest.mark.parametrize("loader", list(WRITERS))
def test_stores_built_from_repeated_labels_check_and_score_as_pytrec_eval(
    toolex: Callable[..., Ran], tmp_path: Path, loader: str
) -> None:
    tally = Tally(f"wrong numbers: {loader}")
    db, runs = _build(toolex, tmp_path, loader)
    check = toolex("check", "--db", db)
    tally.record("toolex check", "correct result", wrong=check.code != 0)
    assert check.code == 0, check.out + check.err
    files = {}
    for mode in ("original", "per-combination"):
        files[mode] = tmp_path / f"{mode}.qrels"
        ran = toolex("export", "trec-qrels", "--mode", mode, "--out", str(files[mode]),
                     "--db", db, "-q")  # fmt: skip
        assert ran.code == 0, ran.err
    original, combos = read_trec_qrels(files["original"]), read_trec_qrels(files["per-combination"])
    assert any(not q.endswith("#0") for q in combos), "the expansion found no equivalent"
    with Store.open(db, read_only=True) as store:
        rows = metrics.per_query(store, list(RUNS), ks=(10,)).to_pylist()
    got = {(r["run_id"], r["query_id"], r["metric"]): (r["old"], r["new"]) for r in rows}
    for run_id, path in runs.items():
        run = read_trec_run(path)
        for metric, measure in MEASURES.items():
            old, new = _pytrec(original, run, measure), _pytrec(combos, run, measure)
            for q in original:
                toolex_old, toolex_new = got[(run_id, q, metric)]
                wrong = toolex_old != pytest.approx(old[q]) or toolex_new != pytest.approx(new[q])
                said = f"toolex {toolex_old}/{toolex_new}, pytrec_eval {old[q]}/{new[q]}"
                tally.record(f"{run_id} {q} {metric}: {said}", "correct result", wrong=wrong)
    tally.check()
    if loader == "plain":  # the repro, to the digit
        assert got[("cur-post", "repro", "ndcg")][1] == pytest.approx(0.8597186998521972)


@pytest.mark.parametrize("loader", ["plain", "plain --map"])
def test_a_repeated_label_keeps_dense_slots_and_its_highest_grade(
    toolex: Callable[..., Ran], tmp_path: Path, loader: str
) -> None:
    db = str(tmp_path / "s.duckdb")
    ran = toolex(*WRITERS[loader](tmp_path / "in"), "--db", db)
    assert ran.code == 0, ran.err
    assert "qrel(s) repeat a (query id, item id) pair" in ran.err
    assert "1 dependency edge(s) joined two qrels merged into one" in ran.err
    import duckdb

    con = duckdb.connect(db, read_only=True)
    stored = defaultdict(list)
    for q, item, rel, slot in con.execute(
        "SELECT query_id, item_id, relevance, slot FROM qrels ORDER BY query_id, slot"
    ).fetchall():
        stored[q].append((item, rel, slot))
    edges = con.execute(
        "SELECT query_id, producer_slot, consumer_slot, value FROM dependency_edges"
    ).fetchall()
    con.close()
    assert dict(stored) == STORED
    assert set(stored) == set(LABELS)
    assert edges == [("edges", 0, 1, "forecast" if loader == "plain" else "")]


def test_check_names_a_store_whose_slots_have_a_gap(
    toolex: Callable[..., Ran], tmp_path: Path
) -> None:
    """A store loaded before the fix (slots 0, 2 after a merge) fails `toolex check` by name."""
    db = str(tmp_path / "s.duckdb")
    assert toolex(*WRITERS["plain"](tmp_path / "in"), "--db", db).code == 0
    import duckdb

    con = duckdb.connect(db)
    con.execute("UPDATE qrels SET slot = 2 WHERE query_id = 'repro' AND slot = 1")
    con.close()
    ran = toolex("check", "--db", db, "--format", "json")
    assert ran.code == 1
    assert "qrels_slots_dense" in ran.out and "repro" in ran.out


def test_toolret_merges_a_repeated_label_as_plain_does(
    toolex: Callable[..., Ran], tmp_path: Path
) -> None:
    """ToolRet refused a tool listed twice in one query's labels; it now follows the same rule."""
    db = str(tmp_path / "s.duckdb")
    ran = toolex(*WRITERS["toolret"](tmp_path / "in"), "--db", db)
    assert ran.code == 0, ran.err
    assert "7 qrel(s) repeat a tool within a query" in ran.err
    import duckdb

    con = duckdb.connect(db, read_only=True)
    stored = defaultdict(list)
    for q, item, rel, slot in con.execute(
        "SELECT query_id, item_id, relevance, slot FROM qrels ORDER BY query_id, slot"
    ).fetchall():
        stored[q].append((item, rel, slot))
    con.close()
    assert dict(stored) == STORED
