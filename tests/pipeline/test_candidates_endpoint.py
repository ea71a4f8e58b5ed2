"""Issue 26.1: an embedding endpoint as the candidate retriever of `expand` (`--retriever`), over
real HTTP against the scripted server: its calls are the stage's, its credentials never stored,
and a missing key stops the run before the decomposer spends anything."""

from __future__ import annotations

import json

import pytest
from llm.scripted_server import ScriptedServer

from pipeline.helpers import add_benchmark, add_item, add_query
from toolex.errors import ModelUnavailableError
from toolex.judges.heuristic import HeuristicJudge
from toolex.pipeline.record import stored
from toolex.pipeline.runner import Settings, run_expansion
from toolex.store import Store

TOOLS = {
    "a::forecast": "Get the weather forecast for a city.",
    "b::weather": "Weather forecast of a city, by day.",
    "c::stock": "Get the stock price quote for a ticker.",
    "d::mail": "Send an email message to a recipient.",
}


@pytest.fixture
def bench(store: Store, monkeypatch: pytest.MonkeyPatch) -> Store:
    for name in ("OPENAI_API_KEY", "TOOLEX_COMPAT_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    add_benchmark(store)
    for item_id, description in TOOLS.items():
        add_item(store, item_id, {"name": item_id.split("::")[1], "description": description})
    add_query(store, "q1", "Weather forecast for Paris and the stock price of ACME",
              ["a::forecast", "c::stock"])  # fmt: skip
    return store


def test_an_endpoint_retrieves_the_candidates_and_its_calls_are_the_stages(bench: Store) -> None:
    with ScriptedServer() as server:
        host = server.url.removeprefix("http://")
        spec = f"compat-embed:http://ann:hunter2@{host}/v1#qwen3-embed"
        public = f"compat-embed:http://***@{host}/v1#qwen3-embed"
        report = run_expansion(
            bench, "b", HeuristicJudge(bench), settings=Settings(retriever=spec, depth=2),
            stages=["decompose", "candidates"],
        )  # fmt: skip
        (stage,) = [s for s in report.stages if s.stage == "candidates"]
        calls = [r for r in server.requests if r["kind"] == "embeddings"]
        assert stage.ok == 2 and stage.calls == len(calls) == 2  # the tools, then the sub-queries
        rows = bench.con.execute(
            "SELECT slot, item_id, rank, retriever FROM candidates ORDER BY slot, rank"
        ).fetchall()
        assert {r[3] for r in rows} == {public}
        assert [r[1] for r in rows if r[0] == 0][0] in ("a::forecast", "b::weather")
        assert stored(bench, "b", "default")["retriever"] == public
        everything = json.dumps(
            [bench.con.execute(f"SELECT * FROM {t}").fetchall() for t in ("candidates",
             "expansions", "llm_calls", "embeddings")], default=str)  # fmt: skip
        assert "hunter2" not in everything
        # resumed: nothing left to retrieve, nothing sent again
        run_expansion(bench, "b", HeuristicJudge(bench), settings=Settings(retriever=spec, depth=2))
        assert server.count("embeddings") == 2


def test_a_missing_key_stops_the_run_before_any_stage(bench: Store) -> None:
    with pytest.raises(ModelUnavailableError, match="OPENAI_API_KEY"):
        run_expansion(
            bench, "b", HeuristicJudge(bench),
            settings=Settings(retriever="openai-embed:text-embedding-3-small"),
        )  # fmt: skip
    assert bench.con.execute("SELECT count(*) FROM subqueries").fetchall()[0][0] == 0


def test_a_missing_key_with_replace_keeps_the_outputs_it_would_have_dropped(bench: Store) -> None:
    run_expansion(bench, "b", HeuristicJudge(bench), stages=["decompose", "candidates"])
    before = bench.con.execute("SELECT count(*) FROM candidates").fetchall()[0][0]
    assert before > 0
    with pytest.raises(ModelUnavailableError, match="OPENAI_API_KEY"):
        run_expansion(
            bench, "b", HeuristicJudge(bench), replace=True,
            settings=Settings(retriever="openai-embed:text-embedding-3-small"),
        )  # fmt: skip
    assert bench.con.execute("SELECT count(*) FROM candidates").fetchall()[0][0] == before
    assert bench.con.execute("SELECT count(*) FROM subqueries").fetchall()[0][0] > 0
