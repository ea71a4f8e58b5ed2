"""Importing labels: checked against the store (every problem located), all-or-nothing, a source
imported again replaces itself, import -> export -> import round trips; labels without a
sub-query take the expansion's, else a decomposition that writes nothing."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from duckdb import DuckDBPyConnection
from pipeline.fixtures import build

from toolex.errors import ToolexError
from toolex.judges import make_judge
from toolex.judges.base import Judge
from toolex.labels import LabelErrors, export_labels, import_labels, stored_labels
from toolex.labels.records import read_labels
from toolex.labels.table import checked_labels
from toolex.labels.tasks import label_tasks, rank_band
from toolex.sqlrunner import Params
from toolex.store import Store

SMALL = Path(__file__).parent / "data" / "small.jsonl"
GOOD = {
    "benchmark": "b",
    "query_id": "q1",
    "reference": "wx_a::forecast",
    "candidate": "wx_b::forecast",
    "label": "yes",
}


@pytest.fixture
def bench(store: Store) -> Store:
    build(store)
    return store


def write_jsonl(path: Path, records: Sequence[object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def count(
    store: Store,
    sql: str = "SELECT count(*) FROM labels",
) -> int:
    n: int = store.con.execute(sql).fetchall()[0][0]
    return n


def test_store_problems_are_located_and_nothing_is_written(bench: Store, tmp_path: Path) -> None:
    records = [
        GOOD,
        {**GOOD, "benchmark": "bb"},
        {**GOOD, "query_id": "q9"},
        {**GOOD, "reference": "nope::x"},
        {**GOOD, "candidate": "nope::y"},
        {**GOOD, "reference": "cv::c2f", "query_id": "q2", "candidate": "cv2::c2f"},
        {**GOOD, "candidate": "wx_c::forecast", "slot": 1},
        {**GOOD, "candidate": "cv2::c2f", "slot": 0},
    ]
    path = write_jsonl(tmp_path / "l.jsonl", records)
    with pytest.raises(LabelErrors) as exc:
        import_labels(bench, path)
    got = [(e.line, e.field, e.message) for e in exc.value.errors]
    assert [(line, field) for line, field, _ in got] == [
        (2, "benchmark"),
        (3, "query_id"),
        (4, "reference"),
        (5, "candidate"),
        (6, "reference"),
        (7, "slot"),
    ]
    assert "did you mean 'b'" in got[0][2]  # the Store's one wording
    assert "no query 'q9' in benchmark 'b'" in got[1][2]
    assert "not a ground-truth item of query 'q2' (its ground truth: st::quote)" in got[4][2]
    assert "'wx_a::forecast' is slot 0" in got[5][2]
    assert count(bench) == 0  # the sound rows were not written either


def test_import_is_atomic_and_a_source_replaces_itself(bench: Store, tmp_path: Path) -> None:
    result = import_labels(bench, SMALL, source="set1")
    assert (result.labels, result.yes, result.replaced) == (7, 3, {"set1": 0})
    assert "imported 7 labels (3 yes, 4 no) of source set1" in result.summary()
    import_labels(bench, SMALL, source="set2")
    assert count(bench) == 14

    # a corrected set1 with one bad record: nothing changes
    fewer = write_jsonl(tmp_path / "fewer.jsonl", [GOOD, {**GOOD, "candidate": "cv2::c2f"}])
    broken = write_jsonl(tmp_path / "broken.jsonl", [GOOD, {**GOOD, "candidate": "nope"}])
    with pytest.raises(LabelErrors):
        import_labels(bench, broken, source="set1")
    assert count(bench, "SELECT count(*) FROM labels WHERE source = 'set1'") == 7

    again = import_labels(bench, fewer, source="set1")
    assert again.replaced == {"set1": 7}
    assert "replaced 7 earlier labels of set1" in again.summary()
    assert count(bench, "SELECT count(*) FROM labels WHERE source = 'set1'") == 2
    assert count(bench, "SELECT count(*) FROM labels WHERE source = 'set2'") == 7


def test_a_failed_write_leaves_the_store_as_it_was(
    bench: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    import_labels(bench, SMALL, source="set1")
    real = bench.execute

    def failing(name: str, params: Params | None = None) -> DuckDBPyConnection:
        if name == "labels/22_insert_labels.sql":
            raise RuntimeError("disk full")
        return real(name, params)

    monkeypatch.setattr(bench, "execute", failing)
    with pytest.raises(RuntimeError):
        import_labels(bench, SMALL, source="set1")
    monkeypatch.undo()
    assert count(bench) == 7  # the delete of the old set1 was rolled back


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_import_export_import_round_trip(bench: Store, tmp_path: Path, fmt: str) -> None:
    import_labels(bench, SMALL)
    first = stored_labels(bench)
    assert {label.source for label in first} == {"small.jsonl"}
    out = tmp_path / f"export.{fmt}"
    assert export_labels(bench, out, source="small.jsonl") == 7
    bench.con.execute("DELETE FROM labels")
    import_labels(bench, out)  # each record names its source: small.jsonl again
    second = stored_labels(bench)
    strip = [{**lab.record(), "labelled_at": None} for lab in first]
    assert [{**lab.record(), "labelled_at": None} for lab in second] == strip
    original = {json.dumps(lab.record(), sort_keys=True) for lab, _ in read_labels(SMALL)[0]}
    assert {json.dumps(lab.record(), sort_keys=True) for lab in second} == original


def test_export_of_an_unknown_source_names_the_known_ones(bench: Store, tmp_path: Path) -> None:
    import_labels(bench, SMALL, source="set1")
    with pytest.raises(ToolexError, match="no label source named 'set2'.*did you mean 'set1'"):
        export_labels(bench, tmp_path / "x.jsonl", source="set2")


def test_the_shipped_set_needs_both_benchmarks(bench: Store) -> None:
    from toolex.labels.records import SHIPPED

    with pytest.raises(ToolexError) as exc:
        checked_labels(bench, SHIPPED)
    assert "toolex load toolret ../shared/data/toolret" in str(exc.value)
    assert "toolex load stabletoolbench ../shared/data/stabletoolbench" in str(exc.value)


def decomposer(store: Store) -> Callable[[Any], Judge]:
    return lambda benchmark: make_judge("heuristic", store, benchmark=benchmark)


def test_resolution_without_a_subquery(bench: Store) -> None:
    labels, _ = checked_labels(bench, SMALL)
    tables = ("subqueries", "candidates", "verdicts", "stage_failures", "expansions")

    # the default, as an expansion runs: every label's step is decomposed in memory, nothing is
    # written, the two labels of q2 sharing one sub-query
    lt = label_tasks(bench, labels, decomposer=decomposer(bench))
    q2 = [t for t in lt.tasks if t.query_id == "q2"]
    assert len(q2) == 2 and q2[0].task.subquery and q2[0].task.subquery == q2[1].task.subquery
    assert lt.origins() == {"decomposed": 7}
    for table in tables:
        assert count(bench, f"SELECT count(*) FROM {table}") == 0, table
    # --subqueries labels: the label's own sub-query where it has one (a diagnostic)
    lt = label_tasks(bench, labels, decomposer=decomposer(bench), subqueries="labels")
    assert lt.origins() == {"label": 5, "decomposed": 2}

    # once the expansion holds a sub-query for (q2, st::quote) it is used by --subqueries labels
    # where the label has none, and by --subqueries expansion wherever there is one
    bench.con.execute(
        "INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, reference, judge) "
        "VALUES ('b', 'default', 'q2', 0, 'Look up a stock quote', 'st::quote', 'import'), "
        "('b', 'default', 'q1', 1, 'Turn celsius into fahrenheit', 'cv::c2f', 'import')"
    )
    lt = label_tasks(bench, labels, decomposer=decomposer(bench), subqueries="labels")
    assert {t.task.subquery for t in lt.tasks if t.query_id == "q2"} == {"Look up a stock quote"}
    assert lt.origins() == {"label": 5, "expansion": 2}
    lt = label_tasks(bench, labels, decomposer=decomposer(bench), subqueries="expansion")
    assert lt.origins() == {"expansion": 4, "decomposed": 3}  # q1 slot 0 has none: decomposed
    slot0 = [t.task.subquery for t in lt.tasks if t.slot == 0 and t.query_id == "q1"]
    assert len(set(slot0)) == 1 and slot0[0] != "Get the weather forecast for a city"
    assert label_tasks(bench, labels, decomposer=decomposer(bench)).origins() == {"decomposed": 7}


def test_strata_of_a_task(bench: Store) -> None:
    labels, _ = checked_labels(bench, SMALL)
    lt = label_tasks(bench, labels, decomposer=decomposer(bench))
    strata = {(t.task.reference.item_id, t.task.candidate.item_id): t.strata for t in lt.tasks}
    assert strata[("wx_a::forecast", "wx_b::forecast")] == {
        "benchmark": "b",
        "part": "weather",
        "rank band": "rank 1-3",
    }
    assert strata[("cv::c2f", "cv2::c2f")]["rank band"] == "near-duplicate"
    # no stratum: the query's category, and no rank anywhere
    assert strata[("st::quote", "cv2::c2f")] == {
        "benchmark": "b",
        "part": "G1",
        "rank band": "unranked",
    }
    assert rank_band({"rank": 15}, None) == "rank 11-20"
    assert rank_band(None, 4) == "rank 4-10"
    assert rank_band({"candidate_source": "pool"}, 30) == "rank 21+"
