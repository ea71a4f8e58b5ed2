"""``search``: texts in, a ranked Arrow table out, for any retriever spec and scope."""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa

from toolex.errors import InputError
from toolex.llm.keys import shown
from toolex.retrieval.base import Retriever
from toolex.retrieval.bm25 import BM25Retriever
from toolex.retrieval.dense import DenseRetriever
from toolex.retrieval.endpoint import (
    EndpointEmbedder,
    is_endpoint_spec,
    parse_endpoint_spec,
    public_endpoint_spec,
)
from toolex.retrieval.hybrid import HybridRetriever
from toolex.retrieval.texts import TextRow, load_library, scope_groups
from toolex.store import Store


def make_retriever(spec: str) -> Retriever:
    """``bm25`` | ``wordllama`` | ``fastembed[:<model>[@<folder>]]`` | ``openai-embed:<model>``
    | ``compat-embed:<base_url>#<model>`` | ``hybrid:<a>+<b>[+...]``.

    An endpoint's API key is checked here, before any call; the retriever's ``spec`` is the
    public form (a base URL's credentials redacted), which runs and candidates record."""
    spec = check_spec(spec)
    if spec == "bm25":
        return BM25Retriever()
    if spec.startswith("hybrid:"):
        parts = _hybrid_parts(spec)
        built = [make_retriever(p) for p in parts]
        return HybridRetriever("hybrid:" + "+".join(r.spec for r in built), built)
    if is_endpoint_spec(spec):
        embedder = EndpointEmbedder(spec)
        return DenseRetriever(embedder.spec, embedder)
    return DenseRetriever(spec)


# Every form of a retriever spec, as errors list them.
RETRIEVER_FORMS = (
    "bm25",
    "wordllama",
    "fastembed:<model>",
    "fastembed:<model>@<local-folder>",
    "openai-embed:<model>",
    "compat-embed:<base_url>#<model>",
    "hybrid:<a>+<b> (e.g. hybrid:bm25+wordllama)",
)
_NAMES = ("bm25", "wordllama", "fastembed", "openai-embed", "compat-embed")


def check_spec(spec: str) -> str:
    """``spec`` stripped when it has one of :data:`RETRIEVER_FORMS` (nothing is loaded, no key
    is read), else an InputError listing them all, with the closest name: a command checks
    ``--retriever`` with it before it opens the store."""
    spec = spec.strip()
    if spec.startswith("hybrid:"):
        for part in _hybrid_parts(spec):
            check_spec(part)
        return spec
    if is_endpoint_spec(spec):
        parse_endpoint_spec(spec)  # the form and the base URL; the key waits for make_retriever
        return spec
    if spec in ("bm25", "wordllama", "fastembed") or spec.startswith("fastembed:"):
        return spec
    import difflib

    # A prefixed spec is matched by its prefix: ``openai-embd:<model>`` is close to openai-embed.
    name = spec.partition(":")[0] if ":" in spec else spec
    close = difflib.get_close_matches(name.lower(), _NAMES, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise InputError(
        f"unknown retriever {shown(spec)}; {hint}a retriever is {' | '.join(RETRIEVER_FORMS)}",
        field="retriever",
    )


def public_retriever_spec(spec: str) -> str:
    """``spec`` as runs, candidates and an expansion's settings record it, without building the
    retriever (no key checked, no model loaded): a compat base URL's credentials redacted."""
    spec = spec.strip()
    if spec.startswith("hybrid:"):
        return "hybrid:" + "+".join(public_retriever_spec(p) for p in _hybrid_parts(spec))
    return public_endpoint_spec(spec) if is_endpoint_spec(spec) else spec


def _hybrid_parts(spec: str) -> list[str]:
    parts = [p.strip() for p in spec[len("hybrid:") :].split("+")]
    if len(parts) < 2 or not all(parts) or any(p.startswith("hybrid:") for p in parts):
        raise InputError(
            f"hybrid spec {shown(spec)} needs two or more retrievers, e.g. hybrid:bm25+wordllama",
            field="retriever",
        )
    return parts


def search(
    store: Store,
    benchmark: str,
    retriever: str | Retriever,
    texts: Sequence[TextRow],
    depth: int = 20,
    scope: str = "task",
    rendering: str = "default",
) -> pa.Table:
    """Top-``depth`` items for each ``(query_id, slot, text)``, searched in the query's ``scope``.

    Returns a pyarrow.Table ``query_id, slot, item_id, score, rank`` ordered by query_id, slot,
    rank; rank is 1-based, ties by item_id descending (trec_eval's rule).
    """
    if depth < 1:
        raise InputError(f"depth must be at least 1, got {depth}", field="depth")
    r = cached_retriever(retriever) if isinstance(retriever, str) else retriever
    texts = list(texts)
    library = load_library(store, benchmark, rendering)
    groups = scope_groups(store, benchmark, texts, library, scope) if texts else {}
    return r.ranked(store, library, texts, scope, groups, depth)


_LOADED: dict[str, Retriever] = {}


def cached_retriever(spec: str) -> Retriever:
    """The pipeline calls search() once per batch with the same spec: load each model (and
    check each endpoint's key) once."""
    if spec not in _LOADED:
        _LOADED[spec] = make_retriever(spec)
    return _LOADED[spec]
