-- 41_combination_counts: what happened to the combinations (audit calls saved by the platform
-- rule = rejected_platform; combinations cut by the audit cap = cut).
-- Reads: combinations. Creates: nothing. Parameters: $benchmark, $expansion, $query_ids (VARCHAR[] or NULL).
SELECT status, count(*) AS combinations, count(DISTINCT query_id) AS queries
FROM combinations
WHERE benchmark = $benchmark AND expansion = $expansion
  AND ($query_ids IS NULL OR list_contains($query_ids, query_id))
GROUP BY status ORDER BY status;
