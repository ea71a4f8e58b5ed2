"""The pipeline through a real LLM judge (openai client) against the scripted server on 127.0.0.1:
with 20% faulty answers the run completes, faults land in the ledger, and the tables equal those of
a fault-free run; an identical second run makes no call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from llm.llm_support import FaultPlan, ScriptedServer

from pipeline.fixtures import build
from pipeline.helpers import overlap_search
from toolex.judges import make_judge
from toolex.judges.base import Verdict
from toolex.pipeline.runner import RunReport, Settings, run_expansion, select_queries
from toolex.pipeline.stage import StageContext
from toolex.pipeline.verify import pending_tasks
from toolex.store import Store

OPTS = {"max_in_flight": 4, "timeout_s": 0.3, "backoff_base_s": 0.01, "max_attempts": 6}


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai-5f3a9c")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def results(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    q = {
        "subqueries": "SELECT query_id, slot, text, reference FROM subqueries",
        "verdicts": "SELECT query_id, slot, item_id, accepted, judge FROM verdicts",
        "combinations": "SELECT query_id, combo_id, rrf_rank, status FROM combinations",
        "items": "SELECT query_id, combo_id, slot, item_id FROM combination_items",
    }
    return {k: sorted(store.con.execute(v).fetchall()) for k, v in q.items()}


def expand(store: Store, url: str) -> RunReport:
    judge = make_judge("openai:gpt-4o-mini", store, base_url=url, **OPTS)
    return run_expansion(store, "b", judge, search=overlap_search)


def test_faulty_server_gives_the_same_tables_and_a_rerun_makes_no_call(
    keys: None, tmp_path: Path
) -> None:
    with ScriptedServer() as clean:
        ref = Store.open(tmp_path / "clean.duckdb")
        build(ref)
        expand(ref, clean.url + "/v1")
        expected = results(ref)
    assert expected["verdicts"] and expected["combinations"]

    with ScriptedServer(faults=FaultPlan(rate=0.2)) as faulty:
        store = Store.open(tmp_path / "faulty.duckdb")
        build(store)
        report = expand(store, faulty.url + "/v1")
        assert all(s.failed == 0 for s in report.stages)  # retries absorbed every fault
        statuses = dict(
            store.con.execute("SELECT status, count(*) FROM llm_calls GROUP BY status").fetchall()
        )
        assert statuses.get("error", 0) + statuses.get("malformed", 0) > 0  # faults are recorded
        assert results(store) == expected

        again = expand(store, faulty.url + "/v1")
        assert sum(s.calls for s in again.stages) == 0
        assert results(store) == expected


@pytest.mark.parametrize(
    ("provider", "prescreen"), [("openai", "auto"), ("anthropic", "auto"), ("anthropic", "off")]
)
def test_every_llm_verdict_carries_a_confidence(
    keys: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, provider: str, prescreen: str
) -> None:
    """OpenAI verdicts take P(yes) from the verdict word's token probability (the scripted
    server: 0.8 for the word written); Anthropic's API gives none, so a verdict's confidence is
    the mean of its verdict and the offline screen's score (toolex.judges.confidence), computed
    for the purpose when the screen did not run."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-77b1d2")
    spec = {"openai": "openai:gpt-4o-mini", "anthropic": "anthropic:claude-3-5-haiku-20241022"}
    store = Store.open(tmp_path / "c.duckdb")
    build(store)
    offline = make_judge("heuristic", store, benchmark="b")
    stages = ["decompose", "candidates"]
    run_expansion(store, "b", offline, stages=stages, search=overlap_search)
    ctx = StageContext(store, "b", "default", select_queries(store, "b"))
    screen = make_judge("heuristic:prescreen", store, benchmark="b")
    prior: dict[str, float] = {}
    for o in screen.verify(pending_tasks(ctx)):
        assert isinstance(o.value, Verdict) and o.value.confidence is not None, o
        prior[o.key] = o.value.confidence
    with ScriptedServer() as server:
        url = server.url + ("/v1" if provider == "openai" else "")
        judge = make_judge(spec[provider], store, base_url=url, **OPTS)
        judges = {"decompose": offline, "verify": judge, "audit": offline}
        settings = Settings(prescreen=prescreen)
        run_expansion(store, "b", judges, stages=["verify"], settings=settings)
    judged = store.con.execute(
        "SELECT query_id, slot, item_id, accepted, confidence FROM verdicts WHERE judge = ?",
        [judge.spec],
    ).fetchall()
    assert judged
    for query_id, slot, item_id, accepted, confidence in judged:
        if provider == "openai":
            assert confidence == pytest.approx(0.8 if accepted else 0.2)
        else:
            expected = (accepted + prior[f"{query_id}/{slot}/{item_id}"]) / 2
            assert confidence == pytest.approx(expected, abs=1e-6)
