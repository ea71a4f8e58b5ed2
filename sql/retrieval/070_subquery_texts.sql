-- 070_subquery_texts: the sub-queries of an expansion, the texts of a sub-query-level run.
-- Reads: subqueries. Creates: nothing (rows query_id, slot, text). Parameters: $benchmark,
-- $expansion.
SELECT query_id, slot, text
FROM subqueries
WHERE benchmark = $benchmark AND expansion = $expansion
ORDER BY query_id, slot
