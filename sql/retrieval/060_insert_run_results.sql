-- 060_insert_run_results: write a query-level run's ranked hits.
-- Reads: the registered Arrow table retrieval_ranked(query_id, slot, item_id, score, rank).
-- Creates: rows in run_results for $run_id. Parameters: $run_id.
INSERT INTO run_results (run_id, query_id, item_id, score, rank)
SELECT $run_id, query_id, item_id, score, rank
FROM retrieval_ranked
