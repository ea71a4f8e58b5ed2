"""Issue 26.1: embedding-endpoint retrievers over real HTTP, against the scripted server on
127.0.0.1 (tests/llm/scripted_embeddings.py): specs, keys, batching, the cache, the ledger, faults
and resuming after a failure."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest
from llm.scripted_embeddings import vector
from llm.scripted_server import ScriptedServer

from toolex.errors import InputError, ModelUnavailableError
from toolex.llm.embeddings import EmbeddingCalls, EmbeddingClient, MalformedAnswer
from toolex.llm.embeddings import _payload as embeddings_payload
from toolex.llm.ledger import Ledger
from toolex.llm.retry import Policy
from toolex.retrieval import make_retriever, public_retriever_spec, search
from toolex.retrieval.dense import DenseRetriever
from toolex.retrieval.endpoint import EndpointEmbedder, parse_endpoint_spec
from toolex.retrieval.runs import retrieve_run
from toolex.retrieval.texts import load_library
from toolex.store import Store

MODEL = "Qwen/Qwen3-Embedding-4B"
FAST = Policy(max_attempts=4, backoff_base_s=0.001, backoff_max_s=0.01)


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("OPENAI_API_KEY", "TOOLEX_COMPAT_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.fixture
def server(env: pytest.MonkeyPatch) -> Iterator[ScriptedServer]:
    with ScriptedServer() as s:
        yield s


def spec_of(server: ScriptedServer, model: str = MODEL) -> str:
    return f"compat-embed:{server.url}/v1#{model}"


def embedder(
    server: ScriptedServer, *, request_texts: int = 2, in_flight: int = 1, policy: Policy = FAST
) -> EndpointEmbedder:
    spec = spec_of(server)
    _, model, base_url = parse_endpoint_spec(spec)
    client = EmbeddingClient("compat", model, base_url)
    calls = EmbeddingCalls(
        client, spec, policy=policy, request_texts=request_texts, in_flight=in_flight
    )
    return EndpointEmbedder(spec, calls)


def ledger_rows(store: Store) -> list[dict[str, Any]]:
    return [r for r in Ledger(store).rows() if r["stage"] == "embed"]


def expected_ranking(store: Store, query: str) -> list[str]:
    """The item order cosine similarity of the scripted model's vectors gives, by numpy."""
    lib = load_library(store, "b")
    docs = np.stack([vector(t, 64) for t in lib.texts])
    docs /= np.linalg.norm(docs, axis=1, keepdims=True)
    q = vector(query, 64)
    sims = docs @ (q / np.linalg.norm(q))
    # score descending, ties by item_id descending (trec_eval's rule)
    order = sorted(
        range(len(lib)), key=lambda i: (round(float(sims[i]), 6), lib.item_ids[i]), reverse=True
    )
    return [lib.item_ids[i] for i in order]


# -- specs --------------------------------------------------------------------------------------


def test_specs_are_named_like_the_judges() -> None:
    assert parse_endpoint_spec("openai-embed:text-embedding-3-small") == (
        "openai",
        "text-embedding-3-small",
        None,
    )
    assert parse_endpoint_spec("compat-embed:http://h:8000/v1#Qwen/Qwen3-Embedding-4B") == (
        "compat",
        "Qwen/Qwen3-Embedding-4B",
        "http://h:8000/v1",
    )
    for bad, what in [
        ("openai-embed:", "needs a model"),
        ("compat-embed:http://h:8000/v1", "compat-embed:<base_url>#<model>"),
        ("compat-embed:#m", "compat-embed:<base_url>#<model>"),
        ("compat-embed:ftp://h/v1#m", "http:// or https:// URL"),
    ]:
        with pytest.raises(InputError, match=what):
            parse_endpoint_spec(bad)


def test_credentials_in_a_url_are_never_part_of_the_recorded_spec() -> None:
    spec = "compat-embed:http://ann:hunter2@gpu:8000/v1#m"
    assert public_retriever_spec(spec) == "compat-embed:http://***@gpu:8000/v1#m"
    assert public_retriever_spec(f"hybrid:bm25+{spec}") == (
        "hybrid:bm25+compat-embed:http://***@gpu:8000/v1#m"
    )
    assert public_retriever_spec("bm25") == "bm25"


# -- keys ---------------------------------------------------------------------------------------


