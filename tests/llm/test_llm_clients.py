"""The provider adapters, through the real openai/anthropic SDKs over HTTP to the scripted
server: what goes on the wire, what comes back, and how failures are classified."""

from __future__ import annotations

import json
import logging
from email.utils import formatdate
from types import SimpleNamespace
from typing import Any

import pytest

from llm.llm_support import ANTHROPIC_KEY, COMPAT_KEY, OPENAI_KEY, FaultPlan, ScriptedServer
from llm.scripted_http import ScriptedHandler
from toolex.errors import ModelUnavailableError
from toolex.llm.clients import (
    PermanentError,
    Request,
    Schema,
    TransientError,
    make_client,
    retry_after_seconds,
)

ANSWER = '{"verdict": "yes", "reason": "same operation"}'


def fixed(provider: str, body: dict[str, Any]) -> str:
    return ANSWER


def test_openai_request_on_the_wire(llm_env: dict[str, str]) -> None:
    with ScriptedServer(fixed) as s:
        client = make_client("openai", "gpt-4o-mini", base_url=s.url + "/v1", timeout_s=2)
        reply = client.complete(Request("SYSTEM TEXT", "USER TEXT"))
        req = s.requests[0]
    assert req["path"] == "/v1/chat/completions"
    assert req["body"]["model"] == "gpt-4o-mini"
    assert req["body"]["messages"] == [
        {"role": "system", "content": "SYSTEM TEXT"},
        {"role": "user", "content": "USER TEXT"},
    ]
    assert req["body"]["response_format"] == {"type": "json_object"}  # no schema: JSON mode
    assert req["body"]["temperature"] == 0
    assert req["body"]["max_completion_tokens"] == 1024
    assert req["headers"]["authorization"] == f"Bearer {OPENAI_KEY}"
    assert req["headers"]["x-stainless-retry-count"] == "0"  # the SDK does not retry on its own
    assert reply.text == ANSWER
    # the server counts tokens as len(json(messages)) // 4 and len(answer) // 4
    assert reply.completion_tokens == len(ANSWER) // 4
    assert reply.prompt_tokens == len(json.dumps(req["body"]["messages"])) // 4


def test_a_server_that_refuses_a_seed_is_asked_without_one_from_then_on(
    llm_env: dict[str, str],
) -> None:
    """Each request carries a seed made from its conversation (issue 37.15: a resumed run's
    re-sent calls sample what they sampled before); a server that refuses the parameter gets
    the call again without it, and no seed for the rest of the run."""
    with ScriptedServer(fixed) as s:

        class RefusingSeeds(ScriptedHandler):
            def _chat(self, provider: str, body: dict[str, Any]) -> None:
                if "seed" in body:
                    error = {"message": "Unrecognized request argument supplied: seed", "code": 400}
                    return self._send(400, {"error": error})
                return super()._chat(provider, body)

        s.httpd.RequestHandlerClass = RefusingSeeds
        client = make_client("compat", "m", base_url=s.url + "/v1", timeout_s=5)
        replies = [client.complete(Request("s", f"u{i}", seed=11 + i)).text for i in range(2)]
        bodies = [r["body"] for r in s.requests]
    assert replies == [ANSWER, ANSWER]
    assert [b.get("seed") for b in bodies] == [11, None, None]


def test_reasoning_models_get_no_temperature(llm_env: dict[str, str]) -> None:
    with ScriptedServer(fixed) as s:
        for model in ("o3-mini", "gpt-5-mini", "gpt-4o"):
            make_client("openai", model, base_url=s.url + "/v1", timeout_s=2).complete(
                Request("s", "u")
            )
        bodies = [r["body"] for r in s.requests]
    assert ["temperature" in b for b in bodies] == [False, False, True]


def test_anthropic_request_on_the_wire(llm_env: dict[str, str]) -> None:
    with ScriptedServer(fixed) as s:
        client = make_client(
            "anthropic", "claude-3-5-haiku-20241022", base_url=s.url, timeout_s=2, max_tokens=300
        )
        reply = client.complete(Request("SYSTEM TEXT", "USER TEXT"))
        req = s.requests[0]
    assert req["path"] == "/v1/messages"
    assert req["body"] == {
        "model": "claude-3-5-haiku-20241022",
        "max_tokens": 300,
        "system": "SYSTEM TEXT",
        "messages": [{"role": "user", "content": "USER TEXT"}],
    }
    auth = req["headers"].get("x-api-key") or req["headers"].get("authorization", "")
    assert ANTHROPIC_KEY in auth
    assert req["headers"]["anthropic-version"]
    assert reply.text == ANSWER and reply.completion_tokens == len(ANSWER) // 4


