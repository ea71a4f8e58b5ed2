"""The assembly as it was before issue 11, kept only as the tests' reference: the whole Cartesian
product built by a recursive CTE, ranked and stored, then cut by the audit cap (the SQL is in
tests/pipeline/data/assemble_reference/, copied from the last version that shipped it). The lazy
assembly must store the same rows, bit for bit, up to each query's audit budget, except the
ones the dependency rule rejected and the repeats of a tool set already kept, which it counts per
query (schemas 066 and 071)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from toolex.pipeline import platform_rule, queries
from toolex.pipeline.assemble import EDGE_FIT_SCHEMA
from toolex.pipeline.stage import StageContext, write_rows
from toolex.runs.rrf import RRF_K
from toolex.store import Store

REFERENCE = Path(__file__).parent / "data" / "assemble_reference"
PIPELINE_TABLES = ("combinations", "combination_items", "dependencies")


def _sql(name: str) -> str:
    return (REFERENCE / f"{name}.sql").read_text(encoding="utf-8")


def run_reference(
    ctx: StageContext, audit_cap: int | None = None, mode: str = "feeds", safety_limit: int = 1000
) -> None:
    """toolex.pipeline.assemble.run as it was: materialise, rank, store, rule, cut."""
    store, con = ctx.store, ctx.store.con
    with store.transaction():
        con.execute(_sql("30_cartesian"), ctx.params())
        con.execute(_sql("31_rrf_rank"), ctx.base(rrf_k=RRF_K))
        con.execute(_sql("32_insert_combinations"), ctx.base())
        con.execute(_sql("33_insert_combination_items"), ctx.base())
        originals = queries.assembly_originals(store, ctx.benchmark, ctx.expansion)
        edges = queries.assembly_edges(store, ctx.benchmark)
        deps = platform_rule.dependency_rows(originals, mode, edges)
        write_rows(store, "stages/4_assemble/06_insert_dependency.sql", deps, ctx.base())
        fit = platform_rule.edge_fit(queries.edge_members(store, ctx.benchmark, ctx.expansion))
        with store.registered("edge_fit", pa.Table.from_pylist(fit, schema=EDGE_FIT_SCHEMA)):
            # the rules as they ran on the stored tables (the shipped ones judge staging tables)
            con.execute(_sql("34_platform_rule"), ctx.params())
            con.execute(_sql("60_edge_fit_rule"), ctx.base())
            con.execute(_sql("61_dependency_check"), ctx.params())
        con.execute(
            _sql("35_audit_cap"), ctx.params(audit_cap=audit_cap, safety_limit=safety_limit)
        )
        con.execute(_sql("47_drop_products"))


def table(store: Store, name: str, expansion: str) -> pa.Table:
    """One pipeline table of an expansion, its expansion column dropped, rows in a total order."""
    assert name in PIPELINE_TABLES
    return store.con.sql(
        f"SELECT * EXCLUDE (expansion) FROM {name} WHERE expansion = $e ORDER BY ALL",
        params={"e": expansion},
    ).to_arrow_table()


def stored_prefix(
    store: Store, expansion: str, budget: int
) -> tuple[pa.Table, pa.Table, dict[str, int], dict[str, int], dict[str, int]]:
    """What the lazy assembly keeps of the reference's rows: per query the original and every
    combination ranked up to its budget-th one the rule let through (pending, or cut by the
    reference's cap) that does not repeat the tool set of the original or of a better-ranked
    one the rule let through (issue 35.3), those the rule rejected and the repeats counted rather
    than kept (schemas 066 and 071); and per query how many it rejected and how many repeated
    within that prefix, and how many of the product it leaves out."""
    keep = """
        WITH grade AS (
            SELECT query_id, slot, max(relevance) AS grade FROM qrels GROUP BY ALL
        ),
        tools AS (
            SELECT query_id, combo_id, list_sort(list(item_id || chr(9) || grade)) AS tools
            FROM (SELECT ci.query_id, ci.combo_id, ci.item_id, max(coalesce(g.grade, 1)) AS grade
                  FROM combination_items ci LEFT JOIN grade g USING (query_id, slot)
                  WHERE ci.expansion = $e GROUP BY ALL)
            GROUP BY ALL
        ),
        repeats AS (
            SELECT c.query_id, c.combo_id
            FROM combinations c JOIN tools t USING (query_id, combo_id)
            WHERE c.expansion = $e AND c.status IN ('pending', 'cut') AND EXISTS (
                SELECT 1 FROM combinations o JOIN tools u USING (query_id, combo_id)
                WHERE o.expansion = $e AND o.query_id = c.query_id AND u.tools = t.tools
                  AND (o.is_original OR (o.status <> 'rejected_platform'
                                         AND o.rrf_rank < c.rrf_rank)))
        ),
        open AS (
            SELECT query_id, rrf_rank,
                   row_number() OVER (PARTITION BY query_id ORDER BY rrf_rank) AS pos
            FROM combinations WHERE expansion = $e AND status IN ('pending', 'cut')
              AND (query_id, combo_id) NOT IN (SELECT (query_id, combo_id) FROM repeats)
        ),
        bound AS (SELECT query_id, rrf_rank AS last_rank FROM open WHERE pos = $budget),
        prefix AS (
            SELECT c.query_id, c.combo_id, c.status = 'rejected_platform' AS rejected,
                   (c.query_id, c.combo_id) IN (SELECT (query_id, combo_id) FROM repeats)
                       AS repeated
            FROM combinations c
            LEFT JOIN bound b ON b.query_id = c.query_id
            WHERE c.expansion = $e AND (c.is_original OR ($budget > 0 AND (
                  b.last_rank IS NULL OR c.rrf_rank <= b.last_rank)))
        ),
        kept AS (SELECT query_id, combo_id FROM prefix WHERE NOT rejected AND NOT repeated)"""
    # Repeats do not use the budget, so the lazy assembly reaches past the reference's cap: what
    # the reference cut there, it keeps pending.
    pending = (
        " REPLACE (CASE WHEN status = 'cut' THEN 'pending' ELSE status END AS status, "
        "CASE WHEN status = 'cut' THEN NULL ELSE reason END AS reason, "
        "CASE WHEN status = 'cut' THEN NULL ELSE judge END AS judge)"
    )
    combos, items = (
        store.con.sql(
            keep + f" SELECT * EXCLUDE (expansion){replace} FROM {name} WHERE expansion = $e "
            "AND (query_id, combo_id) IN (SELECT (query_id, combo_id) FROM kept) ORDER BY ALL",
            params={"e": expansion, "budget": budget},
        ).to_arrow_table()
        for name, replace in (("combinations", pending), ("combination_items", ""))
    )
    counts = store.con.execute(
        keep + " SELECT c.query_id, count(p.combo_id) FILTER (WHERE p.rejected), "
        "count(p.combo_id) FILTER (WHERE p.repeated), "
        "count(*) FILTER (WHERE p.combo_id IS NULL) FROM combinations c "
        "LEFT JOIN prefix p USING (query_id, combo_id) WHERE c.expansion = $e GROUP BY ALL",
        {"e": expansion, "budget": budget},
    ).fetchall()
    rejected = {q: n for q, n, _, _ in counts}
    repeated = {q: n for q, _, n, _ in counts}
    left_out = {q: n for q, _, _, n in counts}
    return combos, items, rejected, repeated, left_out
