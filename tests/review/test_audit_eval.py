"""`toolex judges eval --stage audit`: the expansion's stored audit outcomes, or a judge's fresh
audit, against the final labels of a review sample; numbers by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from pipeline.fixtures import build

from toolex.cli import cli
from toolex.errors import ToolexError
from toolex.review import Label, save_label
from toolex.review.audit_eval import evaluate_audit
from toolex.store import Store

# q1's combinations: (combo_id, status, members slot 0 and 1, reviewers' labels)
V, NS = Label("valid"), Label("invalid", "near_synonym")
ROLES = ("reviewer1", "reviewer2")
COMBOS = [
    (1, "valid", ("wx_b::forecast", "cv::c2f"), (V, V)),  # judge yes, label valid: tp
    (2, "valid", ("wx_a::delete", "cv::c2f"), (NS, NS)),  # judge yes, label invalid: fp
    (3, "rejected_audit", ("wx_c::forecast", "cv2::c2f"), (V, V)),  # no, valid: fn
    (4, "rejected_platform", ("st::quote", "cv::c2f"), (NS, NS)),  # no, invalid: tn
    (5, "cut", ("wx_b::forecast", "cv2::c2f"), (V, V)),  # never audited: apart
    (6, "valid", ("wx_c::forecast", "cv::c2f"), (V, NS)),  # reviewers disagree, no adjudicator
]


@pytest.fixture
def sampled(store: Store) -> Store:
    build(store)
    store.con.execute(
        "INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, reference, judge) "
        "VALUES ('b', 'default', 'q1', 0, 'Get the weather forecast for a city', "
        "'wx_a::forecast', 'heuristic'), ('b', 'default', 'q1', 1, "
        "'Convert celsius to fahrenheit', 'cv::c2f', 'heuristic')"
    )
    for position, (combo, status, members, labels) in enumerate(COMBOS, start=1):
        store.con.execute(
            "INSERT INTO combinations (benchmark, expansion, query_id, combo_id, is_original, "
            "status, reason, judge) VALUES ('b', 'default', 'q1', ?, false, ?, ?, 'heuristic')",
            [combo, status, f"stored {status}"],
        )
        for slot, item in enumerate(members):
            store.con.execute(
                "INSERT INTO combination_items (benchmark, expansion, query_id, combo_id, slot, "
                "item_id) VALUES ('b', 'default', 'q1', ?, ?, ?)",
                [combo, slot, item],
            )
        store.con.execute(
            "INSERT INTO review_samples (sample_id, benchmark, expansion, query_id, combo_id, "
            "stratum, position, seed) VALUES ('s1', 'b', 'default', 'q1', ?, 'G1 x 2', ?, 7)",
            [combo, position],
        )
        key = {"benchmark": "b", "expansion": "default", "query_id": "q1", "combo_id": combo}
        for role, reviewer, label in zip(ROLES, ("ann", "bob"), labels, strict=True):
            save_label(store, "s1", key, role=role, reviewer=reviewer, label=label)
    return store


def test_stored_outcomes_against_final_labels(sampled: Store) -> None:
    ev = evaluate_audit(sampled, "s1")
    [report] = ev.reports
    c = report.overall.confusion
    assert (report.judge, report.stage, ev.labels) == ("heuristic", "audit", 5)
    assert (c.tp, c.fp, c.fn, c.tn) == (1, 1, 1, 1)
    assert report.overall.precision.value == 0.5 and report.overall.recall.value == 0.5
    assert report.overall.kappa.value == pytest.approx(0.0)  # p_o = .5 = p_e
    assert report.failed == [("q1/5", "never audited (status cut)")]
    assert [s.detail["combo_id"] for s in report.false_accepts] == [2]
    assert report.false_accepts[0].note == "near_synonym"
    assert [(d, v) for d, v, _ in report.strata] == [("benchmark", "b"), ("stratum", "G1 x 2")]
    rows = sampled.con.execute(
        "SELECT judge, stage, source, benchmark, n, tp, fp, fn, tn FROM judge_evaluations "
        "ORDER BY benchmark"
    ).fetchall()
    assert rows == [
        ("heuristic", "audit", "s1", "*", 4, 1, 1, 1, 1),
        ("heuristic", "audit", "s1", "b", 4, 1, 1, 1, 1),
    ]


def test_a_judge_audits_the_sample_afresh(sampled: Store, tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"  # the `store` fixture's file
    sampled.close()
    res = CliRunner().invoke(
        cli,
        ["judges", "eval", "--stage", "audit", "--sample", "s1", "--judge", "heuristic"]
        + ["--db", str(db), "--format", "json"],
    )
    assert res.exit_code == 0, res.output
    [judge] = json.loads(res.stdout)["judges"]
    overall = judge["overall"]
    assert overall["n"] == 5  # the cut combination is audited too
    assert overall["tp"] + overall["fn"] == 3  # combos 1, 3, 5 are valid
    assert judge["judge"] == "heuristic" and judge["failed"] == []
    with Store.open(db, read_only=True) as store:
        assert store.scalar("store/11_expansions.sql", {"benchmark": None}) == "default"
        statuses = store.user_sql("SELECT status FROM combinations ORDER BY combo_id")
        assert statuses.column(0).to_pylist() == [c[1] for c in COMBOS]  # nothing rewritten


def test_errors_name_the_sample(sampled: Store) -> None:
    with pytest.raises(ToolexError, match="no review sample named 's2'"):
        evaluate_audit(sampled, "s2")
    sampled.con.execute("DELETE FROM review_labels WHERE role = 'reviewer2'")
    with pytest.raises(ToolexError, match="has no final labels yet"):
        evaluate_audit(sampled, "s1")
