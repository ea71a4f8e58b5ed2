"""``search``: texts in, a ranked Arrow table out, for any retriever spec and scope."""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa

from toolex.errors import InputError
from toolex.retrieval.base import Retriever
from toolex.retrieval.bm25 import BM25Retriever
from toolex.retrieval.dense import DenseRetriever
from toolex.retrieval.hybrid import HybridRetriever
from toolex.retrieval.texts import TextRow, load_library, scope_groups
from toolex.store import Store


def make_retriever(spec: str) -> Retriever:
    """``bm25`` | ``wordllama`` | ``fastembed[:<model>[@<folder>]]`` | ``hybrid:<a>+<b>[+...]``."""
    spec = check_spec(spec)
    if spec == "bm25":
        return BM25Retriever()
    if spec.startswith("hybrid:"):
        parts = [p.strip() for p in spec[len("hybrid:") :].split("+")]
        return HybridRetriever(spec, [make_retriever(p) for p in parts])
    return DenseRetriever(spec)


# Every form of a retriever spec, as errors list them.
RETRIEVER_FORMS = (
    "bm25",
    "wordllama",
    "fastembed:<model>",
    "fastembed:<model>@<local-folder>",
    "hybrid:<a>+<b> (e.g. hybrid:bm25+wordllama)",
)


def check_spec(spec: str) -> str:
    """``spec`` stripped when it has one of :data:`RETRIEVER_FORMS` (nothing is loaded), else
    an InputError listing them all, with the closest name: a command checks ``--retriever``
    with it before it opens the store."""
    spec = spec.strip()
    if spec.startswith("hybrid:"):
        parts = [p.strip() for p in spec[len("hybrid:") :].split("+")]
        if len(parts) < 2 or not all(parts) or any(p.startswith("hybrid:") for p in parts):
            raise InputError(
                f"hybrid spec {spec!r} needs two or more retrievers, e.g. hybrid:bm25+wordllama",
                field="retriever",
            )
        for part in parts:
            check_spec(part)
        return spec
    if spec in ("bm25", "wordllama", "fastembed") or spec.startswith("fastembed:"):
        return spec
    import difflib

    close = difflib.get_close_matches(spec.lower(), ["bm25", "wordllama", "fastembed"], n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise InputError(
        f"unknown retriever {spec!r}; {hint}a retriever is {' | '.join(RETRIEVER_FORMS)}",
        field="retriever",
    )


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
    r = _cached_retriever(retriever) if isinstance(retriever, str) else retriever
    texts = list(texts)
    library = load_library(store, benchmark, rendering)
    groups = scope_groups(store, benchmark, texts, library, scope) if texts else {}
    return r.ranked(store, library, texts, scope, groups, depth)


_LOADED: dict[str, Retriever] = {}


def _cached_retriever(spec: str) -> Retriever:
    """The pipeline calls search() once per batch with the same spec: load each model once."""
    if spec not in _LOADED:
        _LOADED[spec] = make_retriever(spec)
    return _LOADED[spec]
