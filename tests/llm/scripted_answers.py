"""What the scripted LLM server (scripted_server.py) answers, and when it fails instead.

``default_responder`` answers decompose prompts with k generic sub-queries and verify/audit
prompts with yes or no by a hash of the prompt; a ``FaultPlan`` picks, deterministically per
request content, which requests fail and how (429, 500, hang, malformed, wrong k).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

FAULT_KINDS = ("429", "500", "hang", "malformed", "wrong_k")


def request_key(body: dict[str, Any]) -> str:
    """Identity of a request's content (model + prompt), stable across retries."""
    prompt = [body.get("model"), body.get("system"), body.get("messages")]
    return hashlib.sha256(json.dumps(prompt, sort_keys=True).encode()).hexdigest()


@dataclass
class FaultPlan:
    """Fault exactly a ``rate`` share of the distinct requests (every 5th for 0.2, in order of
    arrival), on their first ``repeats`` sends; later sends of the same request are clean, so
    retries succeed. Kinds rotate through ``kinds`` (``wrong_k`` only for decompose prompts)."""

    rate: float = 0.0
    kinds: tuple[str, ...] = FAULT_KINDS
    repeats: int = 1
    retry_after: str = "0.05"
    seen: Counter = field(default_factory=Counter)
    faulty: dict = field(default_factory=dict)  # request key -> index among faulted requests
    lock: threading.Lock = field(default_factory=threading.Lock)

    def fault_for(self, body: dict[str, Any]) -> str | None:
        key = request_key(body)
        with self.lock:
            self.seen[key] += 1
            n = self.seen[key]
            if n == 1:
                i = len(self.seen) - 1  # index of this distinct request
                if int((i + 1) * self.rate) > int(i * self.rate):
                    self.faulty[key] = len(self.faulty)
            index = self.faulty.get(key)
        if index is None or n > self.repeats:
            return None
        kinds = [k for k in self.kinds if k != "wrong_k" or _k_of(body) is not None]
        return kinds[(index + n - 1) % len(kinds)]


def _user_text(body: dict[str, Any]) -> str:
    msgs = body.get("messages") or []
    for m in reversed(msgs):
        if m.get("role") == "user":
            c = m.get("content")
            return c if isinstance(c, str) else "".join(p.get("text", "") for p in c)
    return ""


def _k_of(body: dict[str, Any]) -> int | None:
    m = re.search(r"Return the JSON object with exactly (\d+) sub-queries", _user_text(body))
    return int(m.group(1)) if m else None


def decomposition(k: int) -> str:
    return json.dumps(
        {
            "subqueries": [
                {
                    "tool": i,
                    "operation": "retrieve",
                    "entity": f"item {i}",
                    "text": f"retrieve the details of item {i}",
                }
                for i in range(k)
            ]
        }
    )


def default_responder(provider: str, body: dict[str, Any]) -> str:
    """Decompose: k generic sub-queries; verify/audit: yes or no by a hash of the prompt."""
    k = _k_of(body)
    if k is not None:
        return decomposition(k)
    yes = int(request_key(body)[:4], 16) % 3 != 0
    return json.dumps({"verdict": "yes" if yes else "no", "reason": "scripted answer"})
