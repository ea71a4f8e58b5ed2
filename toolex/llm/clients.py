"""Provider adapters over the real ``openai`` and ``anthropic`` SDKs.

Each adapter turns one :class:`Request` (the system prompt, the task's user message, and after a
rejected answer that answer plus a message naming the problem) into one chat call and classifies
failures (toolex.llm.failures): ``TransientError`` (429, 5xx, timeouts, connection failures:
worth retrying, with the server's Retry-After when given; ``kind`` says which) and
``PermanentError`` (bad key, bad request: retrying the same request cannot help). The SDKs are
built with ``max_retries=0`` so the executor's backoff is the only retry policy, and every call
carries its judge's timeout.

Structured output: a request that names its answer's JSON schema asks the server to constrain
the answer to it. OpenAI: ``response_format`` ``json_schema``, strict, within the subset strict
mode accepts. An OpenAI-compatible server: the same with the full schema (llama.cpp, vLLM, Ollama
and LM Studio turn it into a grammar), or ``json_object`` with the schema beside it (llama.cpp
reads it there; others give any JSON object). Anthropic: a forced tool whose input schema is the
answer (every Claude model and the batch API support it; the newer ``output_config`` format only
some models). A server that rejects a mode (HTTP 400/422) is probed with the next mode down for
that call; once that answers, the client keeps the lower mode for the rest of the run. The strict
parser stays the guard either way: a schema shapes answers, it does not vouch for them.

Log-probabilities: a request that wants them (``Request.logprobs``, the verdicts) asks OpenAI
and compatible servers for the answer tokens' log-probabilities and the top alternatives
(toolex.llm.logprobs); reasoning models give none and are not asked; a server that refuses them
(HTTP 400/422 naming logprobs) is asked again without, and never again in the run. Anthropic's
API has none.

API keys are read from the environment only (OPENAI_API_KEY, ANTHROPIC_API_KEY,
TOOLEX_COMPAT_API_KEY) at construction and handed to the SDK; they are never stored in the
ledger, in configs or in error messages.
"""

from __future__ import annotations

import copy
import json
import os
import re
import threading
from dataclasses import dataclass
from typing import Any, Protocol

from toolex.errors import ModelUnavailableError
from toolex.llm.failures import PermanentError as PermanentError
from toolex.llm.failures import TransientError as TransientError
from toolex.llm.failures import classify
from toolex.llm.failures import retry_after_seconds as retry_after_seconds
from toolex.llm.keys import check_key
from toolex.llm.logprobs import TokenProb, read_openai

_REASONING_MODEL = re.compile(r"^(o\d|gpt-5)")
# Keywords OpenAI's strict mode may refuse; the strict parser checks what they would have.
_NOT_STRICT = ("minItems", "maxItems", "minLength", "maxLength")
_INT32 = 2**31 - 1

KEY_ENV = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "compat": "TOOLEX_COMPAT_API_KEY",
}


@dataclass(frozen=True)
class Schema:
    """The JSON schema of an answer and its name (a-z, 0-9, _ and -)."""

    name: str
    body: dict[str, Any]


@dataclass(frozen=True)
class Request:
    """One chat call: the task's prompt, then (on a retry) the rejected answer and the user
    message naming its problem; the answer schema, token budget and timeout of this attempt."""

    system: str
    user: str
    retry: tuple[str, str] | None = None  # (the rejected answer, the message naming its problem)
    schema: Schema | None = None
    max_tokens: int | None = None  # None: the client's default
    timeout_s: float | None = None  # None: the client's default
    structured: str | None = None  # a lower mode probed for this call only (after a rejection)
    logprobs: int = 0  # alternatives per answer token wanted (0: no log-probabilities)


@dataclass(frozen=True)
class Reply:
    text: str
    prompt_tokens: int | None
    completion_tokens: int | None
    truncated: bool = False  # cut off by the token budget (finish_reason length / max_tokens)
    tokens: tuple[TokenProb, ...] | None = None  # the answer's tokens, where the API gives them


class ChatClient(Protocol):
    provider: str
    model: str
    max_tokens: int

    def complete(self, request: Request) -> Reply: ...

    def mode_for(self, request: Request) -> str: ...

    def fallback(self, mode: str) -> str | None: ...

    def adopt(self, mode: str) -> None: ...

    def start_at(self, structured: str) -> None: ...


def api_key(provider: str, required: bool = True) -> str | None:
    env = KEY_ENV[provider]
    key = check_key(env, os.environ.get(env))  # a key no HTTP header can carry: said up front
    if not key and required:
        raise ModelUnavailableError(
            f"no API key for {provider}: set the environment variable {env} (keys are read "
            "from the environment only), or use the offline judge `heuristic`"
        )
    return key


