"""Stage 3a: assemble, rank and pre-filter combinations, all in SQL, in one transaction.

For every ready query (all verdicts in, no combinations yet): the Cartesian product of its
accepted sets (30), RRF scores and combo ids (31), stored (32, 33); the dependency pairs of its
original (platform_rule, 38) reject breaking combinations without an audit call (34); the top
``audit_cap`` of the rest by RRF stay pending for the audit and the others are cut (35). One
transaction: an interruption leaves the query unassembled, and the next run assembles it whole.
"""

from __future__ import annotations

from toolex.pipeline import platform_rule
from toolex.pipeline.stage import StageContext, StageCounts, write_rows
from toolex.pipeline.settings import AUDIT_CAP, PLATFORM_RULE
from toolex.runs.rrf import RRF_K


def run(ctx: StageContext, audit_cap: int = AUDIT_CAP, mode: str = PLATFORM_RULE) -> StageCounts:
    if audit_cap < 0:
        raise ValueError("the audit cap must be >= 0")
    counts = StageCounts("assemble")
    store = ctx.store
    with store.transaction():
        store.execute("stages/30_cartesian.sql", ctx.params())
        store.execute("stages/31_rrf_rank.sql", ctx.base(rrf_k=RRF_K))
        ready = store.rows("stages/43_count_products.sql")[0]
        counts.tasks = counts.ok = int(ready["queries"])
        counts.notes["combinations"] = int(ready["combinations"])
        store.execute("stages/32_insert_combinations.sql", ctx.base())
        store.execute("stages/33_insert_combination_items.sql", ctx.base())
        originals = store.rows("stages/39_assemble_originals.sql", ctx.base())
        deps = platform_rule.dependency_rows(originals, mode)
        write_rows(store, "stages/38_insert_dependency.sql", deps, ctx.base())
        store.execute("stages/34_platform_rule.sql", ctx.params())
        store.execute("stages/35_audit_cap.sql", ctx.params(audit_cap=audit_cap))
        store.execute_script("stages/47_drop_products.sql")
    for row in store.rows("stages/41_combination_counts.sql", ctx.params()):
        counts.notes[row["status"]] = int(row["combinations"])
    return counts