def test_a_missing_openai_key_stops_before_any_call(
    server: ScriptedServer, env: pytest.MonkeyPatch
) -> None:
    env.setenv("OPENAI_BASE_URL", f"{server.url}/v1")
    with pytest.raises(ModelUnavailableError, match="OPENAI_API_KEY"):
        make_retriever("openai-embed:text-embedding-3-small")
    env.setenv("OPENAI_API_KEY", "sk-test-5f3a9c\n")
    with pytest.raises(ModelUnavailableError, match="OPENAI_API_KEY ends with a line break") as e:
        make_retriever("openai-embed:text-embedding-3-small")
    assert "5f3a9c" not in str(e.value)
    assert server.count("embeddings") == 0


def test_a_refused_key_names_its_variable_and_never_the_key(
    lib_store: Store, server: ScriptedServer, env: pytest.MonkeyPatch
) -> None:
    env.setenv("TOOLEX_COMPAT_API_KEY", "compat-secret-0e4f")
    server.embeddings.fail("401")
    r = make_retriever(spec_of(server))
    with pytest.raises(
        ModelUnavailableError, match="refused the API key.*TOOLEX_COMPAT_API_KEY"
    ) as e:
        search(lib_store, "b", r, [("qa", 0, "weather")], scope="benchmark")
    assert "compat-secret" not in str(e.value)
    assert server.count("embeddings") == 1  # refused: not retried
    sent = next(r for r in server.requests if r["kind"] == "embeddings")
    assert sent["headers"]["authorization"] == "Bearer compat-secret-0e4f"
    stored = json.dumps(ledger_rows(lib_store), default=str)
    assert "compat-secret" not in stored and "HTTP 401" in stored


# -- end to end ---------------------------------------------------------------------------------


def test_a_run_over_real_http_ranks_by_the_endpoints_vectors(
    lib_store: Store, server: ScriptedServer
) -> None:
    summary = retrieve_run(lib_store, "b", spec_of(server), "dense", depth=6, scope="benchmark")
    assert summary["retriever"] == spec_of(server)
    got = [
        r[0]
        for r in lib_store.con.execute(
            "SELECT item_id FROM run_results WHERE run_id = 'dense' AND query_id = 'qa' "
            "ORDER BY rank"
        ).fetchall()
    ]
    assert got == expected_ranking(lib_store, "what is the weather in Paris")
    params = json.loads(
        lib_store.con.execute("SELECT params FROM runs WHERE run_id = 'dense'").fetchall()[0][0]
    )
    assert (params["model"], params["dim"]) == (MODEL, 64)
    assert params["embedder_key"] == f"compat-embed:{MODEL}@{server.url}/v1"
    # 6 tools and 3 queries, in requests of at most 32 texts (TEI's default limit)
    bodies = [r["body"] for r in server.requests if r["kind"] == "embeddings"]
    assert sorted(len(b["input"]) for b in bodies) == [3, 6]
    assert {b["encoding_format"] for b in bodies} == {"float"}


def test_every_call_is_a_ledger_row_and_toolex_ledger_shows_it(
    lib_store: Store, server: ScriptedServer
) -> None:
    from toolex.llm.usage import usage

    retrieve_run(lib_store, "b", spec_of(server), "dense", depth=3, scope="benchmark")
    rows = ledger_rows(lib_store)
    assert [(r["status"], r["judge"], r["model"]) for r in rows] == [
        ("ok", spec_of(server), MODEL)
    ] * 2
    words = sum(len(t.split()) for t in server.embeddings.texts)
    assert sum(r["prompt_tokens"] for r in rows) > 0
    assert {r["completion_tokens"] for r in rows} == {0}
    assert sorted(json.loads(r["parsed"])["texts"] for r in rows) == [3, 6]
    assert all(r["response"] is None and r["cost_usd"] is None for r in rows)  # unpriced model
    (row,) = usage(lib_store)
    assert (row.stage, row.attempts, row.ok, row.tasks) == ("embed", 2, 2, 9)
    assert row.unpriced == 2 and row.tokens_in == sum(r["prompt_tokens"] for r in rows)
    assert words >= row.tokens_in  # the scripted server counts \w+ words, a subset


