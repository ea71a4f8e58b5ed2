"""Issue 26.8: the dry run covers every stage and gives the calls to expect, not only an upper
bound. The bound of the audit is the per-query safety limit (1,000 per unassembled query: 2.1
million for ToolRet's 2,098 queries); the expectation is the audit tasks per query the
expansion's assembled queries show, or, for a fresh expansion, the rate the cost benchmark
measured (``PRIOR_*``), and ``basis`` says which."""

from __future__ import annotations

from typing import Any

import pytest

from pipeline.fixtures import build
from pipeline.helpers import overlap_search
from toolex.judges import make_judge
from toolex.judges.base import Judge
from toolex.judges.heuristic import HeuristicJudge
from toolex.pipeline import dryrun
from toolex.pipeline.runner import Settings, run_expansion, select_queries
from toolex.pipeline.settings import STAGES
from toolex.pipeline.stage import StageContext
from toolex.store import Store


@pytest.fixture
def llm(store: Store, monkeypatch: pytest.MonkeyPatch) -> dict[str, Judge]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-never-called")
    build(store)
    judge = make_judge("openai:gpt-4o-mini", store)
    return dict.fromkeys(("decompose", "verify", "audit"), judge)


def plan(store: Store, judges: dict[str, Judge], **settings: Any) -> dict[Any, dict[str, Any]]:
    ctx = StageContext(store, "b", "default", select_queries(store, "b"))
    rows = dryrun.estimate(ctx, judges, Settings(**settings), STAGES)
    return {r.stage: r.as_row() for r in [*rows, dryrun.total_row(rows)]}


def test_a_fresh_expansion_expects_calls_at_the_measured_rates(
    store: Store, llm: dict[str, Judge]
) -> None:
    rows = plan(store, llm)
    assert list(rows) == [*STAGES, "total"]
    assert rows["candidates"]["calls_expected"] == rows["assemble"]["calls_expected"] == 0
    assert rows["decompose"]["calls_expected"] == rows["decompose"]["calls_now"] == 2
    verify, audit = rows["verify"], rows["audit"]
    # three labels x K = 20 candidates; the pre-screen is off by default (the paper's protocol)
    assert verify["tasks_later_at_most"] == 60
    assert verify["calls_expected"] == round(60 * dryrun.PRIOR_VERIFY_SHARE["no screen"]) == 49
    assert audit["tasks_later_at_most"] == 2 * 1000  # the bound: the safety limit per query
    assert audit["calls_expected"] == round(2 * dryrun.PRIOR_AUDITS_PER_QUERY) == 2
    assert verify["basis"] == audit["basis"] == "prior (benchmarks/bench_cost.py)"
    assert rows["total"]["calls_expected"] == 2 + 49 + 2
    assert rows["total"]["tasks_later_at_most"] == 3 + 60 + 2000  # 3 sub-queries to retrieve for
    # no verify or audit task exists yet: stand-ins made of the ground truth price their calls
    assert verify["cost_usd_expected"] is not None and rows["total"]["cost_usd_expected"] > 0
    on = plan(store, llm, prescreen="on")["verify"]
    assert on["calls_expected"] == round(60 * dryrun.PRIOR_VERIFY_SHARE["screen"]) == 41


def test_the_expansion_s_own_rates_replace_the_prior(store: Store, llm: dict[str, Judge]) -> None:
    offline = HeuristicJudge(store)
    # q1 (two slots) all the way: 5 alternatives reach the audit; q2 only to its candidates
    run_expansion(store, "b", offline, search=overlap_search, query_ids=["q1"])
    run_expansion(
        store, "b", offline, search=overlap_search, query_ids=["q2"],
        stages=["decompose", "candidates"],
    )  # fmt: skip
    (pending,) = store.con.execute(  # the reference passes without a task
        "SELECT count(*) FROM candidates WHERE query_id = 'q2' AND item_id <> 'st::quote'"
    ).fetchall()[0]
    rows = plan(store, llm, prescreen="off")  # the screen would answer q2's three itself
    verify, audit = rows["verify"], rows["audit"]
    assert verify["tasks_now"] == pending and verify["tasks_later_at_most"] == 0
    assert verify["basis"] == "the tasks now"  # nothing later: the calls now are the expectation
    assert verify["calls_expected"] == verify["calls_now"] == pending
    assert audit["tasks_later_at_most"] == 1000  # q2, not assembled
    assert audit["calls_expected"] == 5 and audit["basis"] == "1 assembled queries"
    per_call = verify["cost_usd_expected"] / verify["calls_expected"]
    assert per_call > 0  # priced from the verify tasks known now
