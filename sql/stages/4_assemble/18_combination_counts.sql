-- 18_combination_counts: what happened to the combinations (audit calls saved by the platform
-- rule = rejected_platform; combinations beyond the audit cap or the safety limit = cut).
-- Reads: combinations, combination_products. Creates: nothing (status, combinations, queries).
-- Parameters: $benchmark, $expansion, $query_ids (VARCHAR[] or NULL).
-- The assembly stores the original and the pending combinations up to the audit budget and
-- counts the rest of the product (combination_products, 064, 066 and 071): rejected_platform =
-- the dependency rule's rejections within the budget, repeated = the repeats of a kept tool set
-- within it, unstored = cut; each beside the rows of that status an older toolex stored.
WITH stored AS (
    SELECT status, query_id, count(*) AS n
    FROM combinations
    WHERE benchmark = $benchmark AND expansion = $expansion
      AND ($query_ids IS NULL OR list_contains($query_ids, query_id))
    GROUP BY ALL
),
products AS (
    FROM combination_products
    WHERE benchmark = $benchmark AND expansion = $expansion
      AND ($query_ids IS NULL OR list_contains($query_ids, query_id))
),
counted AS (
    SELECT 'cut' AS status, query_id, unstored AS n FROM products WHERE unstored > 0
    UNION ALL
    SELECT 'rejected_platform', query_id, rejected_platform FROM products
    WHERE rejected_platform > 0
    UNION ALL
    SELECT 'repeated', query_id, repeated FROM products WHERE repeated > 0
)
SELECT status, sum(n) AS combinations, count(DISTINCT query_id) AS queries
FROM (SELECT * FROM stored UNION ALL SELECT * FROM counted)
GROUP BY status ORDER BY status;