def test_the_cache_serves_texts_embedded_before_and_a_changed_tool_alone(
    lib_store: Store, server: ScriptedServer
) -> None:
    retrieve_run(lib_store, "b", spec_of(server), "one", depth=3, scope="benchmark")
    first = server.count("embeddings")
    retrieve_run(lib_store, "b", spec_of(server), "two", depth=3, scope="benchmark")
    assert server.count("embeddings") == first  # nothing sent again
    lib_store.con.execute("UPDATE items SET text = 'rain radar maps' WHERE item_id = 'c3'")
    server.embeddings.texts.clear()
    retrieve_run(lib_store, "b", spec_of(server), "three", depth=3, scope="benchmark")
    assert server.embeddings.texts == ["rain radar maps"]


def test_hosted_openai_sends_base64_and_is_priced(
    lib_store: Store, server: ScriptedServer, env: pytest.MonkeyPatch
) -> None:
    env.setenv("OPENAI_API_KEY", "sk-test-openai-5f3a9c")
    env.setenv("OPENAI_BASE_URL", f"{server.url}/v1")
    spec = "openai-embed:text-embedding-3-small"
    retrieve_run(lib_store, "b", spec, "oa", depth=6, scope="benchmark")
    got = [
        r[0]
        for r in lib_store.con.execute(
            "SELECT item_id FROM run_results WHERE run_id = 'oa' AND query_id = 'qa' ORDER BY rank"
        ).fetchall()
    ]
    assert got == expected_ranking(lib_store, "what is the weather in Paris")
    bodies = [r["body"] for r in server.requests if r["kind"] == "embeddings"]
    assert {b["encoding_format"] for b in bodies} == {"base64"}
    rows = ledger_rows(lib_store)
    tokens = sum(r["prompt_tokens"] for r in rows)
    assert sum(r["cost_usd"] for r in rows) == pytest.approx(tokens * 0.02 / 1e6)
    assert {r["judge"] for r in rows} == {spec}


def test_a_hybrid_can_take_an_endpoint_part(lib_store: Store, server: ScriptedServer) -> None:
    r = make_retriever(f"hybrid:bm25+{spec_of(server)}")
    out = search(lib_store, "b", r, [("qa", 0, "weather in Paris")], depth=3, scope="benchmark")
    assert out.column("item_id").to_pylist()[0] == "w1"
    assert r.spec == f"hybrid:bm25+{spec_of(server)}"


# -- faults and resuming ------------------------------------------------------------------------


def test_transient_faults_are_retried_and_recorded(
    lib_store: Store, server: ScriptedServer
) -> None:
    server.embeddings.fail("429", "500")
    r = DenseRetriever(spec_of(server), embedder(server))
    out = search(lib_store, "b", r, [("qa", 0, "weather in Paris")], depth=1, scope="benchmark")
    assert out.column("item_id").to_pylist() == ["w1"]
    # 6 tools and 1 query in requests of 2 texts, one at a time: the first request fails twice,
    # and its third attempt answers
    rows = [(r["status"], r["attempt"], (r["error"] or "")[:8]) for r in ledger_rows(lib_store)]
    assert rows == [
        ("error", 1, "HTTP 429"),
        ("error", 2, "HTTP 500"),
        ("ok", 3, ""),
        ("ok", 1, ""),
        ("ok", 1, ""),
        ("ok", 1, ""),
    ]


@pytest.mark.parametrize(
    ("fault", "said"),
    [
        ("short", "1 vectors for 2 texts"),
        ("nan", "NaN or infinity"),
        ("array", "a JSON list, not an object"),
        ("base64", "base64 vector that is not float32 bytes"),
    ],
)
def test_a_malformed_answer_stops_with_what_was_wrong(
    lib_store: Store, server: ScriptedServer, fault: str, said: str
) -> None:
    server.embeddings.fail(fault)
    r = DenseRetriever(spec_of(server), embedder(server))
    with pytest.raises(ModelUnavailableError, match=said):
        search(lib_store, "b", r, [("qa", 0, "weather")], scope="benchmark")
    assert [r["status"] for r in ledger_rows(lib_store)] == ["malformed"]


def test_an_answer_that_is_not_json_is_malformed() -> None:
    # A proxy's error page with status 200: the SDK's parser is not on the path any more
    # (toolex.llm.embeddings parses the raw answer), so toolex says what came back.
    with pytest.raises(MalformedAnswer, match="an answer that is not JSON"):
        embeddings_payload(b"<html>upstream busy</html>")
    assert embeddings_payload(b'{"data": []}') == {"data": []}


