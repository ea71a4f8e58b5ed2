"""The pipeline through a real LLM judge (openai client) against the scripted server on 127.0.0.1:
with 20% faulty answers the run completes, faults land in the ledger, and the tables equal those of
a fault-free run; an identical second run makes no call."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "llm"))

from llm_support import FaultPlan, ScriptedServer  # noqa: E402

from pipeline.fixtures import build  # noqa: E402
from pipeline.helpers import overlap_search  # noqa: E402
from toolex.judges import make_judge  # noqa: E402
from toolex.pipeline.runner import run_expansion  # noqa: E402
from toolex.store import Store  # noqa: E402

OPTS = {"max_in_flight": 4, "timeout_s": 0.3, "backoff_base_s": 0.01, "max_attempts": 6}


@pytest.fixture
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai-5f3a9c")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def results(store):
    q = {
        "subqueries": "SELECT query_id, slot, text, ref_item_id FROM subqueries",
        "verdicts": "SELECT query_id, slot, item_id, accepted, judge FROM verdicts",
        "combinations": "SELECT query_id, combo_id, rrf_rank, status FROM combinations",
        "items": "SELECT query_id, combo_id, slot, item_id FROM combination_items",
    }
    return {k: sorted(store.con.execute(v).fetchall()) for k, v in q.items()}


def expand(store, url):
    judge = make_judge("openai:gpt-4o-mini", store, base_url=url, **OPTS)
    return run_expansion(store, "b", judge, search=overlap_search)


def test_faulty_server_gives_the_same_tables_and_a_rerun_makes_no_call(keys, tmp_path):
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