def test_compat_server_uses_max_tokens_and_optional_key(
    llm_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with ScriptedServer(fixed) as s:
        client = make_client("compat", "qwen2.5-7b", base_url=s.url + "/v1", timeout_s=2)
        client.complete(Request("s", "u"))
        monkeypatch.setenv("TOOLEX_COMPAT_API_KEY", COMPAT_KEY)
        make_client("compat", "qwen2.5-7b", base_url=s.url + "/v1", timeout_s=2).complete(
            Request("s", "u")
        )
        first, second = s.requests
    assert first["body"]["max_tokens"] == 1024 and "max_completion_tokens" not in first["body"]
    assert first["headers"]["authorization"] == "Bearer not-needed"
    assert second["headers"]["authorization"] == f"Bearer {COMPAT_KEY}"


def test_keys_never_reach_the_logs(
    llm_env: dict[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with ScriptedServer(fixed) as s:
        make_client("openai", "gpt-4o", base_url=s.url + "/v1", timeout_s=2).complete(
            Request("s", "u")
        )
        make_client("anthropic", "claude-3-5-haiku", base_url=s.url, timeout_s=2).complete(
            Request("s", "u")
        )
    assert caplog.records  # the SDKs did log at DEBUG...
    assert OPENAI_KEY not in caplog.text and ANTHROPIC_KEY not in caplog.text  # ...no keys


def test_missing_key_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ModelUnavailableError, match="OPENAI_API_KEY"):
        make_client("openai", "gpt-4o", base_url="http://127.0.0.1:9/v1")


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_faults_are_classified(llm_env: dict[str, str], provider: str) -> None:
    plan = FaultPlan(rate=1.0, kinds=("429", "500", "hang"), repeats=3, retry_after="0.25")
    with ScriptedServer(fixed, faults=plan) as s:  # the hang is held until the client gives up
        base = s.url + ("/v1" if provider == "openai" else "")
        client = make_client(provider, "m", base_url=base, timeout_s=5)
        errors = []
        for _ in range(3):  # same prompt: the plan cycles through its kinds
            with pytest.raises(TransientError) as info:
                client.complete(Request("s", "same prompt"))
            errors.append(info.value)
        assert client.complete(Request("s", "same prompt")).text == ANSWER  # 4th send is clean
    by_kind = {
        ("429" if "429" in str(e) else "500" if "500" in str(e) else "timeout"): e for e in errors
    }
    assert set(by_kind) == {"429", "500", "timeout"}
    assert by_kind["429"].retry_after == 0.25
    assert by_kind["500"].retry_after is None
    assert {k: e.kind for k, e in by_kind.items()} == {
        "429": "rate_limit",
        "500": "server",
        "timeout": "timeout",
    }


def test_auth_failure_is_permanent_and_does_not_echo_the_key(llm_env: dict[str, str]) -> None:
    def reject(provider: str, body: dict[str, Any]) -> str:
        raise AssertionError("not reached")

    with ScriptedServer(reject) as s:
        s.refuse_all(401)
        client = make_client("openai", "gpt-4o", base_url=s.url + "/v1", timeout_s=2)
        with pytest.raises(PermanentError) as info:
            client.complete(Request("s", "u"))
    assert "401" in str(info.value) and OPENAI_KEY not in str(info.value)


def test_retry_after_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    import toolex.llm.failures as failures

    assert retry_after_seconds({"retry-after-ms": "1500"}) == 1.5
    assert retry_after_seconds({"retry-after": "3"}) == 3.0
    assert retry_after_seconds({"retry-after": "0.25"}) == 0.25
    now = 1_700_000_000.0  # the parser's clock, fixed: no second may pass between the lines
    monkeypatch.setattr(failures, "time", SimpleNamespace(time=lambda: now))
    assert retry_after_seconds({"retry-after": formatdate(now + 10, usegmt=True)}) == 10.0
    assert retry_after_seconds({"retry-after": formatdate(now - 10, usegmt=True)}) == 0.0
    assert retry_after_seconds({}) is None


SCHEMA = Schema(
    "verdict",
    {
        "type": "object",
        "properties": {
            "verdict": {"type": "string", "enum": ["yes", "no"]},
            "reason": {"type": "string", "maxLength": 1000},
        },
        "required": ["verdict", "reason"],
        "additionalProperties": False,
    },
)


def test_structured_output_on_the_wire(llm_env: dict[str, str]) -> None:
    """OpenAI: strict json_schema without the keywords strict mode may refuse; a compatible
    server: the full schema (llama.cpp, vLLM and Ollama make a grammar of it); json_object
    carries it for llama.cpp; Anthropic: a forced tool whose input is the answer."""
    with ScriptedServer(fixed) as s:
        openai = make_client("openai", "gpt-4o-mini", base_url=s.url + "/v1", timeout_s=2)
        compat = make_client("compat", "qwen", base_url=s.url + "/v1", timeout_s=2)
        claude = make_client("anthropic", "claude-3-5-haiku", base_url=s.url, timeout_s=2)
        openai.complete(Request("s", "u", schema=SCHEMA))
        compat.complete(Request("s", "u", schema=SCHEMA))
        compat.complete(Request("s", "u", schema=SCHEMA, structured="json_object"))
        reply = claude.complete(Request("s", "u", schema=SCHEMA))
        compat.start_at("none")
        compat.complete(Request("s", "u", schema=SCHEMA))
        strict, full, with_schema, tool, plain = (r["body"] for r in s.requests)
    assert strict["response_format"]["type"] == "json_schema"
    sent = strict["response_format"]["json_schema"]
    assert sent["name"] == "verdict" and sent["strict"] is True
    assert "maxLength" not in sent["schema"]["properties"]["reason"]
    assert sent["schema"]["properties"]["verdict"] == {"type": "string", "enum": ["yes", "no"]}
    assert full["response_format"]["json_schema"]["schema"] == SCHEMA.body
    assert with_schema["response_format"] == {"type": "json_object", "schema": SCHEMA.body}
    assert tool["tools"][0]["input_schema"] == SCHEMA.body
    assert tool["tool_choice"] == {"type": "tool", "name": "verdict"}
    assert json.loads(reply.text) == json.loads(ANSWER)  # the tool's input is the answer
    assert "response_format" not in plain


def test_a_retry_sends_the_rejected_answer_and_the_problem(llm_env: dict[str, str]) -> None:
    retry = ('{"verdict": "maybe"}', "Your answer was rejected: ...")
    with ScriptedServer(fixed) as s:
        make_client("openai", "gpt-4o", base_url=s.url + "/v1", timeout_s=2).complete(
            Request("S", "U", retry=retry)
        )
        make_client("anthropic", "claude-3-5-haiku", base_url=s.url, timeout_s=2).complete(
            Request("S", "U", retry=("", "empty?"))
        )
        openai, anthropic = (r["body"]["messages"] for r in s.requests)
    assert openai == [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "U"},
        {"role": "assistant", "content": '{"verdict": "maybe"}'},
        {"role": "user", "content": "Your answer was rejected: ..."},
    ]
    assert anthropic[1:] == [
        {"role": "assistant", "content": "(empty answer)"},
        {"role": "user", "content": "empty?"},
    ]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_an_answer_cut_off_by_the_budget_is_marked(llm_env: dict[str, str], provider: str) -> None:
    long = json.dumps({"verdict": "no", "reason": "x" * 400})  # ~100 tokens
    with ScriptedServer(lambda p, b: long) as s:
        base = s.url + ("/v1" if provider == "openai" else "")
        client = make_client(provider, "m", base_url=base, timeout_s=2)
        cut = client.complete(Request("s", "u", schema=SCHEMA, max_tokens=50))
        whole = client.complete(Request("s", "u", schema=SCHEMA, max_tokens=200))
    assert cut.truncated and len(cut.text) == 200 and not whole.truncated
    assert json.loads(whole.text)["reason"] == "x" * 400


def test_the_timeout_is_per_request(llm_env: dict[str, str]) -> None:
    """The request's 0.2 s is its timeout, not the client's 600 s: the server holds the hung
    request for 60 s at most, then answers, so a client that waited its own timeout would get
    that late answer instead of a timeout (no wall-clock bound: issue 25)."""
    plan = FaultPlan(rate=1.0, kinds=("hang",), repeats=1)
    with ScriptedServer(fixed, faults=plan, hang_s=60) as s:
        client = make_client("compat", "m", base_url=s.url + "/v1", timeout_s=600)
        with pytest.raises(TransientError) as info:
            client.complete(Request("s", "u", timeout_s=0.2))
    assert info.value.kind == "timeout"


def test_a_refused_response_format_is_a_permanent_400(llm_env: dict[str, str]) -> None:
    with ScriptedServer(fixed, reject_formats=("json_schema",)) as s:
        client = make_client("compat", "m", base_url=s.url + "/v1", timeout_s=2)
        with pytest.raises(PermanentError) as info:
            client.complete(Request("s", "u", schema=SCHEMA))
        assert client.fallback(client.mode_for(Request("s", "u", schema=SCHEMA))) == ("json_object")
        ok = client.complete(Request("s", "u", schema=SCHEMA, structured="json_object"))
    assert info.value.status == 400 and "response_format" in str(info.value)
    assert ok.text == ANSWER
