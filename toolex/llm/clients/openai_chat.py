"""OpenAI chat completions, and any OpenAI-compatible server (``compat:``: vLLM, Ollama,
llama.cpp, LM Studio) through the same SDK.

Structured output: OpenAI gets ``response_format`` ``json_schema``, strict, within the subset
strict mode accepts (``strict_schema``). A compatible server gets the same with the full schema
(llama.cpp, vLLM, Ollama and LM Studio turn it into a grammar), or ``json_object`` with the
schema beside it (llama.cpp reads it there; others give any JSON object).

Log-probabilities: a request that wants them (``Request.logprobs``, the verdicts) asks for the
answer tokens' log-probabilities and the top alternatives (toolex.llm.logprobs); reasoning
models give none and are not asked; a server that refuses them (HTTP 400/422 naming logprobs)
is asked again without, and never again in the run.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from toolex.llm.clients.chat import (
    ProviderChat,
    Reply,
    Request,
    Schema,
    api_key,
    as_text,
    messages,
    token_count,
)
from toolex.llm.deadline import http_client
from toolex.llm.failures import PermanentError, TransientError
from toolex.llm.logprobs import read_openai

_REASONING_MODEL = re.compile(r"^(o\d|gpt-5)")
# Keywords OpenAI's strict mode may refuse; the strict parser checks what they would have.
_NOT_STRICT = ("minItems", "maxItems", "minLength", "maxLength")


def strict_schema(body: dict[str, object]) -> dict[str, object]:
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


class OpenAIChat(ProviderChat):
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
        self.seed = True  # a request's seed is sent, until the server refuses it
        # Local servers rarely check keys, but the SDK insists on one.
        key = api_key(provider, required=provider == "openai") or "not-needed"
        self._sdk, self._sdk_error = openai, openai.OpenAIError
        self.sdk_client = openai.OpenAI(
            api_key=key,
            base_url=base_url,
            timeout=timeout_s,
            max_retries=0,
            http_client=http_client(openai),  # the timeout bounds the whole call
        )

    def mode_for(self, request: Request) -> str:
        if request.structured:
            return request.structured
        if request.schema is None and self.mode == "json_schema":
            return "json_object"  # nothing to shape: JSON mode
        return self.mode

    def response_format(self, mode: str, schema: Schema | None) -> dict[str, object] | None:
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

    def request_body(self, request: Request) -> dict[str, object]:
        """The chat-completions body (also one line of a Batch API input file)."""
        body: dict[str, object] = {
            "model": self.model,
            "messages": [{"role": "system", "content": request.system}, *messages(request)],
        }
        response_format = self.response_format(self.mode_for(request), request.schema)
        if response_format is not None:
            body["response_format"] = response_format
        reasoning = self.provider == "openai" and bool(_REASONING_MODEL.match(self.model))
        if not reasoning:  # reasoning models reject any temperature but the default
            body["temperature"] = request.temperature if request.temperature is not None else 0
        if request.logprobs and self.logprobs and not reasoning:  # nor do they give logprobs
            body["logprobs"], body["top_logprobs"] = True, request.logprobs
        if request.seed is not None and self.seed and not reasoning:
            body["seed"] = request.seed  # the same request samples the same answer again
        # OpenAI's newer models take max_completion_tokens; compatible servers know max_tokens.
        body["max_completion_tokens" if self.provider == "openai" else "max_tokens"] = (
            request.max_tokens or self.max_tokens
        )
        return body

    def send(self, body: Mapping[str, object]) -> object:
        return self.sdk_client.chat.completions.create(**body)

    def read_reply(self, resp: object) -> Reply:
        return reply_from_openai(resp)

    def retry_without(self, error: Exception, body: Mapping[str, object]) -> bool:
        refused = isinstance(error, PermanentError) and error.status in (400, 422)
        said = str(error).lower()
        if refused and "seed" in body and "seed" in said:
            self.seed = False  # a server that takes no seed: none for the rest of the run
            return True
        if not (refused and "logprobs" in body and "logprob" in said):
            return False
        # A server without log-probabilities: ask for none for the rest of the run (the
        # verdicts then take their confidence from another signal), and this call again.
        self.logprobs = False
        return True


def reply_from_openai(resp: Any) -> Reply:
    if not getattr(resp, "choices", None):
        raise TransientError("the response has no choices")
    choice = resp.choices[0]
    message = getattr(choice, "message", None)
    # A strict-mode refusal comes instead of content: it is recorded as the (malformed) answer.
    text = as_text(getattr(message, "content", None) or getattr(message, "refusal", None))
    usage = getattr(resp, "usage", None)
    return Reply(
        text,
        token_count(getattr(usage, "prompt_tokens", None)),
        token_count(getattr(usage, "completion_tokens", None)),
        truncated=getattr(choice, "finish_reason", None) == "length",
        tokens=read_openai(choice),
    )
