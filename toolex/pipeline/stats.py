"""The annotation table of an expansion (``toolex stats``), computed by sql/stages/40_stats.sql.

Columns: queries annotated, sub-queries, verified items (references included), items per
sub-query, valid combinations (original included), combinations per query, share of sub-queries
with at least one equivalent beyond the ground truth, share of queries with at least one
alternative combination. ``by="category"`` (or ``"task"``) adds one row per query category (or
task) after the 'all' row; the group column is named ``category`` either way.
"""

from __future__ import annotations

from typing import Any

from toolex.errors import InputError
from toolex.store import Store

BY = ("all", "category", "task")


def annotation_table(
    store: Store, benchmark: str, expansion: str = "default", by: str = "all"
) -> list[dict[str, Any]]:
    if by not in BY:
        raise InputError(f"--by must be one of {', '.join(BY)}, not {by!r}", field="--by")
    rows = store.rows(
        "stages/40_stats.sql", {"benchmark": benchmark, "expansion": expansion, "by": by}
    )
    return [
        {
            k: (float(v) if hasattr(v, "as_integer_ratio") and not isinstance(v, int) else v)
            for k, v in r.items()
        }
        for r in rows
    ]


def combination_counts(store: Store, benchmark: str, expansion: str = "default") -> dict[str, int]:
    """Combinations per status: rejected_platform = audit calls saved; cut = beyond the cap."""
    rows = store.rows(
        "stages/41_combination_counts.sql",
        {"benchmark": benchmark, "expansion": expansion, "query_ids": None},
    )
    return {r["status"]: int(r["combinations"]) for r in rows}
