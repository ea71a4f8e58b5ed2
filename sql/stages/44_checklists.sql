-- 44_checklists: each query's text, instruction and sub-queries (slot order), for the audit.
-- Reads: queries, subqueries. Creates: nothing. Parameters: $benchmark, $expansion, $query_ids.
SELECT s.query_id, q.text AS query, q.instruction, s.slot, s.text
FROM subqueries s
JOIN queries q ON q.benchmark = s.benchmark AND q.query_id = s.query_id
WHERE s.benchmark = $benchmark AND s.expansion = $expansion AND list_contains($query_ids, s.query_id)
ORDER BY s.query_id, s.slot;
