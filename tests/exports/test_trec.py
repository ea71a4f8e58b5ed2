"""TREC exports load in ranx and pytrec_eval and give toolex.metrics' scores: old through the
original qrels, new as the max over the per-combination qrels. Runs round-trip through the runs
import."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import pytrec_eval
from references import ranx_nojit

from toolex import metrics
from toolex.exports import (
    export_trec_qrels,
    export_trec_run,
    read_trec_qrels,
    read_trec_run,
)
from toolex.runs import import_run
from toolex.store import Store

RUNS = ("bm25", "bm25-ft", "sub-bm25")
K = 3
OLD, NEW = ["ndcg@3", "recall@3"], ["ndcg@3"]  # what ranx is asked for, old and new


@pytest.fixture
def files(fixture_store: Store, tmp_path: Path) -> dict[str, Path]:
    out = {"original": tmp_path / "orig.qrels", "combos": tmp_path / "combos.qrels"}
    export_trec_qrels(fixture_store, out["original"], mode="original")
    export_trec_qrels(fixture_store, out["combos"], mode="per-combination")
    for run in RUNS:
        out[run] = tmp_path / f"{run}.run"
        export_trec_run(fixture_store, out[run], run)
    return out


def _expected(store: Store) -> dict[tuple[Any, Any, Any], tuple[Any, Any]]:
    rows = metrics.per_query(store, list(RUNS), ks=(K,)).to_pylist()
    return {(r["run_id"], r["query_id"], r["metric"]): (r["old"], r["new"]) for r in rows}


def _per_combination_run(
    run: dict[str, dict[str, float]], combo_qrels: dict[str, dict[str, int]]
) -> dict[Any, Any]:
    """The run's list for query q, repeated under every pseudo-query q#c."""
    return {qc: run.get(qc.rsplit("#", 1)[0], {}) for qc in combo_qrels}


def _max_per_query(scores: dict[str, float]) -> defaultdict[str, float]:
    best: defaultdict[str, float] = defaultdict(float)
    for qc, value in scores.items():
        q = qc.rsplit("#", 1)[0]
        best[q] = max(best[q], value)
    return best


def test_pytrec_eval_gives_toolex_scores(fixture_store: Store, files: dict[str, Path]) -> None:
    expected = _expected(fixture_store)
    original = read_trec_qrels(files["original"])
    combos = read_trec_qrels(files["combos"])
    for run_id in RUNS:
        run = read_trec_run(files[run_id])
        old = pytrec_eval.RelevanceEvaluator(original, {"ndcg_cut_3", "recall_3"}).evaluate(run)
        per_combo = pytrec_eval.RelevanceEvaluator(combos, {"ndcg_cut_3", "recall_3"}).evaluate(
            _per_combination_run(run, combos)
        )
        new_ndcg = _max_per_query({q: s["ndcg_cut_3"] for q, s in per_combo.items()})
        new_recall = _max_per_query({q: s["recall_3"] for q, s in per_combo.items()})
        new_comp = _max_per_query({q: float(s["recall_3"] == 1.0) for q, s in per_combo.items()})
        for q in original:
            assert expected[(run_id, q, "ndcg")][0] == pytest.approx(old[q]["ndcg_cut_3"])
            assert expected[(run_id, q, "recall")][0] == pytest.approx(old[q]["recall_3"])
            assert expected[(run_id, q, "comp")][0] == float(old[q]["recall_3"] == 1.0)
            assert expected[(run_id, q, "ndcg")][1] == pytest.approx(new_ndcg[q])
            assert expected[(run_id, q, "recall")][1] == pytest.approx(new_recall[q])
            assert expected[(run_id, q, "comp")][1] == new_comp[q]


