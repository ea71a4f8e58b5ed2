"""Retrievers over a store's tool library: BM25, dense (fastembed, WordLlama, a model behind an
embeddings endpoint) and hybrid RRF.

``search(store, benchmark, retriever, texts, depth=20, scope="task", rendering="default")``
returns a pyarrow.Table ``query_id, slot, item_id, score, rank``; ``make_retriever(spec)`` builds
a retriever from a spec string (any of them a :class:`~toolex.retrieval.base.Retriever`).
Retrieval only ranks:
``toolex retrieve`` (:mod:`toolex.retrieval.runs`) hands the ranking to :mod:`toolex.runs`, the
one writer of run tables.
"""

from toolex.retrieval.search import make_retriever, public_retriever_spec, search

__all__ = ["make_retriever", "public_retriever_spec", "search"]
