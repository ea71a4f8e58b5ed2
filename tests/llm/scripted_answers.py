"""What the scripted LLM server (scripted_server.py) answers, and when it fails instead.

``default_responder`` answers decompose prompts with k generic sub-queries and verify/audit
prompts with yes or no by a hash of the prompt; a ``FaultPlan`` picks, deterministically per
task (its first user message: a retry that adds the rejected answer and a correction is the same
task), which requests fail and how (429, 500, hang, malformed, wrong k). ``task_text`` and
``correction`` read a request's task and, on a retry, the message that names the problem.
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
    """Identity of a request's task (model + system prompt + first user message), stable across
    retries, corrected or not."""
    prompt = [body.get("model"), body.get("system"), _first_turns(body)]
    return hashlib.sha256(json.dumps(prompt, sort_keys=True).encode()).hexdigest()


def _first_turns(body: dict[str, Any]) -> list[Any]:
    """The messages up to and including the first user message (OpenAI puts the system prompt
    there too)."""
    msgs = body.get("messages") or []
    for i, m in enumerate(msgs):
        if m.get("role") == "user":
            return msgs[: i + 1]
    return msgs


@dataclass
class FaultPlan:
    """Fault exactly a ``rate`` share of the distinct requests (every 5th for 0.2, in order of
    arrival), on their first ``repeats`` sends; later sends of the same request are clean, so
    retries succeed. Kinds rotate through ``kinds`` (``wrong_k`` only for decompose prompts)."""

    rate: float = 0.0
    kinds: tuple[str, ...] = FAULT_KINDS
    repeats: int = 1
    retry_after: str = "0.05"
    seen: Counter[str] = field(default_factory=Counter)
    # request key -> index among faulted requests
    faulty: dict[str, int] = field(default_factory=dict)
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


def _content(m: dict[str, Any]) -> str:
    c = m.get("content")
    return c if isinstance(c, str) else "".join(p.get("text", "") for p in c or [])


def task_text(body: dict[str, Any]) -> str:
    """The task's user message (the first one; a retry appends its correction after it)."""
    return _content(_first_turns(body)[-1]) if body.get("messages") else ""


def correction(body: dict[str, Any]) -> str | None:
    """On a retry, the user message naming the problem of the rejected answer; else None."""
    users = [m for m in body.get("messages") or [] if m.get("role") == "user"]
    return _content(users[-1]) if len(users) > 1 else None


def corrected(body: dict[str, Any]) -> str:
    """The correction a retry carries; fails the test if ``body`` is a first attempt."""
    fix = correction(body)
    assert fix is not None, body
    return fix


def budget(body: dict[str, Any]) -> int | None:
    """The answer's token budget the request asked for."""
    return body.get("max_completion_tokens") or body.get("max_tokens")


def _k_of(body: dict[str, Any]) -> int | None:
    m = re.search(r"Return the JSON object with exactly (\d+) sub-queries", task_text(body))
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


@dataclass
class RepeatingModel:
    """A small local model at temperature 0 (issue 28): its decompose answer names tool 0 in
    the sub-query text every time, whatever the correction says, so a corrected retry gets the
    rejected answer back byte for byte; verdicts come from ``default_responder``.

    ``entity_leaks``: the entity names the tool too (nothing to rebuild the text from).
    ``fixed_when_sampled``: a request at a temperature above 0 gets a clean answer (sampling
    found another). ``drift``: each answer differs (it counts the requests), so none repeats.
    """

    entity_leaks: bool = False
    fixed_when_sampled: bool = False
    drift: bool = False
    asked: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, provider: str, body: dict[str, Any]) -> str:
        k = _k_of(body)
        if k is None:
            return default_responder(provider, body)
        with self.lock:
            self.asked += 1
            n = self.asked
        names = re.findall(r"name: (\w+)", task_text(body))
        clean = self.fixed_when_sampled and (body.get("temperature") or 0) > 0
        entries = []
        for i in range(k):
            topic = " ".join(w for w in names[i].split("_")[1:] if not w.isdigit())
            text = f"retrieve the {topic} for the trip"
            if i == 0 and not clean:
                text = f"call {names[i]} to retrieve the {topic}"
                text += f" ({n})" if self.drift else ""
            entity = names[i] if i == 0 and self.entity_leaks and not clean else f"the {topic}"
            entries.append({"tool": i, "operation": "retrieve", "entity": entity, "text": text})
        return json.dumps({"subqueries": entries})


_BLOCK = re.compile(r"BEGIN \w+ \d+ DOCUMENTATION>>\n(.*?)\n<<", re.DOTALL)


def _field(block: str, name: str) -> str:
    found = re.search(rf"^{name}: (.*)$", block, re.MULTILINE)
    return found.group(1).strip() if found else ""


def small_model(provider: str, body: dict[str, Any]) -> str:
    """A small local model on real tool documentation (benchmarks/bench_llm_compat.py): it
    decomposes each tool into the first clause of its description and names tool 0 in its text
    ("use New Arrivals to get ..."), whatever a correction says, so a corrected retry repeats it
    word for word; operation and entity stay clean (the first word of the clause and the rest).
    Verdicts as ``default_responder``."""
    k = _k_of(body)
    if k is None:
        return default_responder(provider, body)
    entries = []
    for i, block in enumerate(_BLOCK.findall(task_text(body))[:k]):
        name, description = _field(block, "name"), _field(block, "description")
        clause = re.split(r"[.;,(]", description)[0].strip() or f"run {name}"
        words = clause.split()
        text = f"use {name} to {clause[:1].lower()}{clause[1:]}" if i == 0 else clause
        entries.append(
            {
                "tool": i,
                "operation": words[0].lower(),
                "entity": " ".join(words[1:]) or name,
                "text": text,
            }
        )
    return json.dumps({"subqueries": entries})
