"""The Done-when of issue 33: a run held in memory (a DataFrame, a dict) scored with the API
gives exactly the numbers `toolex eval` prints for the same run on the same store."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

import toolex
from api.conftest import OTHER_RUN, RUN, cli_run

L3, L4 = math.log2(3), math.log2(4)


def printed(value: object) -> float:
    """A float as `toolex eval --format json` prints it (12 significant digits)."""
    assert isinstance(value, float), value
    return float(f"{value:.12g}")


def as_frame(run: dict[str, dict[str, float]]) -> pd.DataFrame:
    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    return pd.DataFrame(rows, columns=["query_id", "item_id", "score"])


def cli_scores(db: str, *args: str) -> dict[tuple[object, ...], dict[str, object]]:
    out, _ = cli_run("eval", "--db", db, "--format", "json", *args)
    return {(r["run"], r["category"], r["query"], r["metric"]): r for r in json.loads(out)}


def api_scores(frame: pd.DataFrame) -> dict[tuple[object, ...], dict[str, object]]:
    return {
        (r["run"], r["group"], r["query"], r["metric"]): r
        for r in frame.astype(object).where(frame.notna(), None).to_dict("records")
    }


@pytest.mark.parametrize(
    "metrics", [(), ("nDCG@3", "R@1", "RR", "AP@3", "P@2", "Comp@3")], ids=["default", "named"]
)
def test_in_memory_runs_score_as_toolex_eval_prints(db: str, metrics: tuple[str, ...]) -> None:
    with toolex.open(db) as store:
        toolex.import_run(store, as_frame(RUN), run="frame", benchmark="b")
        toolex.import_run(store, OTHER_RUN, run="dict", benchmark="b")
        frame = toolex.evaluate(store, ["frame", "dict"], metrics, ks=(1, 3), per_query=True)
    flags = [f for m in metrics for f in ("-m", m)] or ["--k", "1", "--k", "3"]
    printed_rows = cli_scores(db, "--run", "frame", "--run", "dict", "--per-query", *flags)
    ours = api_scores(frame)
    assert set(ours) == set(printed_rows)
    assert len(ours) > 20
    for key, row in ours.items():
        shown = printed_rows[key]
        for column in ("old", "new", "gain"):
            assert printed(row[column]) == shown[column], (key, column)
        assert (row["k"], row["n_queries"], row["n_no_results"]) == (
            shown["k"],
            shown["n_queries"],
            shown["n_no_results"],
        )
        assert row["oracle"] is shown["oracle"] is False


def test_values_by_hand(db: str) -> None:
    with toolex.open(db) as store:
        toolex.import_run(store, as_frame(RUN), run="frame", benchmark="b")
        frame = toolex.evaluate(store, "frame", ["nDCG@3", "R@1"], by="category")
    at = frame.set_index(["group", "metric"])
    # q1 (code): a at rank 2. q2: b at 3, its equivalent b2 at 1. q3: c missing, c2 at 1, d at 3.
    assert at.loc[("code", "nDCG@3"), "old"] == pytest.approx(1 / L3)
    assert at.loc[("code", "nDCG@3"), "gain"] == 0
    q2_old, q2_new = 1 / 2, 1.0
    q3_old = (1 / L4) / (1 + 1 / L3)
    q3_new = (1 + 1 / L4) / (1 + 1 / L3)
    assert at.loc[("web", "nDCG@3"), "old"] == pytest.approx((q2_old + q3_old) / 2)
    assert at.loc[("web", "nDCG@3"), "new"] == pytest.approx((q2_new + q3_new) / 2)
    assert at.loc[("all", "R@1"), "old"] == 0
    assert at.loc[("all", "R@1"), "new"] == pytest.approx((0 + 1 + 0.5) / 3)
    assert list(frame.columns) == [
        "run",
        "group",
        "query",
        "metric",
        "k",
        "old",
        "new",
        "gain",
        "n_queries",
        "n_no_results",
        "level",
        "oracle",
    ]
    assert set(frame["level"]) == {"query"}
    assert set(frame["group"]) == {"code", "web", "all", "avg (category mean)"}


def test_by_task_and_all(db: str) -> None:
    with toolex.open(db) as store:
        toolex.import_run(store, RUN, run="dict", benchmark="b")
        by_task = toolex.evaluate(store, "dict", ["R@1"], by="task")
        only_all = toolex.evaluate(store, "dict", ["R@1"], by="all")
    assert set(by_task["group"]) == {"docs", "travel", "all", "avg (task mean)"}
    assert only_all[["group", "old", "new"]].values.tolist() == [["all", 0.0, 0.5]]


def test_unknown_run_and_metric_raise_typed_errors(db: str) -> None:
    with toolex.open(db, read_only=True) as store:
        with pytest.raises(toolex.NotFoundError, match="nope"):
            toolex.evaluate(store, "nope")
        with pytest.raises(toolex.ToolexError, match="grp"):
            toolex.evaluate(store, "nope", by="grp")
    with toolex.open(db) as store:
        toolex.import_run(store, RUN, run="dict", benchmark="b")
        with pytest.raises(toolex.ToolexError, match="metric"):
            toolex.evaluate(store, "dict", ["nDCG@x"])


def test_subquery_level_run_from_a_frame(db: str) -> None:
    """A sub-query-level run (one list per ground-truth slot, fused with RRF) is scored as an
    oracle-assisted run, by the API as by `toolex eval`."""
    rows = [
        ("q1", 0, "a", 2.0),
        ("q1", 0, "x", 1.0),
        ("q2", 0, "b2", 1.0),
        ("q3", 0, "c2", 1.0),
        ("q3", 1, "d", 1.0),
        ("q3", 1, "x", 0.5),
    ]
    frame = pd.DataFrame(rows, columns=["query_id", "slot", "item_id", "score"])
    with toolex.open(db) as store:
        done = toolex.import_run(store, frame, run="sub", benchmark="b", level="subquery")
        scores = toolex.evaluate(store, "sub", ["nDCG@3", "R@2"])
        with pytest.raises(toolex.InputError, match="slot 2 is no sub-query of query 'q3'"):
            bad = frame.assign(slot=[0, 0, 0, 0, 2, 2])
            toolex.import_run(store, bad, run="bad", benchmark="b", level="subquery")
    assert (done.level, done.queries) == ("subquery", 3)
    assert set(scores["level"]) == {"subquery"} and scores["oracle"].all()
    at = scores.set_index(["group", "metric"])
    assert (at.loc[("all", "R@2"), "old"], at.loc[("all", "R@2"), "new"]) == (
        pytest.approx(1 / 2),  # q1 1, q2 0, q3 d only: 1/2
        pytest.approx(1.0),
    )
    printed_rows = cli_scores(db, "--run", "sub", "-m", "nDCG@3", "-m", "R@2")
    for key, row in api_scores(scores).items():
        assert printed(row["new"]) == printed_rows[key]["new"]
        assert printed_rows[key]["oracle"] is True
