"""BM25 as ToolRet runs it, with the ``bm25s`` package (Lù, 2024).

ToolRet's ``eval_bm25`` (github.com/mangopy/tool-retrieval-benchmark, toolret/eval.py) tokenises
documents with ``bm25s.tokenize(docs, stopwords="en")`` (lower-case, ``\\b\\w\\w+\\b`` tokens,
English stop-words removed, no stemmer), indexes them with ``bm25s.BM25()`` -- the Lucene variant,
k1 = 1.5, b = 0.75 -- tokenises each query the same way, and builds one index per task, so IDF is
computed over the library the query is searched against. We do the same per scope value. One
difference: ToolRet indexes ``str(doc)`` (a Python dict repr); we index the shared rendering
(toolex.tooldoc.render.render_doc) so that BM25 and the dense models read the same text.

Lucene BM25, for query q and document d:
    score(q, d) = sum_{t in q} idf(t) * tf(t,d) / (tf(t,d) + k1 * (1 - b + b * |d| / avgdl)),
    idf(t) = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5)).

Selecting the top ``depth`` is exact and deterministic: every document's score is computed, and
ties are broken by item_id descending (trec_eval's rule), so ties at the last place kept never
depend on the order of a partial sort.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from toolex.progress import progress
from toolex.retrieval.base import IndexInfo
from toolex.retrieval.ranking import ranked_hits
from toolex.retrieval.texts import BM25_INSTRUCTION, Library, ScopeGroups, TextRow
from toolex.store import Store

# bm25s probes numba and scipy on import, for backends toolex never selects (BM25() below keeps
# its numpy defaults, backend="numpy", csc_backend="numpy"): where ranx or another package has
# installed them, the probe cost 0.36 CPU-s of every BM25 command (numba 0.2, scipy.sparse
# 0.15). Hidden for that one import, they stay importable for anyone else afterwards.
_UNUSED_BACKENDS = ("numba", "scipy")


def _import_bm25s() -> ModuleType:
    hidden = [name for name in _UNUSED_BACKENDS if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # `import name` raises ImportError
    try:
        import bm25s  # noqa: F401  # the module itself is returned from sys.modules
    finally:
        for name in hidden:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]
    return sys.modules["bm25s"]


if TYPE_CHECKING:
    import bm25s
else:
    bm25s = _import_bm25s()

K1 = 1.5
B = 0.75
METHOD = "lucene"
STOPWORDS = "en"


class BM25Retriever:
    """Sparse lexical retriever; needs no model, so it is always available offline."""

    instruction_format = BM25_INSTRUCTION

    def __init__(self) -> None:
        self.spec = "bm25"
        self.model = f"bm25s:{METHOD}:k1={K1}:b={B}:stopwords={STOPWORDS}"

    def describe(self) -> dict[str, object]:
        return {"model": self.model, "method": METHOD, "k1": K1, "b": B, "stopwords": STOPWORDS}

    def build(self, store: Store, library: Library) -> list[IndexInfo]:
        """Nothing is stored ahead: each search indexes its scope group (its own IDF)."""
        return [IndexInfo(self.spec, None, len(library))]

    def ranked(
        self,
        store: Store,
        library: Library,
        texts: Sequence[TextRow],
        scope: str,
        groups: ScopeGroups,
        depth: int,
    ) -> pa.Table:
        return ranked_hits(store, self, library, texts, scope, groups, depth)

    def prepare(self, store: Store, library: Library, texts: Sequence[TextRow]) -> None:
        """Nothing to precompute: each scope group gets its own index (its own IDF)."""

    def group_hits(
        self,
        library: Library,
        items: np.ndarray,
        texts: Sequence[TextRow],
        rows: np.ndarray,
        depth: int,
        scope: str,
        scope_value: str | None,
    ) -> pa.Table:
        """Top ``depth`` of ``items`` (library rows) for each text row in ``rows``."""
        index, ids, tie = self._index(library, items, scope, scope_value)
        with _quiet_bm25s():
            queries = bm25s.tokenize(
                [texts[r][2] for r in rows],
                stopwords=STOPWORDS,
                return_ids=False,
                show_progress=False,
            )
        kept = min(depth, len(ids))
        out_q, out_item, out_score = [], [], []
        with progress("bm25 search", len(rows), unit="queries") as advance:
            for r, tokens in zip(rows, queries, strict=True):
                known = [t for t in tokens if t in index.vocab_dict]
                scores = index.get_scores(known) if known else np.zeros(len(ids), np.float32)
                top = _top_k(np.asarray(scores, dtype=np.float64), tie, kept)
                out_q.append(np.full(len(top), r))
                out_item.append(ids[top])
                out_score.append(np.asarray(scores, dtype=np.float64)[top])
                advance(1)
        return pa.table(
            {
                "row": pa.array(np.concatenate(out_q) if out_q else [], pa.int64()),
                "item_id": pa.array(np.concatenate(out_item) if out_item else [], pa.string()),
                "score": pa.array(np.concatenate(out_score) if out_score else [], pa.float64()),
            }
        )

    def _index(
        self, library: Library, items: np.ndarray, scope: str, scope_value: str | None
    ) -> tuple[bm25s.BM25, np.ndarray, np.ndarray]:
        """The BM25 index of one scope group, built once per library content."""
        key = (library.fingerprint, scope, scope_value)
        hit = _INDEXES.get(key) if library.fingerprint else None
        if hit is not None:
            return hit
        docs = [library.texts[i] for i in items]
        with _quiet_bm25s():
            index = bm25s.BM25(method=METHOD, k1=K1, b=B)
            index.index(
                bm25s.tokenize(docs, stopwords=STOPWORDS, show_progress=False),
                show_progress=False,
            )
        ids = np.array([library.item_ids[i] for i in items], dtype=object)
        # position of each item in item_id-descending order: the tie key (smaller = ranked first)
        tie = np.empty(len(ids), dtype=np.int64)
        tie[np.argsort(ids.astype(str))[::-1]] = np.arange(len(ids))
        if library.fingerprint:
            if len(_INDEXES) >= 64:  # per-task libraries: a few dozen groups at most
                _INDEXES.pop(next(iter(_INDEXES)))
            _INDEXES[key] = (index, ids, tie)
        return index, ids, tie


# (library fingerprint, scope, scope value) -> (index, item ids, tie order), for the process: the
# pipeline searches one library batch after batch, and the demo's runs search the library the
# candidate stage searched (each retriever built its own: 3 builds of one index in the demo). The
# fingerprint follows the library's content (ids, scopes, texts), all an index is made of.
_INDEXES: dict[tuple[str, str, str | None], tuple[bm25s.BM25, np.ndarray, np.ndarray]] = {}


@contextlib.contextmanager
def _quiet_bm25s() -> Iterator[None]:
    """bm25s sets its logger to DEBUG on import and logs each index build; those lines would
    drown the progress bars. Raised to WARNING for the block only, then left as it was."""
    logger = logging.getLogger("bm25s")
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


def _top_k(scores: np.ndarray, tie: np.ndarray, depth: int) -> np.ndarray:
    """Indices of the ``depth`` best scores, ties by ``tie`` ascending, in rank order.

    BM25 scores are mostly 0 (a document shares no query term), and a partition over a mostly
    tied array is slow: the ``depth`` best are found among the scored documents, and only when
    fewer than ``depth`` scored are the rest filled from the unscored ones in tie order.
    """
    scored = np.flatnonzero(scores > 0)
    if len(scored) >= depth:
        sub = scores[scored]
        if depth < len(sub):
            last = np.partition(sub, len(sub) - depth)[len(sub) - depth]
            cand = scored[sub >= last]
        else:
            cand = scored
        order = np.lexsort((tie[cand], -scores[cand]))
        best: np.ndarray = cand[order[:depth]]
        return best
    order = np.lexsort((tie[scored], -scores[scored]))
    head = scored[order]
    rest = np.flatnonzero(scores <= 0)
    rest = rest[np.argsort(tie[rest], kind="stable")][: depth - len(head)]
    tail = rest[np.lexsort((tie[rest], -scores[rest]))]  # negative scores cannot occur; safe
    return np.concatenate([head, tail])
