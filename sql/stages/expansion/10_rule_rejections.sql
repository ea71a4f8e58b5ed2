-- 10_rule_rejections: the dependency rule's rejections of an expansion, for `toolex stats
-- --rejections` (toolex.pipeline.stats.rule_rejections): one row per rejected combination kept
-- with its reason, each with its query's count of rejections.
-- Reads: combination_products, combinations, combination_items, rule_rejections.
-- Creates: nothing (query_id, rejected, rrf_rank, members, reason).
-- Parameters: $benchmark, $expansion.
-- rejected counts every rejection of the query (the assembly's count, schema 066, beside the
-- rows an older toolex stored); the rows show the first ones kept with their reasons (schema
-- 068, and the rows of an older store), best ranked first. A query with rejections but none
-- kept (assembled before schema 068) still has a row, without a combination.
WITH counted AS (
    SELECT query_id, rejected_platform AS n FROM combination_products
    WHERE benchmark = $benchmark AND expansion = $expansion AND rejected_platform > 0
    UNION ALL
    SELECT query_id, count(*) FROM combinations
    WHERE benchmark = $benchmark AND expansion = $expansion AND status = 'rejected_platform'
    GROUP BY query_id
),
per_query AS (
    SELECT query_id, sum(n)::BIGINT AS rejected FROM counted GROUP BY query_id
),
shown AS (
    SELECT query_id, rrf_rank, items, reason FROM rule_rejections
    WHERE benchmark = $benchmark AND expansion = $expansion
    UNION ALL
    SELECT c.query_id, c.rrf_rank, list(ci.item_id ORDER BY ci.slot), c.reason
    FROM combinations c
    JOIN combination_items ci ON ci.benchmark = c.benchmark AND ci.expansion = c.expansion
         AND ci.query_id = c.query_id AND ci.combo_id = c.combo_id
    WHERE c.benchmark = $benchmark AND c.expansion = $expansion
      AND c.status = 'rejected_platform'
    GROUP BY c.query_id, c.combo_id, c.rrf_rank, c.reason
)
SELECT p.query_id, p.rejected, s.rrf_rank, array_to_string(s.items, ' + ') AS members, s.reason
FROM per_query p
LEFT JOIN shown s ON s.query_id = p.query_id
ORDER BY p.query_id, s.rrf_rank NULLS LAST
