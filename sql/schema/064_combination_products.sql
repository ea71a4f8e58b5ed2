-- 064_combination_products: per assembled query, the size of its Cartesian product and how much
-- of it was stored; the rest is a count, never rows.
-- Reads: nothing. Creates: combination_products. Parameters: none.
-- The assembly (toolex.pipeline.assemble) enumerates each product best first by RRF and stores
-- the combinations up to its audit budget (every one, up to the per-query safety limit, or the
-- best --audit-cap): the original, the pending ones, and the ones the dependency rule rejected
-- on the way. unstored = product - stored, the combinations beyond the budget: never audited,
-- never checked by the rule, counted as 'cut' by `expand` and `stats`.
CREATE TABLE IF NOT EXISTS combination_products (
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    product     HUGEINT,                      -- product of the slots' accepted-set sizes; NULL past HUGEINT
    stored      BIGINT NOT NULL,              -- rows in combinations, the original included
    unstored    HUGEINT,                      -- product - stored
    budget      INTEGER NOT NULL,             -- pending combinations the enumeration stopped at
    judge       VARCHAR NOT NULL,             -- whose budget: 'safety_limit' (no cap) | 'audit_cap'
    PRIMARY KEY (benchmark, expansion, query_id)
);
