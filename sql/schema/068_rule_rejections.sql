-- 068_rule_rejections: the combinations the dependency rule rejected, with the reason, kept for
-- the first few per query (by RRF rank) so a user can see why (`toolex stats --rejections`).
-- Reads: nothing. Creates: rule_rejections. Parameters: none.
-- Why only a few: at library scale the rule rejects most of a query's product (schema 066: 4.0 M
-- rejections for 10,000 queries), and the assembly keeps its memory flat by counting them
-- (combination_products.rejected_platform); the reasons repeat within a query (one dependent
-- pair split across two platforms rejects every combination that moves one of them), so the
-- first toolex.pipeline.assemble.REASONS_KEPT per query show them, at a bounded cost.
CREATE TABLE IF NOT EXISTS rule_rejections (
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    rrf_rank    INTEGER NOT NULL,             -- the rejected combination's place in the ranking
    items       VARCHAR[] NOT NULL,           -- its members, slot order
    reason      VARCHAR NOT NULL,             -- the rule's reason (sql/stages/4_assemble/11, 12)
    PRIMARY KEY (benchmark, expansion, query_id, rrf_rank)
);
