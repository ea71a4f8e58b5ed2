"""Shared by the LLM and judge tests: fake keys, the scripted server, small realistic tasks
(ToolBench-shaped documentation)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from llm.scripted_answers import FaultPlan
from llm.scripted_server import ScriptedServer
from toolex.judges import make_judge
from toolex.judges.base import AuditTask, DecomposeTask, Judge, Outcome, ToolDoc, VerifyTask
from toolex.judges.llm import LLMJudge
from toolex.llm.clients.chat import ProviderChat
from toolex.store import Store
from toolex.tooldoc.render import render_doc

OPENAI_KEY = "sk-test-openai-5f3a9c"
ANTHROPIC_KEY = "sk-ant-test-77b1d2"
COMPAT_KEY = "compat-test-key-0e4f"
__all__ = ["FaultPlan", "ScriptedServer"]

TOPICS = [
    "weather forecast",
    "currency exchange rate",
    "stock quote",
    "flight status",
    "hotel availability",
    "news headlines",
    "movie showtimes",
    "recipe nutrition",
]


def tool(i: int, platform: str | None = None) -> ToolDoc:
    topic = TOPICS[i % len(TOPICS)]
    doc: dict[str, Any] = {
        "name": f"get_{topic.replace(' ', '_')}_{i}",
        "description": f"Returns the {topic} for the given place or item (variant {i}).",
        "required_parameters": [
            {"name": "query", "type": "STRING", "description": "what to look up"}
        ],
    }
    platform = platform or f"provider_{i % 5}"
    return ToolDoc(
        f"{platform}::{doc['name']}", doc["name"], platform, doc, render_doc(doc, platform=platform)
    )


def verify_tasks(n: int, offset: int = 0) -> list[VerifyTask]:
    return [
        VerifyTask(
            f"q{i // 4}/0/{tool(i + offset).item_id}",
            f"find the {TOPICS[i % len(TOPICS)]} for case {i // 4}",
            tool(i + offset),
            tool(1000 + i // 4),
        )
        for i in range(n)
    ]


def decompose_tasks(n: int) -> list[DecomposeTask]:
    return [
        DecomposeTask(
            f"q{i}",
            f"I need the {TOPICS[i % 8]} and the {TOPICS[(i + 3) % 8]} for trip {i}.",
            None,
            (tool(i), tool(i + 3)),
        )
        for i in range(n)
    ]


def audit_tasks(n: int) -> list[AuditTask]:
    return [
        AuditTask(
            f"q{i}/{i % 3}",
            f"Plan trip {i}: {TOPICS[i % 8]} and {TOPICS[(i + 1) % 8]}",
            "Use the tools.",
            (f"find the {TOPICS[i % 8]}", f"find the {TOPICS[(i + 1) % 8]}"),
            (tool(i), tool(i + 1)),
        )
        for i in range(n)
    ]


def outcome_view(outcomes: Iterable[Outcome]) -> dict[str, tuple[bool, object]]:
    """key -> comparable value (for comparing runs)."""
    out: dict[str, tuple[bool, object]] = {}
    for o in outcomes:
        view: object = None
        if isinstance(o.value, list):
            view = json.dumps([[s.slot, s.text, s.item_id] for s in o.value])
        elif o.value is not None:
            view = (o.value.accepted, o.value.reason)
        out[o.key] = (o.ok, view)
    return out


FAST = {
    # far past any answer of the local scripted server, however loaded the machine: a test
    # that wants a timeout makes its server hang (held until the client gives up) and sets its
    # own timeout, which is then what each hang costs (issue 25)
    "timeout_s": 30.0,
    "backoff_base_s": 0.01,
    "backoff_max_s": 0.2,
    "max_in_flight": 12,
    "max_attempts": 6,
}


def judge_for(provider: str, server: ScriptedServer, store: Store, **opts: float) -> LLMJudge:
    spec = "openai:gpt-4o-mini" if provider == "openai" else "anthropic:claude-3-5-haiku-20241022"
    base = server.url + ("/v1" if provider == "openai" else "")
    judge = make_judge(spec, store, base_url=base, **{**FAST, **opts})
    assert isinstance(judge, LLMJudge), spec  # its ledger, prompts and executor settings
    return judge


def chat_count(server: ScriptedServer) -> int:
    return server.count("chat") + server.count("messages")


def client_of(judge: Judge) -> ProviderChat:
    """The provider client an LLM judge calls: its structured-output mode and SDK client."""
    assert isinstance(judge.client, ProviderChat), judge.spec
    return judge.client
