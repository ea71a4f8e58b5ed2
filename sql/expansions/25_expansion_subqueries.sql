-- 25_expansion_subqueries: the sub-queries a candidates import may give lists for.
-- Reads: subqueries. Creates: nothing (rows query_id, slot, reference).
-- Parameters: $benchmark, $expansion.
SELECT query_id, slot, reference
FROM subqueries
WHERE benchmark = $benchmark AND expansion = $expansion
ORDER BY query_id, slot;
