"""How the LLM judges call their models: concurrency, timeouts, retries, batch APIs, endpoints.

These are the ``[llm]`` settings of the config file (``toolex.pipeline.config``); API keys are
never among them (they come from the environment only).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class LLMConfig:
    max_in_flight: int = 16
    timeout_s: float = 60.0
    max_attempts: int = 5
    backoff_base_s: float = 1.0
    backoff_max_s: float = 60.0
    max_tokens: int = 1024
    batch: bool = False
    batch_poll_s: float = 30.0
    openai_base_url: str | None = None
    anthropic_base_url: str | None = None
