"""The library the offline judge weighs words against: the documents of a benchmark's items (or
every benchmark's) as the store holds them, and the IDF weights over them.

``idf(w) = ln((N + 1) / (df(w) + 1)) + 1`` over the N items, with an unseen word weighing
``ln(N + 1) + 1`` (``idf_weights``), over the items' name and description words
(``library_idf``): what the evidence reader and the decomposer weigh words by. A judge built
without a store weighs every word 1.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from toolex.judges.base import ToolDoc, tool_doc
from toolex.judges.tool_facts import about_words
from toolex.store import Store


def store_tools(store: Store, benchmark: str | None) -> list[ToolDoc]:
    """Every item of ``benchmark`` (None: of every benchmark) as a judge reads it."""
    rows = store.rows("judges/01_item_docs.sql", {"benchmark": benchmark})
    return [tool_doc(r["item_id"], r["name"], r["platform"], r["doc"], r.get("text")) for r in rows]


def idf_weights(word_sets: Iterable[Iterable[str]]) -> tuple[dict[str, float], float]:
    """``idf(w) = ln((N + 1) / (df(w) + 1)) + 1`` over N items given as their sets of distinct
    words, and the weight of an unseen word, ``ln(N + 1) + 1``: the one IDF rule of the offline
    judge, whichever words it weighs."""
    dfreq: Counter[str] = Counter()
    n = 0
    for words in word_sets:
        n += 1
        dfreq.update(words)
    return {w: math.log((n + 1) / (c + 1)) + 1.0 for w, c in dfreq.items()}, math.log(n + 1) + 1.0


def library_idf(docs: Iterable[ToolDoc]) -> tuple[dict[str, float], float]:
    """The evidence reader's weights: over the name + description words of a library."""
    return idf_weights(about_words(tool) for tool in docs)
