-- 061_insert_subquery_results: write the per-sub-query lists of a sub-query-level run.
-- Reads: the registered Arrow table retrieval_ranked(query_id, slot, item_id, score, rank).
-- Creates: rows in subquery_results for $run_id. Parameters: $run_id.
INSERT INTO subquery_results (run_id, query_id, slot, item_id, score, rank)
SELECT $run_id, query_id, slot, item_id, score, rank
FROM retrieval_ranked
