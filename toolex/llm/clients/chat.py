"""What every provider's chat client shares: the request and reply records, the structured-output
modes a client steps down through, and the one body of a call (:meth:`ProviderChat.complete`).

A call builds the provider's request body for the request's mode, sends it through the SDK with
the attempt's timeout, turns the SDK's failures into toolex's (``classify``: transient or
permanent) and reads the reply. The providers differ only in the three parts a subclass gives:
``request_body``, ``send`` and ``read_reply`` (toolex.llm.clients.openai_chat,
toolex.llm.clients.anthropic_chat). One body, so a fix to how calls fail or time out reaches
every provider at once.
"""

from __future__ import annotations

import os
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from typing import Any, Protocol

from toolex.errors import ModelUnavailableError
from toolex.llm.failures import classify
from toolex.llm.keys import check_key, redact_secrets
from toolex.llm.logprobs import TokenProb

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
    body: dict[str, object]


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
    temperature: float | None = None  # sampling temperature (None: the client's, 0 where set)
    seed: int | None = None  # sampling seed, where the provider takes one (None: none sent)


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


def token_count(value: object) -> int | None:
    """A token count as the ledger can hold it: a server's nonsense (negative, huge, text) is
    unknown, not a crash."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _INT32:
        return None
    return value


def as_text(value: object) -> str:
    """A reply's text field as text, whatever the server put there (None: empty). Secrets are
    taken out of the whole reply once it is read (:func:`without_secrets`)."""
    return value if isinstance(value, str) else "" if value is None else str(value)


def without_secrets(reply: Reply) -> Reply:
    """``reply`` with no known secret in its text (toolex.llm.keys.redact_secrets), whatever
    part of the server's answer the provider read it from (a message's text, a forced tool's
    input, a batch's result): a server may echo the request's key into its answer, and the
    answer becomes verdict reasons and sub-queries as well as a ledger row."""
    text = redact_secrets(reply.text)
    return reply if text == reply.text else replace(reply, text=text)


def messages(request: Request) -> list[dict[str, str]]:
    """The conversation after the system prompt: the task, then any rejected answer and its
    correction (the model sees what it wrote and what was wrong with it)."""
    turns = [{"role": "user", "content": request.user}]
    if request.retry is not None:
        answer, problem = request.retry
        turns.append({"role": "assistant", "content": answer.strip() or "(empty answer)"})
        turns.append({"role": "user", "content": problem})
    return turns


class Modes:
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


class ProviderChat(Modes, ABC):
    """One provider's chat client over its SDK. ``complete`` is the call every provider makes;
    a provider gives its request body, its SDK call and its reply reader, and sets ``_sdk`` (the
    SDK module, whose exception classes ``classify`` reads) and ``_sdk_error`` (the root of the
    SDK's exceptions) when it builds ``sdk_client``."""

    provider: str
    model: str
    max_tokens: int
    sdk_client: Any  # the SDK's client: its base_url names the endpoint (ledger, batch.py)
    _sdk: Any
    _sdk_error: type[Exception]

    @abstractmethod
    def mode_for(self, request: Request) -> str:
        """The structured-output mode ``request`` is sent at."""

    @abstractmethod
    def request_body(self, request: Request) -> dict[str, object]:
        """The provider's request body (also one request of its batch API)."""

    @abstractmethod
    def send(self, body: dict[str, object]) -> object:
        """Make the SDK call with ``body``; the SDK's response."""

    @abstractmethod
    def read_reply(self, resp: object) -> Reply:
        """The reply in an SDK response."""

    def retry_without(self, error: Exception, body: dict[str, object]) -> bool:
        """Whether ``error`` refused an optional part of ``body`` that the client now drops
        for the rest of the run, so the call is made again without it (none by default)."""
        return False

    def complete(self, request: Request) -> Reply:
        body = self.request_body(request)
        if request.timeout_s is not None:
            body["timeout"] = request.timeout_s
        # here, not at the top: the records above are read offline, with no HTTP client
        from toolex.llm.deadline import limits

        with limits() as watch:  # the timeout bounds the whole call (toolex.llm.deadline)
            try:
                resp = self.send(body)
            except self._sdk_error as exc:
                error = watch.reworded(classify(exc, self._sdk))
                if self.retry_without(error, body):
                    return self.complete(request)
                raise error from None
        return without_secrets(self.read_reply(resp))
