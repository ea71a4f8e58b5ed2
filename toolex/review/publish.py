"""Final verdict-level review labels as verdict labels (table ``labels``, written only by
toolex.labels), the ground truth that `toolex judges eval` measures judges against.

One label per sampled (sub-query, reference, candidate) whose final label is known (the rule of
sql/review/30_final_labels.sql): ``source`` = the sample id, ``labeller`` = 'agreed' or
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
from toolex.review.finals import reviewed_items
from toolex.review.levels import Level
from toolex.store import Store


def publish_final_labels(
    store: Store, level: Level, sample_id: str, key: Mapping[str, Any] | None = None
) -> int:
    """Bring ``labels`` in line with the final labels of the sample (of one item when ``key``
    names one); returns how many labels it now holds for them. Call inside a transaction."""
    published = 0
    for reviewed in reviewed_items(store, level, sample_id, key):
        it, final = reviewed.item, reviewed.labels
        # no final label: pending or unlabelled (an adjudicated one always names its adjudicator)
        if final.final_label is None or final.labeller is None:
            remove_label(
                store,
                LabelKey(
                    sample_id, it["benchmark"], it["query_id"], it["reference"], it["item_id"]
                ),
            )
            continue
        replace_label(
            store,
            Label(
                benchmark=it["benchmark"],
                query_id=it["query_id"],
                slot=it["slot"],
                subquery=it["subquery"],
                reference=it["reference"],
                candidate=it["item_id"],
                label=final.final_label,
                labeller=final.labeller,
                note=": ".join(x for x in (final.final_bucket, final.final_note) if x) or None,
                source=sample_id,
                stratum={
                    "sample": sample_id,
                    "part": it["part"],
                    "category": it["category"],
                    "rank_band": it["rank_band"],
                    "rank": it["rank"],
                },
            ),
        )
        published += 1
    return published
