"""Fixtures for the LLM tests: fake API keys in the environment and the scripted server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from llm.llm_support import ANTHROPIC_KEY, OPENAI_KEY, ScriptedServer


@pytest.fixture
def llm_env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    keys = {"OPENAI_API_KEY": OPENAI_KEY, "ANTHROPIC_API_KEY": ANTHROPIC_KEY}
    for name, value in keys.items():
        monkeypatch.setenv(name, value)
    for name in ("TOOLEX_COMPAT_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return keys


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    with ScriptedServer() as s:
        yield s
