"""Embedding-endpoint retrievers: a dense model behind an HTTP embeddings API.

Specs, named as the judges are (``openai:<model>``, ``compat:<base_url>#<model>``)::

    openai-embed:<model>               OpenAI's hosted embeddings, e.g.
                                       openai-embed:text-embedding-3-small (key: OPENAI_API_KEY)
    compat-embed:<base_url>#<model>    any OpenAI-compatible /v1/embeddings server: vLLM, TEI,
                                       Ollama, llama.cpp (--embedding), e.g.
                                       compat-embed:http://127.0.0.1:8000/v1#Qwen/Qwen3-Embedding-4B
                                       (key, if the server wants one: TOOLEX_COMPAT_API_KEY)

The embedder is one more :class:`~toolex.retrieval.embedders.Embedder` behind the
:class:`~toolex.retrieval.dense.DenseRetriever`, so the embedding cache, the LanceDB index, the
scopes and the ranking are the local models': only what the cache lacks is sent, in batched
requests (toolex.llm.embeddings), every attempt costed in the call ledger, and what was embedded
is stored as it comes back, so an interrupted run resumes where it stopped.

The cache key names the model and, for a compatible server, its endpoint (credentials
redacted): a model name alone does not say which weights a server holds (llama.cpp answers with
whatever it loaded), so two servers never share vectors, as two compat judges never share
answers. The width of the vectors is learnt from the first ones seen, cached or fresh.

Texts are cut to ``MAX_WORDS`` words before they are sent (and before they are hashed for the
cache): tool documentation is long JSON, and servers refuse inputs past their context (TEI and
llama.cpp by default at 512 tokens of a batch) rather than cutting them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

from toolex.errors import InputError
from toolex.llm.keys import check_base_url, redact_url, shown
from toolex.llm.ledger import PUBLIC_ENDPOINTS
from toolex.retrieval.embedders import normalise
from toolex.store import Store

if TYPE_CHECKING:
    from toolex.llm.embeddings import EmbeddingCalls

PREFIXES = {"openai-embed:": "openai", "compat-embed:": "compat"}
MAX_WORDS = 512
EXAMPLE = "compat-embed:http://127.0.0.1:8000/v1#Qwen/Qwen3-Embedding-4B"


def is_endpoint_spec(spec: str) -> bool:
    return spec.strip().startswith(tuple(PREFIXES))


def parse_endpoint_spec(spec: str) -> tuple[str, str, str | None]:
    """(provider, model, base_url) of an endpoint spec; errors say what a valid one looks like."""
    spec = spec.strip()
    prefix = next((p for p in PREFIXES if spec.startswith(p)), None)
    if prefix is None:
        raise InputError(f"not an embedding endpoint spec: {shown(spec)}", field="retriever")
    provider, rest = PREFIXES[prefix], spec[len(prefix) :].strip()
    if provider == "openai":
        if not rest:
            raise InputError(
                "openai-embed needs a model, e.g. openai-embed:text-embedding-3-small",
                field="retriever",
            )
        return provider, rest, None
    base_url, hash_, model = rest.rpartition("#")
    if not hash_ or not base_url.strip() or not model.strip():
        raise InputError(
            f"retriever {shown(spec)}: an OpenAI-compatible embedding endpoint is "
            f"compat-embed:<base_url>#<model>, e.g. {EXAMPLE}",
            field="retriever",
        )
    check_base_url(base_url.strip(), "retriever")
    return provider, model.strip(), base_url.strip()


def public_endpoint_spec(spec: str) -> str:
    """``spec`` as stored and shown: a compat base URL's credentials redacted."""
    provider, model, base_url = parse_endpoint_spec(spec)
    if base_url is None:
        return f"openai-embed:{model}"
    return f"compat-embed:{redact_url(base_url)}#{model}"


class EndpointEmbedder:
    """An embedding model behind an HTTP endpoint (see the module docstring)."""

    def __init__(self, spec: str, calls: EmbeddingCalls | None = None) -> None:
        provider, model, base_url = parse_endpoint_spec(spec)
        self.spec = public_endpoint_spec(spec)
        self.model = model
        if calls is None:  # builds the client: the API key is checked here, before any call
            # here: the HTTP client (0.1 CPU-s) is loaded by an endpoint retriever alone, not by
            # every command that checks a --retriever spec
            from toolex.llm.embeddings import EmbeddingCalls, EmbeddingClient

            calls = EmbeddingCalls(EmbeddingClient(provider, model, base_url), self.spec)
        self.calls = calls
        # One round of requests per call of embed_parts(): the cache stores each request's
        # vectors as they come back, so a failure or an interruption loses only those in flight.
        self.texts_per_call = calls.request_texts * calls.in_flight
        endpoint = calls.client.endpoint
        public = endpoint == PUBLIC_ENDPOINTS.get(provider)
        self.key = f"{provider}-embed:{model}" + ("" if public else f"@{endpoint}")
        self.dim = 0  # learnt from the first vectors seen (toolex.retrieval.embedding_cache)
        self.max_words: int | None = MAX_WORDS

    def bind(self, store: Store) -> None:
        """Record this embedder's calls in ``store``'s call ledger."""
        self.calls.bind(store)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        self.calls.width = self.calls.width or self.dim  # a known width bounds each answer
        vectors = self.calls.embed(texts)
        self.dim = self.dim or int(vectors.shape[1])  # another width is refused by the cache
        return normalise(vectors)

    def embed_parts(self, texts: Sequence[str]) -> Iterator[tuple[int, np.ndarray]]:
        """(index of its first text, its vectors) per request, as each comes back: the cache
        stores each as it comes (toolex.retrieval.embedding_cache)."""
        self.calls.width = self.calls.width or self.dim  # a known width bounds each answer
        for start, vectors in self.calls.parts(texts):
            yield start, normalise(vectors)
