"""How the LLM judges call their models: concurrency, timeouts, retries, structured output, batch
APIs, endpoints.

These are the ``[llm]`` settings of the config file (``toolex.pipeline.config``); API keys are
never among them (they come from the environment only). Local servers (``compat:``, e.g.
llama.cpp, Ollama, vLLM) get their own timeout, and ``slots`` caps the calls in flight at what
the server decodes at once (llama.cpp ``--parallel``); see toolex/llm/executor.py for how the
in-flight limit adapts between 1 and that cap.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolex.errors import InputError
from toolex.llm.keys import check_base_url

# What a judge asks the server to constrain its answers to (toolex/llm/clients/): a JSON
# schema (OpenAI structured outputs; llama.cpp/vLLM/Ollama response_format; Anthropic tool use),
# any JSON object, or plain text. A server that rejects a mode gets the next one down.
STRUCTURED_MODES = ("json_schema", "json_object", "none")


@dataclass
class LLMConfig:
    max_in_flight: int = 16  # ceiling of the adaptive in-flight limit
    slots: int = 0  # a server's decoding slots: caps calls in flight (0: not set)
    timeout_s: float = 60.0  # per call to a hosted API (openai, anthropic)
    compat_timeout_s: float = 300.0  # per call to an OpenAI-compatible (often local) server
    max_attempts: int = 5
    backoff_base_s: float = 1.0
    backoff_max_s: float = 60.0
    max_tokens: int = 1024  # answer budget; an answer cut off by it is retried with up to 4x
    structured: str = "json_schema"
    batch: bool = False
    batch_poll_s: float = 30.0
    openai_base_url: str | None = None
    anthropic_base_url: str | None = None

    def __post_init__(self) -> None:
        if self.structured not in STRUCTURED_MODES:
            raise InputError(
                f"unknown structured output mode {self.structured!r}; use one of "
                + ", ".join(STRUCTURED_MODES),
                field="llm.structured",
            )
        if self.slots < 0:
            raise InputError("must be positive (or 0: not set)", field="llm.slots")
        for name in ("openai_base_url", "anthropic_base_url"):  # never echo a key pasted here
            check_base_url(getattr(self, name), f"llm.{name}")

    def timeout_for(self, provider: str) -> float:
        """Seconds one call may take: local servers serve one request at a time on few cores
        (30-60 s a call is common), hosted APIs answer in seconds."""
        return self.compat_timeout_s if provider == "compat" else self.timeout_s

    def cap_for(self) -> int:
        """Most calls ever in flight: ``max_in_flight``, lowered to ``slots`` when set."""
        return max(1, min(self.max_in_flight, self.slots) if self.slots else self.max_in_flight)

    def start_for(self, provider: str) -> int:
        """Calls in flight at the start: a hosted API takes the cap at once; a local server of
        unknown size starts at one and earns more by answering without queueing."""
        if provider == "compat" and not self.slots:
            return 1
        return self.cap_for()