def test_an_input_too_long_says_how_to_fix_the_server(
    lib_store: Store, server: ScriptedServer
) -> None:
    server.embeddings.fail("400")
    r = DenseRetriever(spec_of(server), embedder(server))
    with pytest.raises(ModelUnavailableError, match="too large.*longer context.*-ub"):
        search(lib_store, "b", r, [("qa", 0, "weather")], scope="benchmark")


def test_an_endpoint_nobody_answers_fails_fast(lib_store: Store, env: pytest.MonkeyPatch) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    spec = f"compat-embed:http://127.0.0.1:{port}/v1#m"
    client = EmbeddingClient("compat", "m", f"http://127.0.0.1:{port}/v1")
    r = DenseRetriever(spec, EndpointEmbedder(spec, EmbeddingCalls(client, spec, policy=FAST)))
    with pytest.raises(ModelUnavailableError, match="cannot reach .*2 connection failures"):
        search(lib_store, "b", r, [("qa", 0, "weather")], scope="benchmark")


def test_an_interrupted_embedding_keeps_what_it_paid_for(
    lib_store: Store, server: ScriptedServer
) -> None:
    """The third request fails for good: the first two requests' vectors are in the cache, and
    the re-run sends only the texts still missing."""
    server.embeddings.fail("ok", "ok", "400")
    first = DenseRetriever(spec_of(server), embedder(server))
    with pytest.raises(ModelUnavailableError):
        search(lib_store, "b", first, [("qa", 0, "weather")], scope="benchmark")
    assert len(server.embeddings.texts) == 4
    key = first.embedder.key
    cached = lib_store.con.execute(
        "SELECT count(*) FROM embeddings WHERE embedder = ?", [key]
    ).fetchall()[0][0]
    assert cached == 4
    server.embeddings.texts.clear()
    again = DenseRetriever(spec_of(server), embedder(server))
    out = search(lib_store, "b", again, [("qa", 0, "weather")], depth=1, scope="benchmark")
    assert out.column("item_id").to_pylist() == ["w1"]
    library = load_library(lib_store, "b").texts
    assert len(server.embeddings.texts) == 2 + 1  # the two tools left, and the query
    assert set(server.embeddings.texts) < set(library) | {"weather"}


def test_vectors_of_another_width_than_the_cache_are_refused(
    lib_store: Store, server: ScriptedServer
) -> None:
    retrieve_run(lib_store, "b", spec_of(server), "one", depth=3, scope="benchmark")
    server.embeddings.dim = 32  # another model now behind the same name
    lib_store.con.execute("UPDATE items SET text = 'rain radar maps' WHERE item_id = 'c3'")
    with pytest.raises(ModelUnavailableError, match="width 32, not the 64"):
        retrieve_run(lib_store, "b", spec_of(server), "two", depth=3, scope="benchmark")


def test_ctrl_c_halfway_keeps_the_batches_that_came_back(
    lib_store: Store, server: ScriptedServer
) -> None:
    """Ctrl-C while the third round of requests is under way: the two rounds before it are in
    the cache (and the ledger), so the re-run pays only for what is left."""

    class Interrupted(EndpointEmbedder):
        rounds = 0

        def embed_parts(
            self, texts: Sequence[str]
        ) -> Iterator[
            tuple[int, np.ndarray]
        ]:  # what the cache asks an endpoint for, round by round
            Interrupted.rounds += 1
            if Interrupted.rounds == 3:
                raise KeyboardInterrupt
            return super().embed_parts(texts)

    first = embedder(server)  # requests of 2 texts, one at a time: a round is one request
    stopped = DenseRetriever(spec_of(server), Interrupted(spec_of(server), first.calls))
    with pytest.raises(KeyboardInterrupt):
        search(lib_store, "b", stopped, [("qa", 0, "weather")], scope="benchmark")
    cached = lib_store.con.execute(
        "SELECT count(*) FROM embeddings WHERE embedder = ?", [first.key]
    ).fetchall()[0][0]
    assert cached == 4 and len(ledger_rows(lib_store)) == 2
    server.embeddings.texts.clear()
    again = DenseRetriever(spec_of(server), embedder(server))
    search(lib_store, "b", again, [("qa", 0, "weather")], depth=1, scope="benchmark")
    assert len(server.embeddings.texts) == 2 + 1  # the two tools left, and the query
