-- 20_stored_subqueries: the imported queries that already have sub-queries.
-- Reads: subqueries, new_subqueries (registered). Creates: nothing (one row).
-- Parameters: $benchmark, $expansion. How many of the imported queries already have sub-queries.
SELECT count(DISTINCT s.query_id) AS queries, min(s.query_id) AS first_query
FROM subqueries AS s
WHERE s.benchmark = $benchmark AND s.expansion = $expansion
  AND s.query_id IN (SELECT query_id FROM new_subqueries);