def test_ranx_gives_toolex_means(fixture_store: Store, files: dict[str, Path]) -> None:
    """ranx reads the TREC files itself; it runs in a child with numba's JIT off (ranx_nojit)."""
    summary = metrics.summary(fixture_store, list(RUNS), ks=(K,))
    means = {(r.run_id, r.metric): (r.old, r.new) for r in summary if r.group == "all"}
    combos = read_trec_qrels(files["combos"])
    asked = []
    for run_id in RUNS:
        original = {"file": str(files["original"])}
        asked.append(ranx_nojit.evaluate_request(original, {"file": str(files[run_id])}, OLD))
        expanded = _per_combination_run(read_trec_run(files[run_id]), combos)
        asked.append(
            ranx_nojit.evaluate_request({"data": combos}, {"data": expanded}, NEW, mean=False)
        )
    answers = iter(ranx_nojit.call(asked))
    for run_id in RUNS:
        old, new = next(answers), next(answers)
        assert means[(run_id, "ndcg")][0] == pytest.approx(old["ndcg@3"])
        assert means[(run_id, "recall")][0] == pytest.approx(old["recall@3"])
        best = _max_per_query(dict(zip(new["keys"], new["ndcg@3"], strict=True)))
        assert means[(run_id, "ndcg")][1] == pytest.approx(sum(best.values()) / len(best))


def test_ir_measures_reads_the_files(fixture_store: Store, files: dict[str, Path]) -> None:
    import ir_measures
    from ir_measures import R, nDCG

    expected = _expected(fixture_store)
    qrels = list(ir_measures.read_trec_qrels(str(files["original"])))
    run = list(ir_measures.read_trec_run(str(files["bm25"])))
    for m in ir_measures.iter_calc([nDCG @ 3, R @ 3], qrels, run):
        metric = "ndcg" if str(m.measure) == "nDCG@3" else "recall"
        assert expected[("bm25", m.query_id, metric)][0] == pytest.approx(m.value)


def test_flat_mode_is_the_union(fixture_store: Store, tmp_path: Path) -> None:
    path = tmp_path / "flat.qrels"
    assert export_trec_qrels(fixture_store, path, mode="flat") == 11
    assert read_trec_qrels(path)["q2"] == {"w3": 1, "w4": 1, "w5": 1}


def test_run_round_trips_through_the_runs_import(
    fixture_store: Store, files: dict[str, Path]
) -> None:
    import_run(fixture_store, files["bm25"], run="bm25-copy", benchmark="toolret", fmt="trec")
    rows = fixture_store.con.execute(
        "SELECT a.query_id, a.item_id, a.rank, a.score, b.rank, b.score FROM run_results a "
        "FULL JOIN run_results b ON b.query_id = a.query_id AND b.item_id = a.item_id "
        "AND b.run_id = 'bm25-copy' WHERE a.run_id = 'bm25'"
    ).fetchall()
    assert len(rows) == 84
    assert all(r[2] == r[4] and r[3] == r[5] for r in rows)


def test_unknown_run_is_named(fixture_store: Store, tmp_path: Path) -> None:
    from toolex.errors import ToolexError

    with pytest.raises(ToolexError, match="no run named 'nope'.*bm25"):
        export_trec_run(fixture_store, tmp_path / "x.run", "nope")
    with pytest.raises(ToolexError, match="did you mean 'bm25'"):
        export_trec_run(fixture_store, tmp_path / "x.run", "bm52")


def test_per_combination_qrels_round_trip_through_the_combinations_import(
    fixture_store: Store, files: dict[str, Path]
) -> None:
    """TREC has no slot column: file order is slot order, which the import assumes."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from toolex.expansions.combinations import import_combinations
    from toolex.exports import export_qrels

    rows = []
    for line in files["combos"].read_text().splitlines():
        qc, _, item, _rel = line.split()
        query_id, combo = qc.rsplit("#", 1)
        rows.append({"query_id": query_id, "combo_id": int(combo), "item_id": item})
    members = files["combos"].with_suffix(".parquet")
    pq.write_table(pa.Table.from_pylist(rows), members)
    import_combinations(fixture_store, members, benchmark="toolret", expansion="from-trec")
    a, b = files["combos"].with_suffix(".a.parquet"), files["combos"].with_suffix(".b.parquet")
    export_qrels(fixture_store, a, valid_only=True)
    export_qrels(fixture_store, b, expansion="from-trec", valid_only=True)
    key = ("query_id", "combo_id", "slot", "item_id")
    got = [sorted(tuple(r[k] for k in key) for r in pq.read_table(p).to_pylist()) for p in (a, b)]
    assert got[0] == got[1]
