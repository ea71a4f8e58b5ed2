-- Reads: new_results (Arrow table registered by the run import: query_id, slot, line, ...),
-- queries, qrels. Creates: nothing (at most one row). Parameters: $benchmark.
-- The first result of a sub-query-level run whose slot is not one of its query's sub-queries:
-- a query of k ground-truth tools has sub-queries 0..k-1, so a slot below 0 or past k-1 names
-- no sub-query and its list would be fused into the query's run all the same. Query ids the
-- benchmark lacks are left to 20_unknown_queries.sql.
SELECT r.query_id, r.slot, r.line, coalesce(k.k, 0) AS k
FROM new_results AS r
SEMI JOIN (SELECT query_id FROM queries WHERE benchmark = $benchmark) AS q
    ON q.query_id = r.query_id
LEFT JOIN (SELECT query_id, count(*) AS k FROM qrels WHERE benchmark = $benchmark
           GROUP BY query_id) AS k
    ON k.query_id = r.query_id
WHERE r.slot < 0 OR r.slot >= coalesce(k.k, 0)
ORDER BY r.line
LIMIT 1;
