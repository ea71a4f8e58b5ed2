"""Retrievers over a store's tool library: BM25, dense (fastembed, WordLlama) and hybrid RRF.

``search(store, benchmark, retriever, texts, k=20, scope="task", rendering="default")`` returns a
pyarrow.Table ``query_id, slot, item_id, score, rank``; ``make_retriever(spec)`` builds a retriever
from a spec string. Runs (``toolex retrieve``) are written by :mod:`toolex.retrieval.runs`.
"""

from toolex.retrieval.search import make_retriever, search

# The pipeline's offline default for candidate pools, chosen by the measured share of single-label
# queries whose ground-truth tool reaches the top 20 and by its cost (see README / the report).
DEFAULT_OFFLINE_RETRIEVER = "hybrid:bm25+wordllama"

__all__ = ["DEFAULT_OFFLINE_RETRIEVER", "make_retriever", "search"]
