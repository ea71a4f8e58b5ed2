"""The provider adapters, through the real openai/anthropic SDKs over HTTP to the scripted
server: what goes on the wire, what comes back, and how failures are classified."""

from __future__ import annotations

import json
import logging
import time
from email.utils import formatdate

import pytest
from llm_support import ANTHROPIC_KEY, COMPAT_KEY, OPENAI_KEY, FaultPlan, ScriptedServer

from toolex.errors import ModelUnavailableError
from toolex.llm.clients import (
    PermanentError,
    TransientError,
    make_client,
    retry_after_seconds,
)

ANSWER = '{"verdict": "yes", "reason": "same operation"}'


def fixed(provider, body):
    return ANSWER


def test_openai_request_on_the_wire(llm_env):
    with ScriptedServer(fixed) as s:
        client = make_client("openai", "gpt-4o-mini", base_url=s.url + "/v1", timeout_s=2)
        reply = client.complete("SYSTEM TEXT", "USER TEXT")
        req = s.requests[0]
    assert req["path"] == "/v1/chat/completions"
    assert req["body"]["model"] == "gpt-4o-mini"
    assert req["body"]["messages"] == [
        {"role": "system", "content": "SYSTEM TEXT"},
        {"role": "user", "content": "USER TEXT"},
    ]
    assert req["body"]["response_format"] == {"type": "json_object"}  # JSON mode
    assert req["body"]["temperature"] == 0
    assert req["body"]["max_completion_tokens"] == 1024
    assert req["headers"]["authorization"] == f"Bearer {OPENAI_KEY}"
    assert req["headers"]["x-stainless-retry-count"] == "0"  # the SDK does not retry on its own
    assert reply.text == ANSWER
    # the server counts tokens as len(json(messages)) // 4 and len(answer) // 4
    assert reply.completion_tokens == len(ANSWER) // 4
    assert reply.prompt_tokens == len(json.dumps(req["body"]["messages"])) // 4


def test_reasoning_models_get_no_temperature(llm_env):
    with ScriptedServer(fixed) as s:
        for model in ("o3-mini", "gpt-5-mini", "gpt-4o"):
            make_client("openai", model, base_url=s.url + "/v1", timeout_s=2).complete("s", "u")
        bodies = [r["body"] for r in s.requests]
    assert ["temperature" in b for b in bodies] == [False, False, True]


def test_anthropic_request_on_the_wire(llm_env):
    with ScriptedServer(fixed) as s:
        client = make_client(
            "anthropic", "claude-3-5-haiku-20241022", base_url=s.url, timeout_s=2, max_tokens=300
        )
        reply = client.complete("SYSTEM TEXT", "USER TEXT")
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


def test_compat_server_uses_max_tokens_and_optional_key(llm_env, monkeypatch):
    with ScriptedServer(fixed) as s:
        client = make_client("compat", "qwen2.5-7b", base_url=s.url + "/v1", timeout_s=2)
        client.complete("s", "u")
        monkeypatch.setenv("TOOLEX_COMPAT_API_KEY", COMPAT_KEY)
        make_client("compat", "qwen2.5-7b", base_url=s.url + "/v1", timeout_s=2).complete("s", "u")
        first, second = s.requests
    assert first["body"]["max_tokens"] == 1024 and "max_completion_tokens" not in first["body"]
    assert first["headers"]["authorization"] == "Bearer not-needed"
    assert second["headers"]["authorization"] == f"Bearer {COMPAT_KEY}"


def test_keys_never_reach_the_logs(llm_env, caplog):
    caplog.set_level(logging.DEBUG)
    with ScriptedServer(fixed) as s:
        make_client("openai", "gpt-4o", base_url=s.url + "/v1", timeout_s=2).complete("s", "u")
        make_client("anthropic", "claude-3-5-haiku", base_url=s.url, timeout_s=2).complete("s", "u")
    assert caplog.records  # the SDKs did log at DEBUG...
    assert OPENAI_KEY not in caplog.text and ANTHROPIC_KEY not in caplog.text  # ...no keys


def test_missing_key_names_the_variable(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ModelUnavailableError, match="OPENAI_API_KEY"):
        make_client("openai", "gpt-4o", base_url="http://127.0.0.1:9/v1")


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_faults_are_classified(llm_env, provider):
    plan = FaultPlan(rate=1.0, kinds=("429", "500", "hang"), repeats=3, retry_after="0.25")
    with ScriptedServer(fixed, faults=plan, hang_s=0.6) as s:
        base = s.url + ("/v1" if provider == "openai" else "")
        client = make_client(provider, "m", base_url=base, timeout_s=0.3)
        errors = []
        for _ in range(3):  # same prompt: the plan cycles through its kinds
            with pytest.raises(TransientError) as info:
                client.complete("s", "same prompt")
            errors.append(info.value)
        assert client.complete("s", "same prompt").text == ANSWER  # 4th send is clean
    by_kind = {
        ("429" if "429" in str(e) else "500" if "500" in str(e) else "timeout"): e for e in errors
    }
    assert set(by_kind) == {"429", "500", "timeout"}
    assert by_kind["429"].retry_after == 0.25
    assert by_kind["500"].retry_after is None


def test_auth_failure_is_permanent_and_does_not_echo_the_key(llm_env):
    def reject(provider, body):
        raise AssertionError("not reached")

    with ScriptedServer(reject) as s:
        s.refuse_all(401)
        client = make_client("openai", "gpt-4o", base_url=s.url + "/v1", timeout_s=2)
        with pytest.raises(PermanentError) as info:
            client.complete("s", "u")
    assert "401" in str(info.value) and OPENAI_KEY not in str(info.value)


def test_retry_after_forms():
    assert retry_after_seconds({"retry-after-ms": "1500"}) == 1.5
    assert retry_after_seconds({"retry-after": "3"}) == 3.0
    assert retry_after_seconds({"retry-after": "0.25"}) == 0.25
    in_ten = retry_after_seconds({"retry-after": formatdate(time.time() + 10, usegmt=True)})
    assert 8 <= in_ten <= 10
    assert retry_after_seconds({}) is None
