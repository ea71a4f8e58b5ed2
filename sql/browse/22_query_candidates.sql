-- 22_query_candidates: per sub-query, its retrieved candidates (id and name) with rank, verdict
-- and reason.
-- Reads: candidates, verdicts, subqueries, items. Creates: nothing.
-- Parameters: $benchmark, $expansion, $query_id.
SELECT c.slot, c.rank, c.item_id, i.name, i.platform, c.score,
       v.accepted, v.reason, v.judge,
       c.item_id = s.reference AS is_reference
FROM candidates c
LEFT JOIN verdicts v USING (benchmark, expansion, query_id, slot, item_id)
LEFT JOIN subqueries s USING (benchmark, expansion, query_id, slot)
LEFT JOIN items i ON i.benchmark = c.benchmark AND i.item_id = c.item_id
WHERE c.benchmark = $benchmark AND c.expansion = $expansion AND c.query_id = $query_id
ORDER BY c.slot, c.rank, c.item_id DESC
