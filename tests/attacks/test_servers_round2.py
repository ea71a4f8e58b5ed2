"""Servers that stall a run (issue 37, point 8): a server that drips its answer a byte at a time
never timed out (the SDKs' timeouts bound each read, not the call), and one that answers
200,000-wide vectors filled memory for minutes. Every chat call (OpenAI, Anthropic, compatible
servers, the batch APIs) and every embedding request now has a total deadline and a size bound:
each hostile pacing ends in one line that says what happened, with the setting to change, the
failed attempts in the ledger and no row anywhere else. The product's deadline is 1 s here; each
attempt runs in a forked child with a deadline of minutes (tests/attacks/bounded.py), so a
regression is a counted hang, never a hung test run, and nothing asserts a duration."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from attacks.bounded import HANG_S, run_bounded
from attacks.conftest import digest
from attacks.pacing_server import PacingServer, embeddings_answer
from attacks.tally import Tally
from toolex.store import Store

FAST = "[llm]\ncompat_timeout_s = 1\ntimeout_s = 1\nmax_attempts = 2\nbackoff_base_s = 0.01\n"
ROOMY = "[llm]\ncompat_timeout_s = 600\ntimeout_s = 600\nmax_attempts = 2\nbackoff_base_s = 0.01\n"
TIMEOUT = (
    "timeout: no complete answer within 1 s (the whole call's deadline, however the server "
    "paces its bytes)"
)
# The endless cases' bound on the run: beyond a call's deadline, under pytest's own (1800 s).
ENDLESS_BOUND_S = 1500.0
KEYS = {"OPENAI_API_KEY": "sk-test-pacing-0123456789", "ANTHROPIC_API_KEY": "sk-ant-test-pacing"}
# Tables a failed run may write: the attempts it paid for, the run's settings, its failures.
BOOKKEEPING = {"llm_calls", "expansions", "stage_failures", "store_commits"}


def _judge(provider: str, server: PacingServer) -> tuple[str, str]:
    """(the --judge spec, the [llm] lines that point the provider at ``server``)."""
    if provider == "compat":
        return f"compat:{server.url}/v1#m", ""
    if provider == "openai":
        return "openai:gpt-4o-mini", f'openai_base_url = "{server.url}/v1"\n'
    return "anthropic:claude-3-5-haiku-20241022", f'anthropic_base_url = "{server.url}"\n'


def _ledger(db: str) -> list[tuple[str, str]]:
    with Store.open(db, read_only=True) as store:
        rows = store.user_sql("SELECT status, error FROM llm_calls ORDER BY created_at")
    return [(r["status"], r["error"]) for r in rows.to_pylist()]


def _unchanged(before: dict[str, tuple[int, int]], db: str, allowed: set[str]) -> bool:
    after = digest(db)
    return all(after[t] == before[t] for t in before if t not in allowed)


CHAT_CASES = [(p, m) for p in ("compat", "openai", "anthropic") for m in ("drip", "endless")]
CHAT_CASES += [("compat", "drip headers"), ("compat", "stall")]


@pytest.mark.parametrize(("provider", "mode"), CHAT_CASES)
def test_a_paced_chat_server_ends_at_each_calls_deadline(
    bench_db: str, tmp_path: Path, provider: str, mode: str
) -> None:
    tally = Tally("servers that stall a run")
    before = digest(bench_db)
    with PacingServer(mode) as server:
        spec, where = _judge(provider, server)
        config = tmp_path / "fast.toml"
        # an endless answer meets its size bound long before its deadline of ten minutes (a few
        # seconds quiet; at load 20 a deadline of a minute came first: 64 MB read through a
        # loaded loopback), and the run's bound is set beyond its calls'; a paced one meets its
        # deadline of a second
        config.write_text((ROOMY if mode == "endless" else FAST) + where)
        ran = run_bounded(
            "expand", "--benchmark", "plain", "--judge", spec, "--config", str(config),
            "--prescreen", "off", "--db", bench_db, env=KEYS,
            deadline_s=ENDLESS_BOUND_S if mode == "endless" else HANG_S,
        )  # fmt: skip
        asked = server.requests
    tally.record(f"{provider} {mode}", ran.outcome,
                 changed=not _unchanged(before, bench_db, BOOKKEEPING))  # fmt: skip
    assert ran.outcome == "clean error", (ran.outcome, ran.err[-800:])
    ledger = _ledger(bench_db)
    assert asked >= 1 and ledger and all(status == "error" for status, _ in ledger), ledger
    if mode == "endless":  # refused when 64 MB have come, not read to the end (1 GB claimed)
        refused = "the answer is larger than 64.0 MB, more than any answer to this request can be"
        assert all(error.startswith(refused) for _, error in ledger), ledger
        assert "the decompose stage produced no outcome" in ran.said and refused in ran.said
    else:
        assert all(error == TIMEOUT for _, error in ledger), ledger
        # three deadlines in a row stop the stage (one call at a time: always so for compat),
        # else each task fails after its two attempts
        stuck = ran.said.startswith(f"error: {server.url}") and (
            "3 calls in a row timed out" in ran.said and "(compat_timeout_s, timeout_s)" in ran.said
        )
        assert stuck or (
            provider != "compat"
            and "all 2 of its task(s) failed (2x failed after 2 attempts" in ran.said
        ), ran.said
    tally.check()


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_paced_batch_api_ends_at_each_calls_deadline(
    bench_db: str, tmp_path: Path, provider: str
) -> None:
    tally = Tally("servers that stall a run")
    before = digest(bench_db)
    with PacingServer("drip") as server:
        spec, where = _judge(provider, server)
        config = tmp_path / "batch.toml"
        config.write_text(FAST + "batch = true\nbatch_poll_s = 0.05\n" + where)
        ran = run_bounded(
            "expand", "--benchmark", "plain", "--judge", spec, "--config", str(config),
            "--prescreen", "off", "--db", bench_db, env=KEYS,
        )  # fmt: skip
    tally.record(f"{provider} batch, drip", ran.outcome,
                 changed=not _unchanged(before, bench_db, BOOKKEEPING))  # fmt: skip
    assert ran.outcome == "clean error", (ran.code, ran.crashed, ran.err[-800:])
    assert ran.said.startswith(f"error: submitting a batch of 2 requests to {server.url}")
    # the upload's deadline: the timeout and the time its bytes take at the slowest rate
    upload = re.escape(TIMEOUT).replace("within\\ 1\\ s", r"within\ 1\.\d+\ s")
    assert re.search(f"failed: {upload}; nothing is recorded as submitted", ran.said), ran.said
    assert _ledger(bench_db) == []  # no request is pending on a batch that was never made
    tally.check()


# -- embeddings --------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["drip", "drip headers", "stall"])
def test_a_paced_embedding_server_ends_at_each_requests_deadline(
    lib_store: Store, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the library (the CLI has no setting for an embedding endpoint's deadline, the
    judges' 300 s for a compatible server): a deadline of 1 s, two attempts."""
    from toolex.errors import ModelUnavailableError
    from toolex.llm.embeddings import EmbeddingCalls, EmbeddingClient
    from toolex.llm.retry import Policy
    from toolex.retrieval import search
    from toolex.retrieval.dense import DenseRetriever
    from toolex.retrieval.endpoint import EndpointEmbedder

    tally = Tally("servers that stall a run")
    monkeypatch.delenv("TOOLEX_COMPAT_API_KEY", raising=False)
    with PacingServer(mode, embeddings_answer(8)) as server:
        spec = f"compat-embed:{server.url}/v1#m"
        client = EmbeddingClient("compat", "m", f"{server.url}/v1", timeout_s=1.0)
        policy = Policy(max_attempts=2, backoff_base_s=0.01, backoff_max_s=0.02)
        calls = EmbeddingCalls(client, spec, policy=policy, request_texts=2, in_flight=1)
        retriever = DenseRetriever(spec, EndpointEmbedder(spec, calls))
        with pytest.raises(ModelUnavailableError) as caught:
            search(lib_store, "b", retriever, [("qa", 0, "weather")], scope="benchmark")
    said = str(caught.value)
    tally.record(f"embeddings {mode}", "clean error")
    assert said == (
        f"embedding with 'm' at {server.url}/v1 failed after 2 attempt(s): {TIMEOUT}"
    ), said
    ledger = lib_store.rows("llm/60_ledger_rows.sql")
    assert [(r["status"], r["error"]) for r in ledger] == [("error", TIMEOUT)] * 2
    assert lib_store.user_sql("SELECT count(*) AS n FROM embeddings").to_pylist() == [{"n": 0}]
    tally.check()


