"""Anthropic's Messages API.

Structured output is a forced tool (named after the answer) whose input schema is the answer's:
every Claude model and the batch API support it, where the newer ``output_config`` format only
some models do. Anthropic's API gives no log-probabilities, so its replies carry none.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from toolex.llm.clients.chat import (
    ProviderChat,
    Reply,
    Request,
    api_key,
    as_text,
    messages,
    token_count,
)
from toolex.llm.deadline import http_client


class AnthropicChat(ProviderChat):
    """Anthropic Messages API: every structured mode is the forced tool; ``structured =
    "none"`` asks for plain JSON text. No temperature: this SDK no longer takes one."""

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
        self._sdk, self._sdk_error = anthropic, anthropic.AnthropicError
        self.sdk_client = anthropic.Anthropic(
            api_key=api_key("anthropic"),
            base_url=base_url,
            timeout=timeout_s,
            max_retries=0,
            http_client=http_client(anthropic),  # the timeout bounds the whole call
        )

    def start_at(self, structured: str) -> None:
        # every mode but plain text is the forced tool: the Anthropic form of a schema
        super().start_at("none" if structured == "none" else "tool")

    def mode_for(self, request: Request) -> str:
        if request.structured:
            return request.structured
        return "none" if request.schema is None else self.mode

    def request_body(self, request: Request) -> dict[str, object]:
        body: dict[str, object] = {
            "model": self.model,
            "max_tokens": request.max_tokens or self.max_tokens,
            "system": request.system,
            "messages": messages(request),
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

    def send(self, body: Mapping[str, object]) -> object:
        return self.sdk_client.messages.create(**body)

    def read_reply(self, resp: object) -> Reply:
        return reply_from_anthropic(resp)


def reply_from_anthropic(resp: object) -> Reply:
    blocks = list(getattr(resp, "content", None) or [])
    tool = next((b for b in blocks if getattr(b, "type", None) == "tool_use"), None)
    if tool is not None:  # the forced tool's input is the answer object
        text = json.dumps(getattr(tool, "input", None), ensure_ascii=False, default=str)
    else:
        text = "".join(
            as_text(getattr(b, "text", "")) for b in blocks if getattr(b, "type", None) == "text"
        )
    usage = getattr(resp, "usage", None)
    return Reply(
        text,
        token_count(getattr(usage, "input_tokens", None)),
        token_count(getattr(usage, "output_tokens", None)),
        truncated=getattr(resp, "stop_reason", None) == "max_tokens",
    )
