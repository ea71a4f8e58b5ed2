"""The response bodies the scripted server (scripted_server.py) sends: OpenAI chat completions
(with token log-probabilities when asked) and Anthropic messages, cut at the request's token
budget as real servers cut them.

Log-probabilities: the answer is split into word and punctuation tokens; each word gets
``word_p(body)`` (0.8 by default) as its probability and, when the word is a verdict ("yes",
"no"), the other verdict word as its alternative with the rest of the mass; punctuation is
certain. The tokens spell the answer exactly, as OpenAI's do. Answers longer than
``LOGPROB_CHARS`` (the hostile 200 kB ones) get none: a test double need not build megabytes of
token lists, and a judge must cope with a reply without them anyway.
"""

from __future__ import annotations

import json
import math
import re
import time
import uuid
from collections.abc import Callable
from typing import Any

from llm.scripted_answers import budget

_TOKEN = re.compile(r"[A-Za-z]+|[^A-Za-z]")
OTHER = {"yes": "no", "no": "yes"}
LOGPROB_CHARS = 4000


def cut(body: dict[str, Any], text: str) -> tuple[str, bool]:
    """``text`` cut at the request's token budget (4 characters a token), and whether it was."""
    limit = budget(body)
    if limit and len(text) // 4 > limit:
        return text[: limit * 4], True
    return text, False


def logprobs(text: str, p: float, top: int) -> dict[str, Any]:
    """OpenAI's ``choice.logprobs`` for ``text``: words at probability ``p``."""
    content = []
    for token in _TOKEN.findall(text):
        word = token.isalpha()
        lp = math.log(p) if word else 0.0
        alts = [{"token": token, "logprob": lp, "bytes": None}]
        if token.lower() in OTHER and p < 1.0:
            alts.append({"token": OTHER[token.lower()], "logprob": math.log(1 - p), "bytes": None})
        content.append({"token": token, "logprob": lp, "bytes": None, "top_logprobs": alts[:top]})
    return {"content": content, "refusal": None}


def openai_completion(
    body: dict[str, Any],
    text: str,
    usage: dict[str, Any] | None = None,
    word_p: Callable[[dict[str, Any]], float] | None = None,
) -> dict[str, Any]:
    prompt_toks = len(json.dumps(body.get("messages", ""))) // 4
    text, was_cut = cut(body, text)
    asked = body.get("logprobs") is True and len(text) <= LOGPROB_CHARS
    p = word_p(body) if word_p is not None else 0.8
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model"),
        "choices": [
            {
                "index": 0,
                "finish_reason": "length" if was_cut else "stop",
                "logprobs": logprobs(text, p, body.get("top_logprobs") or 0) if asked else None,
                "message": {"role": "assistant", "content": text},
            }
        ],
        "usage": usage
        or {
            "prompt_tokens": prompt_toks,
            "completion_tokens": len(text) // 4,
            "total_tokens": prompt_toks + len(text) // 4,
        },
    }


def anthropic_message(body: dict[str, Any], text: str) -> dict[str, Any]:
    prompt_toks = len(json.dumps([body.get("system"), body.get("messages")])) // 4
    text, was_cut = cut(body, text)
    content: list[dict[str, Any]] = [{"type": "text", "text": text}]
    forced = (body.get("tool_choice") or {}).get("name")
    if forced and not was_cut:
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            value = None
        if isinstance(value, dict):  # the model's answer, given as the forced tool's input
            content = [
                {
                    "type": "tool_use",
                    "id": f"toolu_{uuid.uuid4().hex[:12]}",
                    "name": forced,
                    "input": value,
                }
            ]
    stop = "tool_use" if content[0]["type"] == "tool_use" else "end_turn"
    return {
        "id": f"msg_{uuid.uuid4().hex[:12]}",
        "type": "message",
        "role": "assistant",
        "model": body.get("model"),
        "content": content,
        "stop_reason": "max_tokens" if was_cut else stop,
        "stop_sequence": None,
        "usage": {"input_tokens": prompt_toks, "output_tokens": len(text) // 4},
    }