WIDE = 200_000


@pytest.mark.parametrize(
    ("width", "said"),
    [
        (WIDE, "with an answer larger than 1.6 MB for 3 texts (vectors of at most 16,384 numbers "
               "expected), refused unread"),
        (0, "with vectors of shape (3, 0), not one row of numbers per text"),
    ],
)  # fmt: skip
def test_vectors_too_wide_are_refused_unread(
    bench_db: str, tmp_path: Path, width: int, said: str
) -> None:
    """Through `toolex retrieve`: a 200,000-wide vector per text is refused once the answer
    passes what vectors of the widest model could take, before it is read or parsed."""
    tally = Tally("servers that stall a run")
    before = digest(bench_db)
    with PacingServer("flood", embeddings_answer(width)) as server:
        ran = run_bounded(
            "retrieve", "--benchmark", "plain", "--retriever", f"compat-embed:{server.url}/v1#m",
            "--run", "wide", "--db", bench_db,
        )  # fmt: skip
    changed = not _unchanged(before, bench_db, {"llm_calls", "store_commits"})
    tally.record(f"embeddings {width} wide", ran.outcome, changed=changed)
    assert ran.outcome == "clean error", (ran.code, ran.crashed, ran.err[-800:])
    assert ran.said == f"error: {server.url}/v1 answered 'm' {said}", ran.said
    assert [s for s, _ in _ledger(bench_db)] == ["malformed"]
    tally.check()


def test_all_zero_vectors_are_refused_not_ranked(bench_db: str) -> None:
    """Issue 37.15: a server answering all-zero vectors gave a run of 0 results and exit 0 (a
    vector with no direction is as similar to every tool as to none)."""
    tally = Tally("servers that stall a run")
    before = digest(bench_db)
    with PacingServer("flood", embeddings_answer(8, "0.0")) as server:
        ran = run_bounded(
            "retrieve", "--benchmark", "plain", "--retriever", f"compat-embed:{server.url}/v1#m",
            "--run", "zero", "--db", bench_db,
        )  # fmt: skip
    changed = not _unchanged(before, bench_db, {"llm_calls", "store_commits"})
    tally.record("all-zero vectors", ran.outcome, changed=changed)
    assert ran.outcome == "clean error", (ran.code, ran.crashed, ran.err[-800:])
    assert ran.said == f"error: {server.url}/v1 answered 'm' with all-zero vectors for 3 of 3 texts"
    assert [s for s, _ in _ledger(bench_db)] == ["malformed"]
    tally.check()
