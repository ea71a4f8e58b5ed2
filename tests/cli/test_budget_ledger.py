"""`toolex expand --max-calls` stops cleanly (exit 3, resumable) and `toolex ledger` accounts for
the calls: an LLM verifier on the scripted server, the offline judge elsewhere."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from llm.llm_support import ScriptedServer, chat_count
from pipeline.fixtures import build
from pipeline.helpers import add_query

from toolex.cli.expand import BUDGET_EXIT, expand
from toolex.cli.ledger import ledger
from toolex.sqlrunner import SqlValue
from toolex.store import Store


@pytest.fixture
def setup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[str, str, ScriptedServer]]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai-5f3a9c")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    db = str(tmp_path / "b.duckdb")
    with Store.open(db) as store:
        build(store)
        add_query(
            store, "q3", "Get me the weather forecast for Paris for the weekend", ["wx_a::forecast"]
        )
    with ScriptedServer() as server:
        config = tmp_path / "toolex.toml"
        config.write_text(
            f'[judges]\nverify = "openai:gpt-4o-mini"\n[llm]\nopenai_base_url = "{server.url}/v1"\n'
            "max_in_flight = 2\nbackoff_base_s = 0.01\n",
            encoding="utf-8",
        )
        yield db, str(config), server


def test_a_budget_stops_the_run_and_a_later_run_resumes_it(
    setup: tuple[str, str, ScriptedServer],
) -> None:
    db, config, server = setup
    args = ["--db", db, "--benchmark", "b", "--config", config, "--format", "json"]
    args += ["--prescreen", "on"]  # off by default; on, the ledger accounts for it too
    capped = CliRunner().invoke(expand, [*args, "--max-calls", "2"])
    assert capped.exit_code == BUDGET_EXIT, capped.output
    assert "stopped: the budget (2 calls) is spent: 2 calls" in capped.stderr
    assert "verify stopped with" in capped.stderr
    assert chat_count(server) == 2
    rows = {r["stage"]: r for r in json.loads(capped.stdout.split("\n]\n")[0] + "\n]")}
    assert "assemble" not in rows  # later stages did not run

    done = CliRunner().invoke(expand, args)
    assert done.exit_code == 0, done.output
    with Store.open(db, read_only=True) as store:
        pending = store.rows("stages/3_verify/01_verify_pending.sql", _params())
        judges = dict(
            store.con.execute("SELECT judge, count(*) FROM verdicts GROUP BY judge").fetchall()
        )
    assert not pending
    # 7 candidates (the whole library) for each of 4 sub-queries: 4 references, 4 screened
    # out, q3's 6 kept ones reuse q1's verdicts, 14 go to the model
    assert judges == {
        "reference": 4,
        "heuristic:prescreen": 4,
        "reused": 6,
        "openai:gpt-4o-mini": 14,
    }

    usage = CliRunner().invoke(ledger, ["--db", db, "--format", "json"])
    assert usage.exit_code == 0, usage.output
    (verify, *_) = [r for r in json.loads(usage.stdout) if r["stage"] == "verify"]
    assert verify["judge"] == "openai:gpt-4o-mini" and verify["model"] == "gpt-4o-mini"
    assert verify["attempts"] == chat_count(server) == verify["ok"]
    assert verify["tasks"] == verify["ok"] + verify["served"]  # one task per distinct prompt
    assert verify["reused"] == 6 and verify["cost_usd"] > 0
    assert "verify heuristic:prescreen 4" in usage.stderr

    free = CliRunner().invoke(ledger, ["--db", db, "--uncalled", "--format", "json"])
    decided = {(r["stage"], r["decided_by"]): r["tasks"] for r in json.loads(free.stdout)}
    assert decided[("verify", "reference")] == 4
    assert decided[("decompose", "heuristic")] == 3


def _params() -> dict[str, SqlValue]:
    return {
        "benchmark": "b",
        "expansion": "default",
        "query_ids": ["q1", "q2", "q3"],
        "retry_failed": True,
    }
