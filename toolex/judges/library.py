"""The library the offline judge weighs words against: the documents of a benchmark's items (or
every benchmark's) as the store holds them, and the TF-IDF weights over them.

``idf(w) = ln((N + 1) / (df(w) + 1)) + 1`` over the N items, with an unseen word weighing
``ln(N + 1) + 1``; a judge built without a store weighs every word 1.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from toolex.judges.base import ToolDoc
from toolex.judges.tool_facts import tool_tokens


def store_tools(store: Any, benchmark: str | None) -> list[ToolDoc]:
    """Every item of ``benchmark`` (None: of every benchmark) as a judge reads it."""
    import json

    rows = store.rows("stages/05_item_docs.sql", {"benchmark": benchmark})
    return [
        ToolDoc(
            r["item_id"],
            r["name"],
            r["platform"],
            json.loads(r["doc"]) if isinstance(r["doc"], str) else r["doc"],
            r.get("text") or "",
        )
        for r in rows
    ]


def tfidf_weights(tools: Sequence[ToolDoc]) -> tuple[dict[str, float], float]:
    """The IDF of every word of ``tools`` (``tool_facts.tool_tokens``), and an unseen word's."""
    dfreq: Counter[str] = Counter()
    for tool in tools:
        dfreq.update(set(tool_tokens(tool)))
    n = len(tools)
    idf = {w: math.log((n + 1) / (c + 1)) + 1.0 for w, c in dfreq.items()}
    return idf, math.log(n + 1) + 1.0