def token_count(value: Any) -> int | None:
    """A token count as the ledger can hold it: a server's nonsense (negative, huge, text) is
    unknown, not a crash."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _INT32:
        return None
    return value


def _text(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


class _Modes:
    """The structured-output modes a client tries, strongest first, and the one it is at now.
    Shared by the worker threads: a mode is lowered once a call at the lower mode answered."""

    chain: tuple[str, ...]  # every mode of this provider, strongest first
    _mode: str

    def start_at(self, structured: str) -> None:
        """Begin at ``structured`` (the config's choice; see toolex.llm.config)."""
        self._lock = threading.Lock()
        self._mode = structured if structured in self.chain else self.chain[-1]

    @property
    def mode(self) -> str:
        return self._mode

    def fallback(self, mode: str) -> str | None:
        """The next mode down from ``mode``, or None at plain text."""
        i = self.chain.index(mode) if mode in self.chain else len(self.chain) - 1
        return self.chain[i + 1] if i + 1 < len(self.chain) else None

    def adopt(self, mode: str) -> None:
        """Keep ``mode`` for the rest of the run if it is lower than the current one."""
        with self._lock:
            if self.chain.index(mode) > self.chain.index(self._mode):
                self._mode = mode


def _messages(request: Request) -> list[dict[str, str]]:
    """The conversation after the system prompt: the task, then any rejected answer and its
    correction (the model sees what it wrote and what was wrong with it)."""
    turns = [{"role": "user", "content": request.user}]
    if request.retry is not None:
        answer, problem = request.retry
        turns.append({"role": "assistant", "content": answer.strip() or "(empty answer)"})
        turns.append({"role": "user", "content": problem})
    return turns


def strict_schema(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` without the keywords OpenAI's strict mode may refuse: a refused schema would
    cost a probe and the schema for the rest of the run, and the parser checks these bounds."""
    out = copy.deepcopy(body)
    stack = [out]
    while stack:
        node = stack.pop()
        for key in _NOT_STRICT:
            node.pop(key, None)
        stack.extend(value for value in node.values() if isinstance(value, dict))
    return out


class OpenAIChat(_Modes):
    """OpenAI chat completions; also any OpenAI-compatible server (vLLM, Ollama, llama.cpp)."""

    chain = ("json_schema", "json_object", "none")

    def __init__(
        self,
        model: str,
        *,
        provider: str = "openai",
        base_url: str | None = None,
        timeout_s: float = 60.0,
        max_tokens: int = 1024,
        structured: str = "json_schema",
    ) -> None:
        import openai

        self.provider, self.model, self.max_tokens = provider, model, max_tokens
        self.start_at(structured)
        self.logprobs = True  # asked for when a request wants them, until the server refuses
        # Local servers rarely check keys, but the SDK insists on one.
        key = api_key(provider, required=provider == "openai") or "not-needed"
        self._sdk = openai
        self.sdk_client = openai.OpenAI(
            api_key=key, base_url=base_url, timeout=timeout_s, max_retries=0
        )

    def mode_for(self, request: Request) -> str:
        if request.structured:
            return request.structured
        if request.schema is None and self.mode == "json_schema":
            return "json_object"  # nothing to shape: JSON mode
        return self.mode

    def response_format(self, mode: str, schema: Schema | None) -> dict[str, Any] | None:
        if mode == "json_schema" and schema is not None:
            body = strict_schema(schema.body) if self.provider == "openai" else schema.body
            return {
                "type": "json_schema",
                "json_schema": {"name": schema.name, "strict": True, "schema": body},
            }
        if mode in ("json_schema", "json_object"):
            if self.provider == "compat" and schema is not None:  # llama.cpp reads it there
                return {"type": "json_object", "schema": schema.body}
            return {"type": "json_object"}
        return None

    def request_body(self, request: Request) -> dict[str, Any]:
        """The chat-completions body (also one line of a Batch API input file)."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": request.system}, *_messages(request)],
        }
        response_format = self.response_format(self.mode_for(request), request.schema)
        if response_format is not None:
            body["response_format"] = response_format
        reasoning = self.provider == "openai" and bool(_REASONING_MODEL.match(self.model))
        if not reasoning:
            body["temperature"] = 0  # reasoning models reject any temperature but the default
        if request.logprobs and self.logprobs and not reasoning:  # nor do they give logprobs
            body["logprobs"], body["top_logprobs"] = True, request.logprobs
        # OpenAI's newer models take max_completion_tokens; compatible servers know max_tokens.
        body["max_completion_tokens" if self.provider == "openai" else "max_tokens"] = (
            request.max_tokens or self.max_tokens
        )
        return body

    def complete(self, request: Request) -> Reply:
        body = self.request_body(request)
        if request.timeout_s is not None:
            body["timeout"] = request.timeout_s
        try:
            resp = self.sdk_client.chat.completions.create(**body)
        except self._sdk.OpenAIError as exc:
            error = classify(exc, self._sdk)
            refused = isinstance(error, PermanentError) and error.status in (400, 422)
            if not (refused and "logprobs" in body and "logprob" in str(error).lower()):
                raise error from None
            # A server without log-probabilities: ask for none for the rest of the run (the
            # verdicts then take their confidence from another signal), and this call again.
            self.logprobs = False
            return self.complete(request)
        return reply_from_openai(resp)


def reply_from_openai(resp: Any) -> Reply:
    if not getattr(resp, "choices", None):
        raise TransientError("the response has no choices")
    choice = resp.choices[0]
    message = getattr(choice, "message", None)
    # A strict-mode refusal comes instead of content: it is recorded as the (malformed) answer.
    text = _text(getattr(message, "content", None) or getattr(message, "refusal", None))
    usage = getattr(resp, "usage", None)
    return Reply(
        text,
        token_count(getattr(usage, "prompt_tokens", None)),
        token_count(getattr(usage, "completion_tokens", None)),
        truncated=getattr(choice, "finish_reason", None) == "length",
        tokens=read_openai(choice),
    )


class AnthropicChat(_Modes):
    """Anthropic Messages API. Structured output is a forced tool (named after the answer)
    whose input schema is the answer's; ``structured = "none"`` asks for plain JSON text. No
    temperature: this SDK no longer takes one."""

    chain = ("tool", "none")

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        timeout_s: float = 60.0,
        max_tokens: int = 1024,
        structured: str = "json_schema",
    ) -> None:
        import anthropic

        self.provider, self.model, self.max_tokens = "anthropic", model, max_tokens
        self.start_at(structured)
        self._sdk = anthropic
        self.sdk_client = anthropic.Anthropic(
            api_key=api_key("anthropic"), base_url=base_url, timeout=timeout_s, max_retries=0
        )

    def start_at(self, structured: str) -> None:
        # every mode but plain text is the forced tool: the Anthropic form of a schema
        super().start_at("none" if structured == "none" else "tool")

    def mode_for(self, request: Request) -> str:
        if request.structured:
            return request.structured
        return "none" if request.schema is None else self.mode

    def request_body(self, request: Request) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": request.max_tokens or self.max_tokens,
            "system": request.system,
            "messages": _messages(request),
        }
        if self.mode_for(request) == "tool" and request.schema is not None:
            body["tools"] = [
                {
                    "name": request.schema.name,
                    "description": "Give your answer: the JSON object the instructions ask for.",
                    "input_schema": request.schema.body,
                }
            ]
            body["tool_choice"] = {"type": "tool", "name": request.schema.name}
        return body

    def complete(self, request: Request) -> Reply:
        body = self.request_body(request)
        if request.timeout_s is not None:
            body["timeout"] = request.timeout_s
        try:
            resp = self.sdk_client.messages.create(**body)
        except self._sdk.AnthropicError as exc:
            raise classify(exc, self._sdk) from None
        return reply_from_anthropic(resp)


def reply_from_anthropic(resp: Any) -> Reply:
    blocks = list(getattr(resp, "content", None) or [])
    tool = next((b for b in blocks if getattr(b, "type", None) == "tool_use"), None)
    if tool is not None:  # the forced tool's input is the answer object
        text = json.dumps(getattr(tool, "input", None), ensure_ascii=False, default=str)
    else:
        text = "".join(
            _text(getattr(b, "text", "")) for b in blocks if getattr(b, "type", None) == "text"
        )
    usage = getattr(resp, "usage", None)
    return Reply(
        text,
        token_count(getattr(usage, "input_tokens", None)),
        token_count(getattr(usage, "output_tokens", None)),
        truncated=getattr(resp, "stop_reason", None) == "max_tokens",
    )


def make_client(
    provider: str,
    model: str,
    *,
    base_url: str | None = None,
    timeout_s: float = 60.0,
    max_tokens: int = 1024,
    structured: str = "json_schema",
) -> ChatClient:
    if provider == "anthropic":
        return AnthropicChat(
            model,
            base_url=base_url,
            timeout_s=timeout_s,
            max_tokens=max_tokens,
            structured=structured,
        )
    if provider in ("openai", "compat"):
        return OpenAIChat(
            model,
            provider=provider,
            base_url=base_url,
            timeout_s=timeout_s,
            max_tokens=max_tokens,
            structured=structured,
        )
    raise ValueError(f"unknown LLM provider {provider!r}")
