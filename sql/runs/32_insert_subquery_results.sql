-- The per-sub-query lists of one sub-query-level run.
-- Reads: new_results (registered Arrow table: query_id, slot, item_id, score, rank), queries.
-- Creates: subquery_results rows of one run. Parameters: $run_id, $benchmark.
-- The rank per (query, slot) is toolex.runs.write.ranked's (trec_eval's rule: score descending,
-- ties by item_id descending, 1-based).
INSERT INTO subquery_results (run_id, query_id, slot, item_id, score, rank)
SELECT $run_id, query_id, slot, item_id, score, rank
FROM new_results
SEMI JOIN (SELECT query_id FROM queries WHERE benchmark = $benchmark) AS q USING (query_id);
