"""Provider clients over the real ``openai`` and ``anthropic`` SDKs.

Each client turns one :class:`Request` (the system prompt, the task's user message, and after a
rejected answer that answer plus a message naming the problem) into one chat call and classifies
failures (toolex.llm.failures): ``TransientError`` (429, 5xx, timeouts, connection failures:
worth retrying, with the server's Retry-After when given; ``kind`` says which) and
``PermanentError`` (bad key, bad request: retrying the same request cannot help). The SDKs are
built with ``max_retries=0`` so the executor's backoff is the only retry policy, and every call
carries its judge's timeout.

- ``chat``: the records (``Request``, ``Reply``, ``Schema``), the structured-output modes and
  the call body every provider shares (``ProviderChat.complete``).
- ``openai_chat``: OpenAI, and OpenAI-compatible servers (``compat:``).
- ``anthropic_chat``: Anthropic.

Structured output: a request that names its answer's JSON schema asks the server to constrain
the answer to it, each provider in its own form (see its module). A server that rejects a mode
(HTTP 400/422) is probed with the next mode down for that call; once that answers, the client
keeps the lower mode for the rest of the run. The strict parser stays the guard either way: a
schema shapes answers, it does not vouch for them.

API keys are read from the environment only (OPENAI_API_KEY, ANTHROPIC_API_KEY,
TOOLEX_COMPAT_API_KEY) at construction and handed to the SDK; they are never stored in the
ledger, in configs or in error messages.

The names load on first use (PEP 562): the records (``Reply``, ``Request``) that offline code
reads (the heuristic judge's confidence, the executor's types) load ``chat`` alone, not the
provider modules and their HTTP client (httpx2, httpcore2: 0.1 CPU-s of `toolex demo`, which
calls no model).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from toolex.llm.keys import remember_url

if TYPE_CHECKING:
    from toolex.llm.clients.anthropic_chat import AnthropicChat, reply_from_anthropic
    from toolex.llm.clients.chat import (
        KEY_ENV,
        ChatClient,
        ProviderChat,
        Reply,
        Request,
        Schema,
        api_key,
        token_count,
    )
    from toolex.llm.clients.openai_chat import OpenAIChat, reply_from_openai, strict_schema
    from toolex.llm.failures import PermanentError, TransientError, retry_after_seconds

__all__ = [
    "KEY_ENV",
    "AnthropicChat",
    "ChatClient",
    "OpenAIChat",
    "PermanentError",
    "ProviderChat",
    "Reply",
    "Request",
    "Schema",
    "TransientError",
    "api_key",
    "make_client",
    "reply_from_anthropic",
    "reply_from_openai",
    "retry_after_seconds",
    "strict_schema",
    "token_count",
]


# public name -> the module it is read from
_HOME: dict[str, str] = {
    **dict.fromkeys(("AnthropicChat", "reply_from_anthropic"), "toolex.llm.clients.anthropic_chat"),
    **dict.fromkeys(
        ("KEY_ENV", "ChatClient", "ProviderChat", "Reply", "Request", "Schema", "api_key"),
        "toolex.llm.clients.chat",
    ),
    "token_count": "toolex.llm.clients.chat",
    **dict.fromkeys(
        ("OpenAIChat", "reply_from_openai", "strict_schema"), "toolex.llm.clients.openai_chat"
    ),
    **dict.fromkeys(
        ("PermanentError", "TransientError", "retry_after_seconds"), "toolex.llm.failures"
    ),
}


def __getattr__(name: str) -> object:
    if name in _HOME:
        return getattr(importlib.import_module(_HOME[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make_client(
    provider: str,
    model: str,
    *,
    base_url: str | None = None,
    timeout_s: float = 60.0,
    max_tokens: int = 1024,
    structured: str = "json_schema",
) -> ChatClient:
    remember_url(base_url)  # its credentials are hidden from all that toolex stores or prints
    if provider == "anthropic":
        from toolex.llm.clients.anthropic_chat import AnthropicChat

        return AnthropicChat(
            model,
            base_url=base_url,
            timeout_s=timeout_s,
            max_tokens=max_tokens,
            structured=structured,
        )
    if provider in ("openai", "compat"):
        from toolex.llm.clients.openai_chat import OpenAIChat

        return OpenAIChat(
            model,
            provider=provider,
            base_url=base_url,
            timeout_s=timeout_s,
            max_tokens=max_tokens,
            structured=structured,
        )
    raise ValueError(f"unknown LLM provider {provider!r}")
