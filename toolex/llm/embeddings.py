"""Calls to an embeddings endpoint, costed in the call ledger like the judges' calls.

OpenAI's hosted ``/v1/embeddings``, or any server that speaks it (vLLM, TEI, Ollama, llama.cpp
``--embedding``), through the ``openai`` SDK. :class:`EmbeddingCalls` sends texts in requests of
at most ``request_texts`` each, ``in_flight`` requests at a time, and returns one vector per text
in order. Every attempt is a row of ``llm_calls`` (stage ``embed``): tokens, cost (prices in
toolex.llm.pricing), latency, failure, and the number of texts it embedded (``parsed.texts``),
so `toolex ledger` shows what embedding cost beside what judging cost. The vectors themselves are
not stored there: the retriever's embedding cache keeps them (toolex.retrieval.embedding_cache).

Keys as for judges: from the environment only (OPENAI_API_KEY; TOOLEX_COMPAT_API_KEY, optional,
for a compatible server), checked when the client is built, before any call. A compatible
server's ``user:password@`` is used for the connection and shown as ``***@`` everywhere else.

Failures: a transient one (429, 5xx, timeout, a dropped connection) is retried after the backoff
of toolex.llm.retry.Policy, or the server's Retry-After when longer; an endpoint that has never
answered is given up after ``UNREACHABLE_ATTEMPTS`` failed connections. A permanent one (a refused
key, a bad request, an unknown model) and an answer that is not one finite vector per text, all
of one width, none all zeros, stop the embedding with a ModelUnavailableError that names the
endpoint; what was embedded before it is kept by the caller.

Bounds (toolex.llm.deadline): each request has a total deadline, the judges' per-call timeout,
however the server paces its bytes, and an answer larger than its texts' vectors can take
(``answer_bytes``: the width learnt, or ``MAX_WIDTH``) is refused unread. A stop (Ctrl-C,
SIGTERM, a failed request) ends the requests in flight within a quarter second; those that came
back are handed on first (``EmbeddingCalls.parts``).
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Literal

import numpy as np

from toolex.errors import ModelUnavailableError
from toolex.llm.clients import KEY_ENV, api_key
from toolex.llm.config import LLMConfig
from toolex.llm.corrections import ERROR_CAP, storable
from toolex.llm.deadline import http_client, limits
from toolex.llm.embedding_answers import (
    MAX_WIDTH,
    Answer,
    MalformedAnswer,
    answer_bytes,
    read_answer,
)
from toolex.llm.failures import PermanentError, TransientError, classify
from toolex.llm.keys import redact_text, redact_url, remember_url
from toolex.llm.ledger import Attempt, Ledger, input_hash
from toolex.llm.pricing import cost_usd
from toolex.llm.retry import Policy
from toolex.progress import current
from toolex.store import Store

STAGE = "embed"  # the ledger's stage column for embedding calls
PROMPT_VERSION = "embeddings-v1"  # what is sent: the texts as given, nothing around them
# Texts per request. TEI refuses more than 32 by default (--max-client-batch-size) and local
# servers gain little from larger requests; OpenAI takes up to 2,048 inputs and 300,000 tokens.
REQUEST_TEXTS = {"openai": 128, "compat": 32}
# Requests in flight: a local server batches what it has and encodes the next one meanwhile; a
# hosted API answers each in about a second, so a few in flight keep it busy. Timeouts and
# retries are the judges' (toolex.llm.config.LLMConfig's defaults).
IN_FLIGHT = {"openai": 4, "compat": 2}
UNREACHABLE_ATTEMPTS = 2  # connection failures before an endpoint that never answered is given up
PULSE_S = 0.5  # longest a wait for answers goes without a progress report (a stop is seen there)
_TOO_LONG = re.compile(r"too (large|long)|context length|maximum .*tokens", re.I)


class EmbeddingClient:
    """The ``openai`` SDK's embeddings call for one model at one endpoint. ``timeout_s``: the
    whole call's deadline (default: the judges', toolex.llm.config.LLMConfig)."""

    def __init__(
        self,
        provider: str,
        model: str,
        base_url: str | None = None,
        *,
        timeout_s: float | None = None,
    ) -> None:
        import openai

        if provider not in ("openai", "compat"):
            raise ValueError(f"no embeddings provider {provider!r}")
        self.provider, self.model = provider, model
        remember_url(base_url)  # its credentials are hidden from all that toolex stores or prints
        # Checked before any call; a local server rarely checks keys but the SDK wants one.
        key = api_key(provider, required=provider == "openai") or "not-needed"
        self._sdk = openai
        self.timeout_s = timeout_s or LLMConfig().timeout_for(provider)
        self.sdk_client = openai.OpenAI(
            api_key=key,
            base_url=base_url,
            timeout=self.timeout_s,
            max_retries=0,
            http_client=http_client(openai),  # the timeout bounds the whole call
        )

    @property
    def endpoint(self) -> str:
        """The base URL called, credentials redacted, without a trailing slash."""
        return redact_url(str(self.sdk_client.base_url)).rstrip("/")

    def create(
        self, texts: Sequence[str], width: int = 0, stop: threading.Event | None = None
    ) -> Answer:
        """One request for vectors of ``width`` numbers (0: not known yet); TransientError /
        PermanentError on failure (toolex.llm.failures), MalformedAnswer for an answer that is
        not one usable vector per text. ``stop`` set ends the call in flight."""
        # OpenAI refuses an empty string as input; a single space embeds the same nothing.
        inputs = [t if t else " " for t in texts]
        # The SDK asks for base64 unless told; not every compatible server encodes it. Asked
        # explicitly, so the body sent is what the SDK's default sent.
        encoding: Literal["float", "base64"] = "float" if self.provider == "compat" else "base64"
        most = answer_bytes(len(inputs), width)
        with limits(max_bytes=most, stop=stop) as watch:
            try:
                # The raw answer, read by toolex.llm.embedding_answers: the SDK's models build
                # an object per answer and copy each number (0.8-2.1 ms a text for float JSON of
                # 384-1,024 numbers, about 5x json.loads and numpy: bench_embed_parse.py).
                raw = self.sdk_client.embeddings.with_raw_response.create(
                    model=self.model, input=inputs, encoding_format=encoding
                )
                body = raw.http_response.content
            except self._sdk.OpenAIError as exc:
                if watch.overrun == "size":
                    wide = f"{width:,}" if width else f"at most {MAX_WIDTH:,}"
                    raise MalformedAnswer(
                        f"an answer larger than {most / 2**20:,.1f} MB for {len(inputs)} texts "
                        f"(vectors of {wide} numbers expected), refused unread"
                    ) from None
                raise watch.reworded(classify(exc, self._sdk)) from None
        return read_answer(body, len(inputs), width)


class EmbeddingCalls:
    """Sends texts to one embeddings endpoint, batched, retried and recorded in the ledger.

    ``identity`` is the retriever's spec as stored (credentials redacted), the ledger's ``judge``
    column. ``bind(store)`` names the store whose ledger records the attempts; the ledger is
    written from the caller's thread only (workers hand their attempts back).
    """

    def __init__(
        self,
        client: EmbeddingClient,
        identity: str,
        *,
        policy: Policy | None = None,
        request_texts: int | None = None,
        in_flight: int | None = None,
        seed: int | None = None,
    ) -> None:
        self.client, self.identity = client, identity
        if policy is None:  # the judges' retry settings (toolex.llm.config)
            config = LLMConfig()
            policy = Policy(
                max_attempts=config.max_attempts,
                backoff_base_s=config.backoff_base_s,
                backoff_max_s=config.backoff_max_s,
            )
        self.policy = policy
        self.request_texts = request_texts or REQUEST_TEXTS[client.provider]
        self.in_flight = in_flight or IN_FLIGHT[client.provider]
        self.ledger: Ledger | None = None
        self.answered = False  # the endpoint has answered once: connection failures are transient
        self.width = 0  # the model's vector width, once known (from the cache or an answer)
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._stop = threading.Event()  # the caller stopped: no further attempts

    def bind(self, store: Store) -> None:
        if self.ledger is None or self.ledger.store is not store:
            self.ledger = Ledger(store)

    def parts(self, texts: Sequence[str]) -> Iterator[tuple[int, np.ndarray]]:
        """(index of its first text, its vectors) for each request, as each comes back, every
        attempt at it recorded in the ledger before it is handed on: a caller that stores each
        part as it comes loses only the requests in flight when it stops (float32, as the
        server gave them: not normalised).

        While it waits, it reports to the progress reporter every ``PULSE_S`` (``advance(0)``):
        a stop asked for there (Ctrl-C, SIGTERM: toolex.cli.progress) ends the requests in
        flight within toolex.llm.deadline.STOP_POLL_S, and the requests not started; what came
        back meanwhile is still handed on, then the stop is raised again."""
        if self.ledger is None:
            raise RuntimeError("bind(store) first: embedding calls are recorded in its ledger")
        size = self.request_texts
        starts = range(0, len(texts), size)
        recorded: set[Future[tuple[list[Attempt], Answer | BaseException]]] = set()
        with ThreadPoolExecutor(max_workers=min(self.in_flight, max(1, len(starts)))) as pool:
            futures = {pool.submit(self._request, texts[i : i + size]): i for i in starts}
            pending = set(futures)
            stopped: BaseException | None = None  # a stop asked for while waiting
            try:
                while pending:
                    done, pending = wait(pending, PULSE_S, FIRST_COMPLETED)
                    if not done and stopped is None:
                        try:
                            current().advance(0)  # a report while waiting: progress, a stop
                        except KeyboardInterrupt as exc:  # stop: keep what comes back first
                            stopped = exc
                            self._stop.set()  # requests in flight end, the rest never start
                    for future in sorted(done, key=futures.__getitem__):
                        if future.cancelled():
                            continue
                        attempts, outcome = future.result()
                        recorded.add(future)
                        self.ledger.record(attempts)
                        if isinstance(outcome, BaseException):
                            if stopped is not None:
                                continue  # ended by the stop: recorded, nothing to hand on
                            raise outcome
                        yield futures[future], outcome.vectors
                if stopped is not None:
                    raise stopped
            finally:
                # Stopped early (a failed request, the caller gone): requests not started are
                # dropped, those in flight are ended and recorded (they may be paid for).
                self._stop.set()
                for future in futures:
                    if future not in recorded and not future.cancel():
                        with contextlib.suppress(Exception):
                            self.ledger.record(future.result()[0])
                self._stop.clear()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One row per text, in order (float32, as the server gave it: not normalised)."""
        parts = sorted(self.parts(texts), key=lambda part: part[0])
        widths = {p.shape[1] for _, p in parts}
        if len(widths) > 1:
            raise ModelUnavailableError(
                f"{self.client.endpoint} returned vectors of widths {sorted(widths)} for one "
                f"model ({self.client.model!r}); is another model served under that name?"
            )
        return np.concatenate([p for _, p in parts]) if parts else np.zeros((0, 0), np.float32)

    def _request(self, texts: Sequence[str]) -> tuple[list[Attempt], Answer | BaseException]:
        """Every attempt at one request, and its answer or the error that ends it (a worker)."""
        attempts: list[Attempt] = []
        key = input_hash(self.identity, self.client.model, PROMPT_VERSION, "", json.dumps(texts))
        for number in range(1, self.policy.max_attempts + 1):
            if self._stop.is_set():  # never sent: nothing to record
                return attempts, ModelUnavailableError("stopped: the run was interrupted")
            row = Attempt(
                STAGE, self.identity, self.client.model, PROMPT_VERSION, key,
                f"{len(texts)} texts", "error", attempt=number,
            )  # fmt: skip
            attempts.append(row)
            started = time.perf_counter()
            try:
                answer = self.client.create(texts, self.width, self._stop)
            except TransientError as exc:
                row.error = storable(redact_text(str(exc)), ERROR_CAP)
                if not self._retry(exc, number):
                    return attempts, self._unavailable(exc, number)
                with self._lock:
                    wait = self.policy.delay(number, exc.retry_after, self._rng)
                if self._stop.wait(wait):
                    return attempts, self._unavailable(exc, number)
                continue
            except PermanentError as exc:
                row.error = storable(redact_text(str(exc)), ERROR_CAP)
                return attempts, self._unavailable(exc, number)
            except MalformedAnswer as exc:
                row.status, row.error = "malformed", storable(str(exc), ERROR_CAP)
                return attempts, self._unavailable(exc, number)
            finally:
                row.latency_ms = (time.perf_counter() - started) * 1000
            self.answered = True
            with self._lock:
                self.width = self.width or int(answer.vectors.shape[1])
            row.status, row.parsed = "ok", {"texts": len(texts), "dim": answer.vectors.shape[1]}
            row.prompt_tokens, row.completion_tokens = answer.prompt_tokens, 0
            row.cost_usd = cost_usd(self.client.model, answer.prompt_tokens, 0)
            return attempts, answer
        raise AssertionError("unreachable")  # the last attempt returns from the loop

    def _retry(self, exc: TransientError, number: int) -> bool:
        if number >= self.policy.max_attempts:
            return False
        return self.answered or exc.kind != "connection" or number < UNREACHABLE_ATTEMPTS

    def _unavailable(self, exc: Exception, attempts: int) -> ModelUnavailableError:
        where, model = self.client.endpoint, self.client.model
        text = redact_text(str(exc))
        if isinstance(exc, PermanentError) and exc.status in (401, 403):
            env = KEY_ENV[self.client.provider]
            return ModelUnavailableError(f"{where} refused the API key ({text}); check {env}")
        if isinstance(exc, TransientError) and exc.kind == "connection" and not self.answered:
            return ModelUnavailableError(
                f"cannot reach {where} ({attempts} connection failures, no answer); is the "
                "embedding server running and the base URL right?"
            )
        if isinstance(exc, MalformedAnswer):
            return ModelUnavailableError(f"{where} answered {model!r} with {text}")
        if isinstance(exc, PermanentError) and _TOO_LONG.search(text):
            text += (
                "; the server refused a text as too long for it: give it a longer context "
                "(llama.cpp -b and -ub, TEI --auto-truncate, vLLM --max-model-len)"
            )
        return ModelUnavailableError(
            f"embedding with {model!r} at {where} failed after {attempts} attempt(s): {text}"
        )
