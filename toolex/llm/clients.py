"""Provider adapters over the real ``openai`` and ``anthropic`` SDKs.

Each adapter turns one (system, user) prompt into one chat call and classifies failures:
``TransientError`` (429, 5xx, timeouts, connection failures: worth retrying, with the server's
Retry-After when given) and ``PermanentError`` (bad key, bad request: retrying cannot help). The
SDKs are built with ``max_retries=0`` so the executor's backoff is the only retry policy, and with
an explicit timeout so a hung server costs one timeout, not the SDK's default ten minutes.

API keys are read from the environment only (OPENAI_API_KEY, ANTHROPIC_API_KEY,
TOOLEX_COMPAT_API_KEY) at construction and handed to the SDK; they are never stored in the
ledger, in configs or in error messages.
"""

from __future__ import annotations

import email.utils
import os
import re
import time
from dataclasses import dataclass
from typing import Any, Protocol

from toolex.errors import ModelUnavailableError

_REASONING_MODEL = re.compile(r"^(o\d|gpt-5)")

KEY_ENV = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "compat": "TOOLEX_COMPAT_API_KEY",
}


@dataclass(frozen=True)
class Reply:
    text: str
    prompt_tokens: int | None
    completion_tokens: int | None


class TransientError(Exception):
    """Worth retrying: rate limit, server error, timeout, dropped connection."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class PermanentError(Exception):
    """Retrying the same request cannot succeed (authentication, invalid request)."""


class ChatClient(Protocol):
    provider: str
    model: str
    supports_json_mode: bool

    def complete(self, system: str, user: str) -> Reply: ...


def retry_after_seconds(headers: Any) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date)."""
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value) if value else None
        return max(0.0, parsed.timestamp() - time.time()) if parsed else None


def _classify(exc: Exception, sdk: Any) -> Exception:
    """Map an SDK exception to TransientError / PermanentError, without leaking headers."""
    if isinstance(exc, sdk.APITimeoutError):
        return TransientError("timeout: the server did not answer in time")
    if isinstance(exc, sdk.APIConnectionError):
        return TransientError(f"connection error: {type(exc).__name__}")
    if isinstance(exc, sdk.APIStatusError):
        status = exc.status_code
        msg = f"HTTP {status}: {_short(exc)}"
        if status == 429 or status >= 500 or status == 408:
            return TransientError(msg, retry_after_seconds(exc.response.headers))
        return PermanentError(msg)
    return PermanentError(f"{type(exc).__name__}: {exc}")


def _short(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])[:200]
    return str(getattr(exc, "message", exc))[:200]


def api_key(provider: str, required: bool = True) -> str | None:
    env = KEY_ENV[provider]
    key = os.environ.get(env)
    if not key and required:
        raise ModelUnavailableError(
            f"no API key for {provider}: set the environment variable {env} (keys are read "
            "from the environment only), or use the offline judge `heuristic`"
        )
    return key


class OpenAIChat:
    """OpenAI chat completions; also any OpenAI-compatible server (vLLM, Ollama, llama.cpp)."""

    def __init__(
        self,
        model: str,
        *,
        provider: str = "openai",
        base_url: str | None = None,
        timeout_s: float = 60.0,
        max_tokens: int = 1024,
    ) -> None:
        import openai

        self.provider, self.model, self.max_tokens = provider, model, max_tokens
        # Local servers rarely check keys, but the SDK insists on one.
        key = api_key(provider, required=provider == "openai") or "not-needed"
        self.supports_json_mode = True
        self._sdk = openai
        self.sdk_client = openai.OpenAI(
            api_key=key, base_url=base_url, timeout=timeout_s, max_retries=0
        )

    def request_body(self, system: str, user: str) -> dict[str, Any]:
        """The chat-completions body (also one line of a Batch API input file)."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "response_format": {"type": "json_object"},
        }
        if not (self.provider == "openai" and _REASONING_MODEL.match(self.model)):
            body["temperature"] = 0  # reasoning models reject any temperature but the default
        # OpenAI's newer models take max_completion_tokens; compatible servers know max_tokens.
        body["max_completion_tokens" if self.provider == "openai" else "max_tokens"] = (
            self.max_tokens
        )
        return body

    def complete(self, system: str, user: str) -> Reply:
        try:
            resp = self.sdk_client.chat.completions.create(**self.request_body(system, user))
        except self._sdk.OpenAIError as exc:
            raise _classify(exc, self._sdk) from None
        return reply_from_openai(resp)


def reply_from_openai(resp: Any) -> Reply:
    if not getattr(resp, "choices", None):
        raise TransientError("the response has no choices")
    text = resp.choices[0].message.content or ""
    usage = getattr(resp, "usage", None)
    return Reply(
        text, getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None)
    )


class AnthropicChat:
    """Anthropic Messages API. No JSON mode is requested (structured outputs exist only for some
    models and a 400 on the others would fail every call); the prompt asks for JSON only and the
    strict parser rejects anything else. No temperature either: this SDK no longer takes one."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        timeout_s: float = 60.0,
        max_tokens: int = 1024,
    ) -> None:
        import anthropic

        self.provider, self.model, self.max_tokens = "anthropic", model, max_tokens
        self.supports_json_mode = False
        self._sdk = anthropic
        self.sdk_client = anthropic.Anthropic(
            api_key=api_key("anthropic"), base_url=base_url, timeout=timeout_s, max_retries=0
        )

    def request_body(self, system: str, user: str) -> dict[str, Any]:
        return {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": system,
            "messages": [{"role": "user", "content": user}],
        }

    def complete(self, system: str, user: str) -> Reply:
        try:
            resp = self.sdk_client.messages.create(**self.request_body(system, user))
        except self._sdk.AnthropicError as exc:
            raise _classify(exc, self._sdk) from None
        return reply_from_anthropic(resp)


def reply_from_anthropic(resp: Any) -> Reply:
    text = "".join(
        getattr(block, "text", "") for block in (resp.content or []) if block.type == "text"
    )
    usage = getattr(resp, "usage", None)
    return Reply(text, getattr(usage, "input_tokens", None), getattr(usage, "output_tokens", None))


def make_client(
    provider: str,
    model: str,
    *,
    base_url: str | None = None,
    timeout_s: float = 60.0,
    max_tokens: int = 1024,
) -> ChatClient:
    if provider == "anthropic":
        return AnthropicChat(model, base_url=base_url, timeout_s=timeout_s, max_tokens=max_tokens)
    if provider in ("openai", "compat"):
        return OpenAIChat(
            model,
            provider=provider,
            base_url=base_url,
            timeout_s=timeout_s,
            max_tokens=max_tokens,
        )
    raise ValueError(f"unknown LLM provider {provider!r}")
