"""Stage 3a: assemble, rank and pre-filter combinations, all in SQL, in one transaction.

For every ready query (all verdicts in, no combinations yet): the Cartesian product of its
accepted sets (30; one tool may serve two slots), RRF scores and combo ids (31), stored (32, 33);
the dependent pairs of its original — explicit edges (62) and hand-offs the docs show
(platform_rule, 39) — stored (38) and checked: a pair split across platforms (34), or a replaced
producer/consumer whose docs cannot hand the edge's value on (60), is rejected without an audit
call, and what could not be checked is recorded (61). Then the audit cap (35): by default every
remaining combination stays pending for the audit, up to ``safety_limit`` per query; with a cap,
only the top ``audit_cap`` by RRF, and the others are cut. One transaction: an interruption leaves
the query unassembled, and the next run assembles it whole.
"""

from __future__ import annotations

import pyarrow as pa

from toolex.pipeline import platform_rule
from toolex.pipeline.settings import AUDIT_CAP, AUDIT_SAFETY_LIMIT, PLATFORM_RULE
from toolex.pipeline.stage import StageContext, StageCounts, write_rows
from toolex.runs.rrf import RRF_K

EDGE_FIT_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("slot", pa.int32()),
        ("item_id", pa.string()),
        ("value", pa.string()),
        ("role", pa.string()),
        ("other_slot", pa.int32()),
        ("source", pa.string()),
        ("fit", pa.string()),
    ]
)


def run(
    ctx: StageContext,
    audit_cap: int | None = AUDIT_CAP,
    mode: str = PLATFORM_RULE,
    safety_limit: int = AUDIT_SAFETY_LIMIT,
) -> StageCounts:
    if audit_cap is not None and audit_cap < 0:
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
        edges = store.rows("stages/62_assemble_edges.sql", {"benchmark": ctx.benchmark})
        deps = platform_rule.dependency_rows(originals, mode, edges)
        write_rows(store, "stages/38_insert_dependency.sql", deps, ctx.base())
        fit = platform_rule.edge_fit(store.rows("stages/63_edge_members.sql", ctx.base()))
        with store.registered("edge_fit", pa.Table.from_pylist(fit, schema=EDGE_FIT_SCHEMA)):
            store.execute("stages/34_platform_rule.sql", ctx.params())
            store.execute("stages/60_edge_fit_rule.sql", ctx.base())
            store.execute("stages/61_dependency_check.sql", ctx.params())
        store.execute(
            "stages/35_audit_cap.sql", ctx.params(audit_cap=audit_cap, safety_limit=safety_limit)
        )
        store.execute_script("stages/47_drop_products.sql")
    for row in store.rows("stages/41_combination_counts.sql", ctx.params()):
        counts.notes[row["status"]] = int(row["combinations"])
    limited = store.rows("stages/64_safety_limit_hits.sql", ctx.params())
    if limited:
        counts.notes["queries_at_safety_limit"] = len(limited)
    return counts
