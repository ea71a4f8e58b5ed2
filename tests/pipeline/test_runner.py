"""The whole pipeline on the hand-made benchmark: results, resume, idempotence, failures."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pipeline.fixtures import build
from pipeline.helpers import overlap_search
from toolex.errors import InputError, NoOutcomeError
from toolex.judges.base import DecomposeTask, Judge, Outcome, Outcomes, SubQuery, VerifyTask
from toolex.judges.heuristic import HeuristicJudge
from toolex.pipeline.runner import RunReport, run_expansion
from toolex.pipeline.stats import annotation_rows
from toolex.store import Store

TABLES = (
    "subqueries",
    "candidates",
    "verdicts",
    "combinations",
    "combination_items",
    "dependencies",
    "stage_failures",
)


def snapshot(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    out = {}
    for t in TABLES:
        cols = "* EXCLUDE (failed_at)" if t == "stage_failures" else "*"
        out[t] = sorted(store.con.execute(f"SELECT {cols} FROM {t}").fetchall(), key=repr)
    return out


def expand(store: Store, judge: Judge | None = None, **kw: Any) -> RunReport:
    return run_expansion(store, "b", judge or HeuristicJudge(store), search=overlap_search, **kw)


def test_full_run_expands_q1_and_keeps_q2_original(store: Store) -> None:
    build(store)
    report = expand(store)
    assert report.queries == 2
    valid = store.con.execute(
        "SELECT query_id, list(item_id ORDER BY slot) FROM combinations JOIN combination_items "
        "USING (benchmark, expansion, query_id, combo_id) WHERE status = 'valid' "
        "GROUP BY query_id, combo_id ORDER BY ALL"
    ).fetchall()
    # slot 0: three forecast tools (the delete tool is rejected), slot 1: two converters
    assert len([v for v in valid if v[0] == "q1"]) == 6
    assert [v for v in valid if v[0] == "q2"] == [("q2", ["st::quote"])]
    table = [r._asdict() for r in annotation_rows(store, "b")]
    assert table == [
        {
            "category": "all",
            "queries": 2,
            "subqueries": 3,
            "verified": 6,
            "items_per_sub": 2.0,
            "assembled": 7,
            "rejected_platform": 0,
            "repeated": 0,
            "audited": 5,
            "rejected_audit": 0,
            "cut": 0,
            "pending": 0,
            "valid_combos": 7,
            "alternatives": 5,
            "combos_per_query": 3.5,
            "subs_with_equiv": 0.6667,
            "queries_with_alt": 0.5,
            "dependency_unchecked": 0,
        }
    ]


def test_second_run_changes_nothing(store: Store) -> None:
    build(store)
    expand(store)
    before = snapshot(store)
    report = expand(store)
    assert snapshot(store) == before
    assert all(s.tasks == 0 for s in report.stages if s.stage != "assemble")


class Interrupting(HeuristicJudge):
    """Raises after ``n`` verify outcomes, like a crash mid-stage."""

    def __init__(self, store: Store, n: int) -> None:
        super().__init__(store)
        self.n = n

    def verify(self, tasks: Sequence[VerifyTask]) -> Outcomes:
        for i, outcome in enumerate(super().verify(tasks)):
            if i == self.n:
                raise KeyboardInterrupt
            yield outcome


def test_interrupted_verify_resumes_to_the_same_tables(store: Store, tmp_path: Path) -> None:
    from toolex.store import Store

    build(store)
    expand(store)
    reference = snapshot(store)

    other = Store.open(tmp_path / "o.duckdb")
    build(other)
    with pytest.raises(KeyboardInterrupt):
        expand(other, Interrupting(other, 2))
    done = other.con.execute("SELECT count(*) FROM verdicts WHERE judge = 'heuristic'").fetchall()[
        0
    ]
    assert done == (2,)  # finished outcomes were kept
    expand(other)
    assert snapshot(other) == reference


class WrongK(HeuristicJudge):
    def __init__(self, store: Store, bad: bool = True) -> None:
        super().__init__(store)
        self.bad = bad

    def decompose(self, tasks: Sequence[DecomposeTask]) -> Outcomes:
        for outcome in super().decompose(tasks):
            if self.bad and outcome.key == "q1":
                assert isinstance(outcome.value, list), outcome  # the sub-queries
                yield Outcome("q1", True, outcome.value[:1])
            else:
                yield outcome


def test_wrong_k_is_a_recorded_failure_retried_only_when_asked(store: Store) -> None:
    build(store)
    report = expand(store, WrongK(store), stages=["decompose"])
    assert (report.stages[0].ok, report.stages[0].failed) == (1, 1)
    assert store.con.execute("SELECT task_key, error FROM stage_failures").fetchall() == [
        ("q1", "wrong k: 1 sub-queries for 2 ground-truth tools")
    ]
    assert expand(store, WrongK(store, bad=False), stages=["decompose"]).stages[0].tasks == 0
    report = expand(store, WrongK(store, bad=False), stages=["decompose"], retry_failed=True)
    assert report.stages[0].ok == 1
    assert store.con.execute("SELECT count(*) FROM stage_failures").fetchall()[0] == (0,)
    assert store.con.execute("SELECT count(*) FROM subqueries").fetchall()[0] == (3,)


class Leaky(HeuristicJudge):
    def decompose(self, tasks: Sequence[DecomposeTask]) -> Outcomes:
        for t in tasks:
            yield Outcome(
                t.key,
                True,
                [
                    SubQuery(i, f"call {tool.item_id}", None, None, tool.item_id)
                    for i, tool in enumerate(t.tools)
                ],
            )


def test_a_sub_query_naming_its_tool_is_a_failure(store: Store) -> None:
    build(store)
    report = expand(store, Leaky(store), stages=["decompose"], query_ids=["q2"])
    assert report.stages[0].failed == 1
    assert (
        "names the tool" in store.con.execute("SELECT error FROM stage_failures").fetchall()[0][0]
    )


def test_a_stage_whose_every_task_failed_is_reported_empty(store: Store) -> None:
    """Issue 27, point 4: no outcome is no success; a partial failure is not "empty"."""
    build(store)
    report = expand(store, Leaky(store), stages=["decompose"])
    [empty] = report.empty
    assert (empty.stage, empty.failed) == ("decompose", 2)
    assert [n for _, n in empty.reasons] == [1, 1]
    assert all("names the tool" in error for error, _ in empty.reasons)
    with pytest.raises(NoOutcomeError, match="the decompose stage produced no outcome: all 2"):
        report.require_outcome()
    report = expand(store, WrongK(store, bad=False), stages=["decompose"], retry_failed=True)
    assert report.empty == [] and report.stages[0].ok == 2
    report.require_outcome()  # nothing raised


def test_a_partly_failed_stage_is_not_empty(store: Store) -> None:
    build(store)
    report = expand(store, WrongK(store), stages=["decompose"])
    assert (report.stages[0].ok, report.stages[0].failed, report.empty) == (1, 1, [])


def test_subsets_and_unknown_queries(store: Store) -> None:
    build(store)
    report = expand(store, query_ids=["q2"])
    assert report.queries == 1
    assert store.con.execute("SELECT DISTINCT query_id FROM subqueries").fetchall() == [("q2",)]
    assert expand(store, limit=1).queries == 1
    with pytest.raises(InputError, match="nope"):
        expand(store, query_ids=["nope"])
