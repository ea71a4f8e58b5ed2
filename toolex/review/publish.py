"""Final verdict-level review labels as verdict labels (table ``labels``, written only by
toolex.labels), the ground truth that `toolex judges eval` measures judges against.

One label per sampled (sub-query, reference, candidate) whose final label is known (the rule of
sql/review/60_verdict_final_labels.sql): ``source`` = the sample id, ``labeller`` = 'agreed' or
the adjudicator's name, ``label`` yes/no, ``note`` = the failure bucket of a no, then the
final note ("different_operation: drops a database, not a table"), ``stratum`` = how the item was
drawn (sample, part = the judge's verdict at draw time, category, rank band, rank). An item whose
final label disappears (a reviewer changed theirs; adjudication pending) is removed, so
``labels`` never holds a label the protocol has not settled.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolex.labels import Label, LabelKey, remove_label, replace_label
from toolex.review.levels import VERDICT
from toolex.store import Store


def publish_final_labels(store: Store, sample_id: str, key: Mapping[str, Any] | None = None) -> int:
    """Bring ``labels`` in line with the final labels of the sample (of one item when ``key``
    names one); returns how many labels it now holds for them. Call inside a transaction."""
    key = key or {}
    rows = store.rows(
        VERDICT.sql["final"],
        {
            "sample_id": sample_id,
            "query_id": key.get("query_id"),
            "slot": key.get("slot"),
            "item_id": key.get("item_id"),
        },
    )
    published = 0
    for r in rows:
        if r["final_label"] is None:
            remove_label(
                store,
                LabelKey(sample_id, r["benchmark"], r["query_id"], r["reference"], r["item_id"]),
            )
            continue
        replace_label(
            store,
            Label(
                benchmark=r["benchmark"],
                query_id=r["query_id"],
                slot=r["slot"],
                subquery=r["subquery"],
                reference=r["reference"],
                candidate=r["item_id"],
                label=r["final_label"],
                labeller=r["labeller"],
                note=": ".join(x for x in (r["final_bucket"], r["final_note"]) if x) or None,
                source=sample_id,
                stratum={
                    "sample": sample_id,
                    "part": r["part"],
                    "category": r["category"],
                    "rank_band": r["rank_band"],
                    "rank": r["rank"],
                },
            ),
        )
        published += 1
    return published
