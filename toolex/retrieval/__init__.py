"""Retrievers over a store's tool library: BM25, dense (fastembed, WordLlama) and hybrid RRF.

``search(store, benchmark, retriever, texts, k=20, scope="task", rendering="default")`` returns a
pyarrow.Table ``query_id, slot, item_id, score, rank``; ``make_retriever(spec)`` builds a retriever
from a spec string. Runs (``toolex retrieve``) are written by :mod:`toolex.retrieval.runs`.
"""

from toolex.retrieval.search import make_retriever, search

# The pipeline's offline default for candidate pools (no model folder, no network). Measured on
# the four ToolRet tasks in ../shared/data (1,409 single-label queries, scope task; see
# `python benchmarks/bench_retrieval.py quality`): share whose ground-truth tool is in the top 20
# = bm25 0.700, wordllama 0.677, hybrid:bm25+wordllama 0.732 (MiniLM 0.760 and
# hybrid:bm25+MiniLM 0.773 need the local ONNX folder and ~100x the embedding time). The hybrid
# gains 3.2 points of pool recall over BM25 for about 12 s of one-off WordLlama embedding.
DEFAULT_OFFLINE_RETRIEVER = "hybrid:bm25+wordllama"

__all__ = ["DEFAULT_OFFLINE_RETRIEVER", "make_retriever", "search"]
